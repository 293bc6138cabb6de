// Device code calls `#[acc::routine]` functions only.
fn plain(v: f64) -> f64 {
    v + 1.0
}

#[acc::parallel(copy(y))]
fn calls_plain(y: &mut [f64]) {
    #[acc(loop gang)]
    for i in 0..y.len() {
        y[i] = plain(y[i]);
    }
}

fn main() {}
