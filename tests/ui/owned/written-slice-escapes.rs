fn helper(_: &mut [f64]) {}

// A written slice may only be indexed inside the loop: each chunk owns a part of it.
#[acc::parallel(copy(y))]
fn passes_it_on(y: &mut [f64]) {
    #[acc(loop gang)]
    for i in 0..y.len() {
        y[i] = 1.0;
        helper(y);
    }
}

fn main() {}
