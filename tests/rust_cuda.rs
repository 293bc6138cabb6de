//! The CUDA form of Rust kernels beyond `rust_front_end.rs`: kernels that use more of the
//! subset (casts, `while`, `if` values, math methods, shifts, `a..=b`) and the bench's matmul.
//! Each runs on the host devices against a sequential answer (the host path is unchanged), and
//! its CUDA form compiles with NVRTC (no GPU needed). Under the CUDA simulator
//! (`tests/cuda-sim`, in a child process) the same kernels run their CUDA form on the
//! `nvidia` device, and a bounds check that fails there stops the program as Rust's panic
//! would.

#![allow(clippy::needless_range_loop)]

#[path = "support/cuda.rs"]
mod cuda;

#[path = "cuda-sim/support.rs"]
mod sim;

/// The child mode in which the subset kernels also run on the simulated GPU.
const ON_GPU: &str = "rust-cuda-on-gpu";

#[acc::parallel(copyin(a, b) copyout(c))]
fn matmul(n: usize, a: &[f64], b: &[f64], c: &mut [f64]) {
    #[acc(loop gang collapse(2))]
    for i in 0..n {
        for j in 0..n {
            let mut s = 0.0;
            for k in 0..n {
                s += a[i * n + k] * b[k * n + j];
            }
            c[i * n + j] = s;
        }
    }
}

fn mixed_host(x: &[f32], out: &mut [i32], bits: &mut [u16]) {
    for i in 0..out.len() {
        let v = x[i];
        let mut steps = 0;
        let mut t = v.abs();
        while t > 1.0 && steps < 40 {
            t = t.sqrt();
            steps += 1;
        }
        let sign = if v < 0.0 { -1 } else { 1 };
        out[i] = sign * (steps + (v * 100.0) as i32 % 7);
        bits[i] = ((i as u16) << 3) ^ (bits[i] >> 1) | (v.floor().max(0.0) as u16);
    }
}

#[acc::parallel(copyin(x) copy(out, bits))]
fn mixed(x: &[f32], out: &mut [i32], bits: &mut [u16]) {
    #[acc(loop gang vector)]
    for i in 0..out.len() {
        let v = x[i];
        let mut steps = 0;
        let mut t = v.abs();
        while t > 1.0 && steps < 40 {
            t = t.sqrt();
            steps += 1;
        }
        let sign = if v < 0.0 { -1 } else { 1 };
        out[i] = sign * (steps + (v * 100.0) as i32 % 7);
        bits[i] = ((i as u16) << 3) ^ (bits[i] >> 1) | (v.floor().max(0.0) as u16);
    }
}

#[acc::parallel(loop gang reduction(max:m))]
fn norm_max(n: u32, x: &[f64]) -> f64 {
    let mut m = f64::NEG_INFINITY;
    for i in 0..=n - 1 {
        let v = x[i as usize];
        m = m.max(f64::max(v, -v).powi(2).sqrt().exp().ln());
    }
    m
}

#[test]
fn subset_kernels_give_the_sequential_answers() {
    let mut devices = vec![acc::DeviceType::Host, acc::DeviceType::HostDiscrete];
    if sim::child_mode().as_deref() == Some(ON_GPU) {
        devices.push(acc::DeviceType::Nvidia);
    }
    for d in devices {
        acc::set_device_type(d);
        assert_eq!(acc::device_type(), d);
        let n = 9;
        let a: Vec<f64> = (0..n * n).map(|k| (k % 5) as f64).collect();
        let b: Vec<f64> = (0..n * n).map(|k| (k % 3) as f64 - 1.0).collect();
        let mut c = vec![0.0; n * n];
        matmul(n, &a, &b, &mut c);
        for i in 0..n {
            for j in 0..n {
                let want: f64 = (0..n).map(|k| a[i * n + k] * b[k * n + j]).sum();
                assert_eq!(c[i * n + j], want);
            }
        }
        let x: Vec<f32> = (0..200).map(|i| (i as f32 - 100.0) * 1.37).collect();
        let (mut out, mut bits) = (vec![0; 200], vec![7u16; 200]);
        let (mut want_out, mut want_bits) = (vec![0; 200], vec![7u16; 200]);
        mixed(&x, &mut out, &mut bits);
        mixed_host(&x, &mut want_out, &mut want_bits);
        assert_eq!((out, bits), (want_out, want_bits));
        let y: Vec<f64> = (0..50).map(|i| (i as f64 - 30.0) * 0.5).collect();
        assert!((norm_max(50, &y) - 15.0).abs() < 1e-12);
        println!("right answers on {d:?}");
    }
}

/// The same kernels on the simulated GPU.
#[test]
fn subset_kernels_on_the_simulated_gpu() {
    if sim::child_mode().is_some() {
        return;
    }
    let Some(s) = sim::simulator() else { return };
    let out = sim::run_child(
        s,
        ON_GPU,
        &["--exact", "subset_kernels_give_the_sequential_answers"],
        &[],
    );
    let text = sim::printed(&out);
    assert!(
        out.status.success() && text.contains("right answers on Nvidia"),
        "{text}"
    );
}

