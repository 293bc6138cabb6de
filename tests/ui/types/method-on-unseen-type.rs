#[derive(Clone, Copy, acc::DeviceCopy)]
#[repr(C)]
struct V {
    x: f32,
}

impl V {
    #[acc::routine(seq)]
    fn norm(&self) -> f32 {
        self.x.abs()
    }
}

#[acc::routine(seq)]
fn make(x: f32) -> V {
    V { x }
}

#[acc::parallel(copy(y))]
fn norms(y: &mut [f32]) {
    #[acc(loop gang vector)]
    for i in 0..y.len() {
        let v = make(y[i]);
        y[i] = v.norm();
    }
}

fn main() {}
