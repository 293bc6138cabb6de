// A routine is device code: its body must be in the subset.
#[acc::routine(seq)]
fn outside(v: f64) -> f64 {
    v.to_degrees()
}

#[acc::routine(seq)]
fn via_outside(v: f64) -> f64 {
    outside(v) * 2.0
}

fn main() {}
