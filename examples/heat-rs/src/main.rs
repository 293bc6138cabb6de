//! heat-rs: OpenACC C kernels called from Rust, checked against the same
//! computation in Rust. The device is the runtime's choice
//! (`ACC_DEVICE_TYPE`, default `host`).

use std::os::raw::c_int;

// With the `bindgen` feature the declarations are generated from
// src/heat.h (and name `acc`, whose runtime the C calls).
#[cfg(feature = "bindgen")]
mod heat {
    #![allow(
        non_upper_case_globals,
        non_camel_case_types,
        non_snake_case,
        dead_code
    )]
    include!(concat!(env!("OUT_DIR"), "/bindings.rs"));
}
#[cfg(feature = "bindgen")]
use heat::{heat_run, heat_sum};

// Without it, they are written by hand; nothing else here names `acc`, so
// the `use` makes sure its runtime, which the C calls, is linked.
#[cfg(not(feature = "bindgen"))]
use acc as _;

#[cfg(not(feature = "bindgen"))]
extern "C" {
    fn heat_run(n: c_int, steps: c_int, alpha: f64, u: *mut f64, tmp: *mut f64);
    fn heat_sum(n: c_int, u: *const f64) -> f64;
}

/// The same steps as `heat_run`, in Rust.
fn heat_rust(u: &mut [f64], steps: usize, alpha: f64) {
    let n = u.len();
    let mut tmp = u.to_vec();
    for _ in 0..steps {
        for i in 1..n - 1 {
            tmp[i] = u[i] + alpha * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
        }
        u[1..n - 1].copy_from_slice(&tmp[1..n - 1]);
    }
}

fn main() {
    let n = 1000;
    let steps = 200;
    let alpha = 0.25;
    let init: Vec<f64> = (0..n)
        .map(|i| {
            if (n / 3..2 * n / 3).contains(&i) {
                100.0
            } else {
                0.0
            }
        })
        .collect();

    let mut u = init.clone();
    let mut tmp = vec![0.0; n];
    // SAFETY: `u` and `tmp` hold `n` elements each, as the C functions
    // read and write, and live across the calls.
    let sum = unsafe {
        heat_run(n as c_int, steps, alpha, u.as_mut_ptr(), tmp.as_mut_ptr());
        heat_sum(n as c_int, u.as_ptr())
    };

    let mut expect = init;
    heat_rust(&mut expect, steps as usize, alpha);
    let expect_sum: f64 = expect.iter().sum();
    for (i, (a, b)) in u.iter().zip(&expect).enumerate() {
        assert!(
            (a - b).abs() <= 1e-9 * b.abs().max(1.0),
            "u[{i}]: C {a}, Rust {b}"
        );
    }
    assert!(
        (sum - expect_sum).abs() <= 1e-9 * expect_sum.abs(),
        "sum: C {sum}, Rust {expect_sum}"
    );
    println!("heat-rs: ok (sum {sum:.6})");
}
