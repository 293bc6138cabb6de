#[acc::parallel(copyin(x))]
fn collect(x: &[f64]) -> Vec<f64> {
    let mut v: Vec<f64> = Vec::new();
    #[acc(loop gang reduction(+:v))]
    for i in 0..x.len() {
        let _ = x[i];
    }
    v
}

fn main() {}
