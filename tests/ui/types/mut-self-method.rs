#[derive(Clone, Copy, acc::DeviceCopy)]
#[repr(C)]
struct V {
    x: f32,
}

impl V {
    #[acc::routine(seq)]
    fn grow(&mut self, by: f32) {
        self.x += by;
    }
}

fn main() {}
