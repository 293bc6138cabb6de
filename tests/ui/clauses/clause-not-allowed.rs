#[acc::parallel(copy(y))]
fn scale(y: &mut [f32]) {
    #[acc(loop gang num_gangs(4))]
    for i in 0..y.len() {
        y[i] *= 2.0;
    }
}

fn main() {}
