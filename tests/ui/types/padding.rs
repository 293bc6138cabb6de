#[derive(Clone, Copy, acc::DeviceCopy)]
#[repr(C)]
struct Tagged {
    tag: u8,
    value: f64,
}

fn main() {}
