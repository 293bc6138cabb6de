#[derive(Clone, Copy, acc::DeviceCopy)]
struct P {
    x: f32,
    y: f32,
}

fn main() {}
