fn plain(y: &mut [f32]) {
    #[acc::acc(loop gang)]
    for i in 0..y.len() {
        y[i] = 0.0;
    }
}

#[acc::acc(loop)]
fn item() {}

fn main() {}
