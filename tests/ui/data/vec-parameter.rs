#[acc::parallel(copy(y))]
fn add(v: Vec<f32>, y: &mut [f32]) {
    #[acc(loop gang)]
    for i in 0..y.len() {
        y[i] += v[i];
    }
}

fn main() {}
