// The elements a chunk writes depend on data: the safe function cannot be checked.
#[acc::parallel(copyin(perm, x) copyout(y))]
fn scatter(perm: &[usize], x: &[f64], y: &mut [f64]) {
    #[acc(loop gang)]
    for i in 0..x.len() {
        y[perm[i]] = x[i];
    }
}

// A counter the body changes.
#[acc::parallel(copy(y))]
fn counted(y: &mut [f64]) {
    #[acc(loop gang)]
    for i in 0..y.len() {
        let mut k = i;
        k += 1;
        y[k - 1] = 0.0;
    }
}

fn main() {}
