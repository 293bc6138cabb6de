#[acc::parallel(copy(y))]
fn fill(n: usize, y: &mut [f32]) {
    #[acc(loop gang collapse(2))]
    for i in 0..n {
        #[acc(loop vector)]
        for j in 0..n {
            y[i * n + j] = 1.0;
        }
    }
}

fn main() {}
