#[derive(Clone, acc::DeviceCopy)]
#[repr(C)]
struct Cloud {
    n: u32,
    points: Vec<f32>,
}

fn main() {}
