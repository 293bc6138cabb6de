#[derive(Clone, Copy, acc::DeviceCopy)]
#[repr(C)]
struct Cell {
    alive: bool,
    age: u8,
}

fn main() {}
