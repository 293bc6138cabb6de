#[derive(Clone, Copy)]
pub struct P {
    x: f32,
}

#[acc::parallel(copy(p))]
fn scale(p: &mut [P]) {
    #[acc(loop gang vector)]
    for i in 0..p.len() {
        p[i].x *= 2.0;
    }
}

fn main() {}
