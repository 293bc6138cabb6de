#[acc::parallel(copy(y))]
fn halve(y: &mut [f32]) {
    let mut i = 0;
    #[acc(loop gang)]
    while i < y.len() {
        y[i] *= 0.5;
        i += 1;
    }
}

fn main() {}
