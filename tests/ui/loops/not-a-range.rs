#[acc::parallel(copyin(x))]
fn total(x: &[f32]) -> f32 {
    let mut s = 0.0;
    #[acc(loop gang reduction(+:s))]
    for v in x.iter() {
        s += v;
    }
    s
}

fn main() {}
