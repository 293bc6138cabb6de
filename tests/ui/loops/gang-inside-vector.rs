// The engine's nesting rules apply to Rust as to C: gang, then worker, then vector.
#[acc::parallel(copy(y))]
fn misnested(n: usize, y: &mut [f64]) {
    #[acc(loop vector)]
    for i in 0..n {
        #[acc(loop gang)]
        for j in 0..n {
            y[i * n + j] = 1.0;
        }
    }
}

fn main() {}
