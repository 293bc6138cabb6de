//! A routine called with a value of another type than its parameter's: rustc's own error, once.

#[acc::routine(seq)]
fn half(v: f64) -> f64 {
    v * 0.5
}

#[acc::parallel(copyin(x) copyout(y))]
fn halve(x: &[f32], y: &mut [f32]) {
    #[acc(loop gang)]
    for i in 0..y.len() {
        y[i] = half(x[i]) as f32;
    }
}

fn main() {}
