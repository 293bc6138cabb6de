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