/// Reads one element past the end on its last iteration.
#[acc::parallel(copyin(x) copyout(y))]
fn shifted(x: &[i32], y: &mut [i32]) {
    #[acc(loop gang vector)]
    for i in 0..y.len() {
        y[i] = x[i + 1];
    }
}

/// The CUDA form checks bounds as Rust does: the out-of-bounds read prints Rust's panic
/// message and traps, the launch fails and the program stops with an error.
#[test]
fn an_index_out_of_bounds_stops_the_program_on_the_gpu() {
    const MODE: &str = "rust-cuda-out-of-bounds";
    match sim::child_mode().as_deref() {
        Some(MODE) => {
            acc::set_device_type(acc::DeviceType::Nvidia);
            let mut y = vec![0; 300];
            let x: Vec<i32> = (0..300).collect();
            shifted(&x, &mut y);
            println!("shifted returned");
            return;
        }
        Some(_) => return,
        None => {}
    }
    let Some(s) = sim::simulator() else { return };
    let out = sim::run_child(
        s,
        MODE,
        &[
            "--exact",
            "an_index_out_of_bounds_stops_the_program_on_the_gpu",
        ],
        &[],
    );
    let text = sim::printed(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("acc: Rust kernel shifted panicked at")
            && text.contains("index out of bounds: (the len, the index) are (300, 300)")
            && text.contains("CUDA_ERROR_LAUNCH_FAILED")
            && !text.contains("shifted returned"),
        "{text}"
    );
}

#[test]
fn subset_kernels_have_a_cuda_form_that_nvrtc_compiles() {
    if sim::child_mode().is_some() {
        return; // The parent process checks with the real NVRTC.
    }
    cuda::compile_all(&[
        &__ACC_CUDA_MATMUL,
        &__ACC_CUDA_MIXED,
        &__ACC_CUDA_NORM_MAX,
        &__ACC_CUDA_SHIFTED,
    ]);
}

// ---- routines --------------------------------------------------------------------------------

/// Routines in another module, called through `use` and through a path.
mod util {
    #[acc::routine(seq)]
    pub fn clamp01(v: f64) -> f64 {
        if v < 0.0 {
            return 0.0;
        }
        v.min(1.0)
    }

    /// A `vector` routine runs sequentially in the calling GPU thread, as `seq` does.
    #[acc::routine(vector)]
    pub fn lerp(a: f64, b: f64, t: f64) -> f64 {
        a + (b - a) * super::clamp_t(t)
    }
}

use util::clamp01;

/// A routine calling a routine (imported with `use`); `util::lerp`, above, calls it.
#[acc::routine(seq)]
fn clamp_t(t: f64) -> f64 {
    clamp01(t)
}

/// A routine taking a slice. (`saturating_sub` is outside the CUDA subset.)
#[acc::routine(seq)]
#[allow(clippy::implicit_saturating_sub)]
fn window_sum(x: &[f64], i: usize, w: usize) -> f64 {
    let mut s = 0.0;
    let lo = if i >= w { i - w } else { 0 };
    let hi = (i + w + 1).min(x.len());
    for j in lo..hi {
        s += x[j];
    }
    s
}

#[acc::parallel(copyin(x) copyout(y))]
fn smooth(w: usize, x: &[f64], y: &mut [f64]) {
    let from = 0.0;
    #[acc(loop gang vector)]
    for i in 0..y.len() {
        // `s`, and `from` (passed to the kernel), take their types from the routines'
        // signatures.
        let s = window_sum(x, i, w);
        y[i] = util::lerp(from, s, clamp01(x[i] * 0.1));
    }
}

/// A reduction of a recursive routine's results; `gcd` is defined after its caller.
#[acc::parallel(loop gang reduction(+:total))]
fn gcd_sum(n: u64) -> u64 {
    let mut total = 0;
    for i in 0..n {
        total += gcd(i, 36);
    }
    total
}

#[acc::routine(seq)]
fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Mutually recursive routines: NVRTC needs `odd`'s prototype before `even`'s body.
#[acc::routine(seq)]
fn even(n: u32) -> bool {
    if n == 0 {
        true
    } else {
        odd(n - 1)
    }
}

#[acc::routine(seq)]
fn odd(n: u32) -> bool {
    n != 0 && even(n - 1)
}

#[acc::parallel(copyout(y))]
fn parity(y: &mut [u8]) {
    #[acc(loop gang)]
    for i in 0..y.len() {
        y[i] = if even(i as u32) { 2 } else { 1 };
    }
}

/// A routine that writes a `&mut` slice, called by `serial` host code (a one-thread kernel).
#[acc::routine(worker)]
fn bump(y: &mut [i64], k: usize) -> i64 {
    y[k] += k as i64;
    y[k]
}

#[acc::serial(copy(y))]
fn bump_all(y: &mut [i64]) {
    for k in 0..y.len() {
        let v = bump(y, k);
        if k + 1 < y.len() {
            y[k + 1] = v;
        }
    }
}

