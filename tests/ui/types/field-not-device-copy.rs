#[derive(Clone, Copy)]
struct Plain {
    x: f32,
}

#[derive(Clone, Copy, acc::DeviceCopy)]
#[repr(C)]
struct Outer {
    inner: Plain,
}

fn main() {}
