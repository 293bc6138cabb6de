#[acc::parallel(loop gang reduction(^:s))]
fn bits(x: &[f32]) -> f32 {
    let mut s = 0.0f32;
    for i in 0..x.len() {
        s = x[i];
    }
    s
}

fn main() {}
