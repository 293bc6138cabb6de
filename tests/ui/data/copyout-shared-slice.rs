#[acc::parallel(copyout(x) copy(z))]
fn saxpy(x: &[f32], z: &mut [f32]) {
    #[acc(loop gang vector)]
    for i in 0..z.len() {
        z[i] = x[i];
    }
}

fn main() {}
