#[acc::parallel(copy(y))]
fn clear(y: &mut [f32]) {
    #[acc(loop gang)]
    for i in 0..y.len() {
        if y[i] < 0.0 {
            return;
        }
        y[i] = 0.0;
    }
}

fn main() {}