#[test]
fn kernels_calling_routines_run_on_the_host_devices() {
    for d in [acc::DeviceType::Host, acc::DeviceType::HostDiscrete] {
        acc::set_device_type(d);
        let x: Vec<f64> = (0..40).map(|i| (i % 13) as f64 - 2.0).collect();
        let mut y = vec![0.0; 40];
        smooth(2, &x, &mut y);
        for i in 0..40usize {
            let s: f64 = x[i.saturating_sub(2)..(i + 3).min(40)].iter().sum();
            let t = (x[i] * 0.1).clamp(0.0, 1.0);
            assert_eq!(y[i], s * t, "{d:?} at {i}");
        }
        let want: u64 = (0..100u64)
            .map(|i| {
                let (mut a, mut b) = (i, 36);
                while b != 0 {
                    (a, b) = (b, a % b);
                }
                a
            })
            .sum();
        assert_eq!(gcd_sum(100), want);
        let mut p = vec![0u8; 7];
        parity(&mut p);
        assert_eq!(p, [2, 1, 2, 1, 2, 1, 2]);
        let mut y = vec![1i64; 6];
        bump_all(&mut y);
        // y[k] = y[k-1] + k, from y[0] = 1.
        assert_eq!(y, [1, 2, 4, 7, 11, 16]);
    }
}

#[test]
fn kernels_calling_routines_have_a_cuda_form_that_nvrtc_compiles() {
    cuda::compile_all(&[
        &__ACC_CUDA_SMOOTH,
        &__ACC_CUDA_GCD_SUM,
        &__ACC_CUDA_PARITY,
        &__ACC_CUDA_BUMP_ALL,
    ]);
    // Each routine is declared before any use, then defined, once each: four prototypes and
    // four definitions, though `clamp01` is called twice.
    let source = __ACC_CUDA_SMOOTH.cuda_source().unwrap();
    let protos = source
        .find("static __device__ double __acc_rt0_window_sum(")
        .unwrap();
    let defs = source.find("/* tests/rust_cuda.rs:").unwrap();
    assert!(protos < defs, "{source}");
    assert_eq!(
        source.matches("static __device__ double __acc_rt").count(),
        8,
        "{source}"
    );
    // A recursive routine calls itself through its alias, bound to its own name.
    let source = __ACC_CUDA_GCD_SUM.cuda_source().unwrap();
    assert!(
        source.contains("#define __acc_call_3gcd __acc_rt0_gcd"),
        "{source}"
    );
    assert!(source.contains("return __acc_call_3gcd(b_, "), "{source}");
}

/// Two routines named `twin` in different modules, one routine imported by a glob, and paths
/// through `crate::` and `self::`.
mod twin_a {
    #[acc::routine(seq)]
    pub fn twin(v: f64) -> f64 {
        v + 1.0
    }
}

mod twin_b {
    #[acc::routine(seq)]
    pub(crate) fn twin(v: f64) -> f64 {
        v * 2.0
    }
}

mod globbed {
    #[acc::routine(seq)]
    pub fn triple(v: f64) -> f64 {
        v * 3.0
    }
}

use globbed::*;

#[acc::parallel(copy(y))]
fn lookups(y: &mut [f64]) {
    #[acc(loop gang)]
    for i in 0..y.len() {
        y[i] = twin_a::twin(y[i]) + crate::twin_b::twin(y[i]) + self::triple(y[i]) + triple(1.0);
    }
}

#[test]
fn routines_are_found_by_the_path_the_call_names() {
    // A routine and its caller declared inside a function body.
    fn in_a_block() -> &'static acc::__private::CudaModule {
        #[acc::routine(seq)]
        fn inner(v: f64) -> f64 {
            v * 5.0
        }

        #[acc::parallel(copy(y))]
        fn calls_inner(y: &mut [f64]) {
            #[acc(loop gang)]
            for i in 0..y.len() {
                y[i] = inner(y[i]);
            }
        }

        let mut y = vec![1.0; 4];
        calls_inner(&mut y);
        assert_eq!(y, [5.0; 4]);
        &__ACC_CUDA_CALLS_INNER
    }
    for d in [acc::DeviceType::Host, acc::DeviceType::HostDiscrete] {
        acc::set_device_type(d);
        let mut y = vec![2.0; 5];
        lookups(&mut y);
        assert_eq!(y, [3.0 + 4.0 + 6.0 + 3.0; 5]);
        in_a_block();
    }
    cuda::compile_all(&[&__ACC_CUDA_LOOKUPS, in_a_block()]);
    let source = __ACC_CUDA_LOOKUPS.cuda_source().unwrap();
    assert!(
        source.contains("#define __acc_call_6twin_a_4twin __acc_rt0_twin"),
        "{source}"
    );
    assert!(
        source.contains("#define __acc_call_5crate_6twin_b_4twin __acc_rt1_twin"),
        "{source}"
    );
    // `self::triple` and `triple` are one routine, written once.
    assert!(
        source.contains("#define __acc_call_4self_6triple __acc_rt2_triple"),
        "{source}"
    );
    assert!(
        source.contains("#define __acc_call_6triple __acc_rt2_triple"),
        "{source}"
    );
    assert!(!source.contains("__acc_rt3"), "{source}");
}
