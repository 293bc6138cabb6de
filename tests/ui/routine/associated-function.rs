//! `#[acc::routine]` goes on free functions: next to the function it declares a hidden struct
//! of the same name, which an `impl` cannot hold. (A method, taking `self` or naming `Self`, is
//! left as it is: kernels cannot call methods.)

struct Grid;

impl Grid {
    #[acc::routine(seq)]
    fn cell(&self, i: usize) -> usize {
        i
    }

    #[acc::routine(seq)]
    fn make() -> Self {
        Grid
    }

    #[acc::routine(seq)]
    fn half(v: f64) -> f64 {
        v * 0.5
    }
}

fn main() {}
