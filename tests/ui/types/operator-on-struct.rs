#[derive(Clone, Copy, acc::DeviceCopy)]
#[repr(C)]
struct V {
    x: f32,
}

impl std::ops::Add for V {
    type Output = V;
    fn add(self, o: V) -> V {
        V { x: self.x + o.x }
    }
}

#[acc::parallel(copyin(a) copy(b))]
fn add(a: &[V], b: &mut [V]) {
    #[acc(loop gang vector)]
    for i in 0..b.len() {
        b[i] = a[i] + b[i];
    }
}

fn main() {}
