#[acc::parallel(copyin(x))]
fn total(x: &[f32]) -> f32 {
    let mut s = 0.0;
    #[acc(loop gang reduction(+:s))]
    for i in (0..x.len()).step_by(2) {
        s += x[i];
    }
    s
}

fn main() {}
