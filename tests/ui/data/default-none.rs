#[acc::parallel(default(none) copyin(x))]
fn saxpy(a: f32, x: &[f32], y: &mut [f32]) {
    #[acc(loop gang vector)]
    for i in 0..y.len() {
        y[i] += a * x[i];
    }
}

fn main() {}
