//! Partitioned loops that write slices are safe Rust: each chunk owns the part of a written
//! slice its iterations index, a loop whose chunks would write the same elements is refused
//! before it runs, and an access outside the chunk's part panics. `unsafe fn` opts out, with
//! the caller's promise instead of the checks.

#![allow(clippy::needless_range_loop)]

use std::panic::{catch_unwind, AssertUnwindSafe};

fn each_device(f: impl Fn()) {
    for d in [acc::DeviceType::Host, acc::DeviceType::HostDiscrete] {
        acc::set_device_type(d);
        f();
    }
}

/// The message of the panic `f` raises.
fn panic_message(f: impl FnOnce()) -> String {
    let payload = catch_unwind(AssertUnwindSafe(f)).expect_err("expected a panic");
    if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else {
        "(not a string)".into()
    }
}

/// Rows through an inner loop and a `let`, two written slices, and a `&mut` slice the loop only
/// reads (shared by the chunks).
#[acc::parallel(copy(out, count) copy(weights))]
fn weighted_rows(m: usize, weights: &mut [f64], out: &mut [f64], count: &mut [u32]) {
    #[acc(loop gang)]
    for i in 0..count.len() {
        let row = i * m;
        for j in 0..m {
            let at = row + j;
            out[at] = weights[j] * at as f64;
        }
        count[i] += 1;
    }
}

#[test]
fn rows_inner_loops_and_lets_are_owned_by_their_chunks() {
    each_device(|| {
        for (rows, m) in [(1, 5), (7, 3), (64, 17)] {
            let mut weights: Vec<f64> = (0..m).map(|j| j as f64 + 0.5).collect();
            let mut out = vec![0.0; rows * m];
            let mut count = vec![0u32; rows];
            weighted_rows(m, &mut weights, &mut out, &mut count);
            for i in 0..rows {
                assert_eq!(count[i], 1);
                for j in 0..m {
                    assert_eq!(out[i * m + j], (j as f64 + 0.5) * (i * m + j) as f64);
                }
            }
        }
    });
}

/// A reversed write: the estimate is the hull of the first and last iterations' indices.
#[acc::parallel(copyin(x) copyout(y))]
fn reverse(x: &[i32], y: &mut [i32]) {
    #[acc(loop gang vector)]
    for i in 0..x.len() {
        y[x.len() - 1 - i] = x[i];
    }
}

#[test]
fn reversed_indices_are_owned_too() {
    each_device(|| {
        let x: Vec<i32> = (0..1001).collect();
        let mut y = vec![0; 1001];
        reverse(&x, &mut y);
        assert!(y.iter().enumerate().all(|(k, v)| *v == 1000 - k as i32));
    });
}

/// Every iteration adds into `y[0]`: two chunks would race on it.
#[acc::parallel(copy(y) num_gangs(2))]
fn all_into_one(x: &[f64], y: &mut [f64]) {
    #[acc(loop gang)]
    for i in 0..x.len() {
        y[0] += x[i];
    }
}

#[test]
fn chunks_that_would_write_one_element_are_refused_before_running() {
    each_device(|| {
        let x = vec![1.0; 100];
        let mut y = vec![0.0; 4];
        let msg = panic_message(|| all_into_one(&x, &mut y));
        assert!(
            msg.contains("would let two chunks write the same elements of `y`"),
            "{msg}"
        );
        assert!(msg.contains("rust_owned.rs"), "{msg}");
        assert!(msg.contains("unsafe fn"), "{msg}");
        assert_eq!(y, [0.0; 4], "nothing ran");
    });
}

/// `(7 i) mod n` leaves each chunk's first-to-last hull: the chunk meets another chunk's part.
#[acc::parallel(copy(y) num_gangs(2))]
fn strided(n: usize, y: &mut [usize]) {
    #[acc(loop gang)]
    for i in 0..n {
        y[(i * 7) % n] = i;
    }
}

/// The same loop in one chunk, which owns the whole slice.
#[acc::parallel(copy(y) num_gangs(1))]
fn strided_one_chunk(n: usize, y: &mut [usize]) {
    #[acc(loop gang)]
    for i in 0..n {
        y[(i * 7) % n] = i;
    }
}

#[test]
fn an_index_outside_the_chunks_part_panics() {
    each_device(|| {
        let mut y = vec![0; 100];
        let msg = panic_message(|| strided(100, &mut y));
        assert!(msg.contains("is outside the part of `y`"), "{msg}");
        assert!(msg.contains("rust_owned.rs"), "{msg}");
        strided_one_chunk(100, &mut y);
        for i in 0..100 {
            assert_eq!(y[(i * 7) % 100], i);
        }
    });
}

/// A transpose writes a column per row, so a chunk's writes leave the hull of its first and
/// last indices although no two iterations write one element: the safe form panics and the
/// `unsafe fn` form runs.
#[acc::parallel(copyin(a) copyout(t) num_gangs(2))]
fn transpose(n: usize, a: &[f32], t: &mut [f32]) {
    #[acc(loop gang collapse(2))]
    for i in 0..n {
        for j in 0..n {
            t[j * n + i] = a[i * n + j];
        }
    }
}

/// # Safety
/// Nothing beyond `transpose`'s own indexing: every `(i, j)` writes a different `t[j n + i]`.
#[acc::parallel(copyin(a) copyout(t) num_gangs(2))]
unsafe fn transpose_unchecked(n: usize, a: &[f32], t: &mut [f32]) {
    #[acc(loop gang collapse(2))]
    for i in 0..n {
        for j in 0..n {
            t[j * n + i] = a[i * n + j];
        }
    }
}

/// # Safety
/// `perm` is a permutation of `0..y.len()`, so every iteration writes a different element.
#[acc::parallel(copyin(perm, x) copyout(y))]
unsafe fn scatter(perm: &[usize], x: &[u64], y: &mut [u64]) {
    #[acc(loop gang)]
    for i in 0..x.len() {
        y[perm[i]] = x[i];
    }
}

#[test]
fn unsafe_fn_takes_the_callers_promise() {
    each_device(|| {
        let n = 33;
        let a: Vec<f32> = (0..n * n).map(|k| k as f32).collect();
        let mut t = vec![0.0; n * n];
        let msg = panic_message(|| transpose(n, &a, &mut t));
        assert!(msg.contains("part of `t`"), "{msg}");
        // SAFETY: the transpose writes each element once.
        unsafe { transpose_unchecked(n, &a, &mut t) };
        for i in 0..n {
            for j in 0..n {
                assert_eq!(t[j * n + i], a[i * n + j]);
            }
        }
        let perm: Vec<usize> = (0..500).map(|i| (i * 7) % 500).collect();
        let x: Vec<u64> = (0..500).collect();
        let mut y = vec![0; 500];
        // SAFETY: 7 and 500 are coprime, so `perm` is a permutation.
        unsafe { scatter(&perm, &x, &mut y) };
        for i in 0..500 {
            assert_eq!(y[perm[i]], i as u64);
        }
    });
}
