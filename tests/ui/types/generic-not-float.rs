#[acc::parallel(copy(y))]
fn double<T: Copy + Send + Sync + std::ops::Add<Output = T> + acc::DeviceCopy>(y: &mut [T]) {
    #[acc(loop gang vector)]
    for i in 0..y.len() {
        y[i] = y[i] + y[i];
    }
}

fn main() {}
