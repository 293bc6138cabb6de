//! End-to-end tests of the Rust front end: each kernel runs on `host` and on `host_discrete`,
//! and gives the sequential answer on both. `every_test_on_the_simulated_gpu` runs them all
//! again in a child process under the CUDA simulator (`tests/cuda-sim`), where the `nvidia`
//! device is one more device: there the kernels' CUDA form runs.
//!
//! The current device is per thread, and every test body runs on the test's own thread, so
//! tests that switch devices cannot disturb each other.

// Kernels index slices by loop counter: that is what OpenACC loops look like.
#![allow(clippy::needless_range_loop)]

#[path = "support/cuda.rs"]
mod cuda;

#[path = "cuda-sim/support.rs"]
mod sim;

/// The child mode in which the tests also run on the simulated GPU.
const ON_GPU: &str = "rust-front-end-on-gpu";

#[acc::parallel(copyin(x) copy(y))]
fn saxpy(a: f32, x: &[f32], y: &mut [f32]) {
    #[acc(loop gang vector)]
    for i in 0..y.len() {
        y[i] += a * x[i];
    }
}

#[acc::parallel(loop gang vector reduction(+:sum))]
fn dot(x: &[f64], y: &[f64]) -> f64 {
    let mut sum = 0.0;
    for i in 0..x.len() {
        sum += x[i] * y[i];
    }
    sum
}

#[acc::parallel(copyin(a) copyout(b))]
fn stencil(n: usize, m: usize, a: &[f64], b: &mut [f64]) {
    #[acc(loop gang collapse(2))]
    for i in 1..n - 1 {
        for j in 1..m - 1 {
            b[i * m + j] = 0.25
                * (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] + a[i * m + j + 1]);
        }
    }
}

/// Runs `f` on `host` and `host_discrete`, and on the simulated GPU in the child process of
/// `every_test_on_the_simulated_gpu`.
fn each_device(f: impl Fn()) {
    let mut devices = vec![acc::DeviceType::Host, acc::DeviceType::HostDiscrete];
    if sim::child_mode().as_deref() == Some(ON_GPU) {
        devices.push(acc::DeviceType::Nvidia);
    }
    for d in devices {
        acc::set_device_type(d);
        assert_eq!(acc::device_type(), d);
        f();
        if d == acc::DeviceType::Nvidia {
            println!("right answers on the simulated GPU");
        }
    }
}

/// Whether the current device has memory of its own (`host_discrete`, a GPU).
fn discrete() -> bool {
    acc::device_type() != acc::DeviceType::Host
}

/// A triangular nest (row i does i + 1 dot products): the host deals its rows out in balanced
/// blocks, each writing its own rows of `c` through checked windows.
#[acc::parallel(copyin(a) copy(c))]
fn lower_gram(n: usize, m: usize, a: &[f64], c: &mut [f64]) {
    #[acc(loop gang)]
    for i in 0..n {
        for j in 0..=i {
            let mut s = 0.0;
            for k in 0..m {
                s += a[i * m + k] * a[j * m + k];
            }
            c[i * n + j] = s;
        }
    }
}

/// The upper triangle's sum: a reduction over balanced blocks.
#[acc::parallel(loop gang reduction(+:total))]
fn upper_sum(n: usize, a: &[f64]) -> f64 {
    let mut total = 0.0;
    for i in 0..n {
        for j in i..n {
            total += a[i * n + j];
        }
    }
    total
}

#[test]
fn saxpy_on_both_devices() {
    each_device(|| {
        let x: Vec<f32> = (0..1000).map(|i| i as f32).collect();
        let mut y = vec![1.0f32; 1000];
        saxpy(2.0, &x, &mut y);
        if discrete() {
            assert!(!acc::is_present(&x) && !acc::is_present(&y), "left mapped");
        }
        for i in 0..1000 {
            assert_eq!(y[i], 1.0 + 2.0 * i as f32);
        }
    });
}

#[test]
fn triangular_nests_on_both_devices() {
    each_device(|| {
        let (n, m) = (67, 5);
        let a: Vec<f64> = (0..n * m).map(|k| (k % 9) as f64 - 4.0).collect();
        let mut c = vec![-1.0; n * n];
        lower_gram(n, m, &a, &mut c);
        for i in 0..n {
            for j in 0..n {
                let want = if j <= i {
                    (0..m).map(|k| a[i * m + k] * a[j * m + k]).sum()
                } else {
                    -1.0
                };
                assert_eq!(c[i * n + j], want, "c[{i}][{j}]");
            }
        }
        let b: Vec<f64> = (0..n * n).map(|k| (k % 5) as f64).collect();
        let want: f64 = (0..n)
            .flat_map(|i| (i..n).map(move |j| (i, j)))
            .map(|(i, j)| b[i * n + j])
            .sum();
        assert_eq!(upper_sum(n, &b), want);
    });
}

/// Slices a chunk may cut at its last index (`x`, read only as `x[i]`) beside one it must not
/// (`w`, read at `i + 1` and through its length): the serial loop's answer either way.
#[acc::parallel(copyin(x, w) copyout(y))]
fn cut_and_whole(x: &[f64], w: &[f64], y: &mut [f64]) {
    #[acc(loop gang vector)]
    for i in 0..y.len() {
        y[i] = x[i] + w[i + 1] * w.len() as f64;
    }
}

/// A loop that reads past the end of `x`.
#[acc::parallel(copyin(x) copyout(y))]
fn copy_prefix(x: &[f64], y: &mut [f64]) {
    #[acc(loop gang vector)]
    for i in 0..y.len() {
        y[i] = x[i];
    }
}

#[test]
fn slices_read_at_the_index_and_around_it() {
    each_device(|| {
        for n in [1, 7, 1000] {
            let x: Vec<f64> = (0..n).map(|i| i as f64).collect();
            let w: Vec<f64> = (0..=n).map(|i| (i % 5) as f64).collect();
            let mut y = vec![0.0; n];
            cut_and_whole(&x, &w, &mut y);
            for i in 0..n {
                assert_eq!(y[i], x[i] + w[i + 1] * (n + 1) as f64, "element {i} of {n}");
            }
        }
    });
}

#[test]
fn a_read_past_the_end_panics_as_the_serial_loop_does() {
    for d in [acc::DeviceType::Host, acc::DeviceType::HostDiscrete] {
        acc::set_device_type(d);
        let x = vec![1.0; 999];
        let mut y = vec![0.0; 1000];
        let payload =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| copy_prefix(&x, &mut y)))
                .expect_err("a read past the end of `x` must panic");
        let message = payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        assert!(
            message.contains("index out of bounds: the len is 999 but the index is 999"),
            "{d:?}: {message}"
        );
    }
}

#[test]
fn dot_on_both_devices() {
    each_device(|| {
        let x: Vec<f64> = (0..10_000).map(|i| (i % 7) as f64).collect();
        let y: Vec<f64> = (0..10_000).map(|i| (i % 3) as f64).collect();
        let want: f64 = x.iter().zip(&y).map(|(a, b)| a * b).sum();
        assert_eq!(dot(&x, &y), want);
    });
}

#[test]
fn stencil_with_collapse() {
    each_device(|| {
        let (n, m) = (37, 53);
        let a: Vec<f64> = (0..n * m).map(|k| (k * k % 11) as f64).collect();
        let mut b = vec![0.0; n * m];
        stencil(n, m, &a, &mut b);
        for i in 1..n - 1 {
            for j in 1..m - 1 {
                let want = 0.25
                    * (a[(i - 1) * m + j]
                        + a[(i + 1) * m + j]
                        + a[i * m + j - 1]
                        + a[i * m + j + 1]);
                assert_eq!(b[i * m + j], want, "b[{i}][{j}]");
            }
        }
    });
}

macro_rules! reduction_kernel {
    ($name:ident, $t:ty, $op:tt, $init:expr, |$acc:ident, $v:ident| $update:expr) => {
        #[acc::parallel(loop gang reduction($op:r))]
        fn $name(x: &[$t]) -> $t {
            let mut r: $t = $init;
            for i in 0..x.len() {
                let $v = x[i];
                let $acc = r;
                r = $update;
            }
            r
        }
    };
}

reduction_kernel!(sum_i32, i32, +, 5, |a, v| a + v);
reduction_kernel!(sum_f32, f32, +, 0.5, |a, v| a + v);
reduction_kernel!(prod_i64, i64, *, 3, |a, v| a * v);
reduction_kernel!(prod_f64, f64, *, 1.0, |a, v| a * v);
reduction_kernel!(max_u32, u32, max, 0, |a, v| a.max(v));
reduction_kernel!(max_f64, f64, max, f64::MIN, |a, v| a.max(v));
reduction_kernel!(min_i32, i32, min, 1000, |a, v| a.min(v));
reduction_kernel!(min_f32, f32, min, 1e30, |a, v| a.min(v));
reduction_kernel!(and_u32, u32, &, !0, |a, v| a & v);
reduction_kernel!(or_i64, i64, |, 0, |a, v| a | v);
reduction_kernel!(xor_u32, u32, ^, 7, |a, v| a ^ v);
reduction_kernel!(land_i32, i32, &&, 1, |a, v| (a != 0 && v != 0) as i32);
reduction_kernel!(lor_i32, i32, ||, 0, |a, v| (a != 0 || v != 0) as i32);

#[acc::parallel(loop reduction(&&:all) reduction(||:any))]
fn all_any(x: &[i32], all: bool, any: bool) -> (bool, bool) {
    let mut all = all;
    let mut any = any;
    for i in 0..x.len() {
        all = all && x[i] > 0;
        any = any || x[i] > 40;
    }
    (all, any)
}

#[test]
fn a_reduction_for_every_operator() {
    each_device(|| {
        let ints: Vec<i32> = (1..=50).map(|i| (i * 37) % 101 - 20).collect();
        let small: Vec<i64> = (0..20).map(|i| 1 + i % 3).collect();
        let reals: Vec<f64> = (0..20).map(|i| 1.0 + (i % 4) as f64 * 0.5).collect();
        let flts: Vec<f32> = (0..1000).map(|i| (i % 13) as f32 * 0.25).collect();
        let bits: Vec<u32> = (0..100u32)
            .map(|i| 0xffff_0000 | i.wrapping_mul(2654435761u32))
            .collect();
        assert_eq!(sum_i32(&ints), 5 + ints.iter().sum::<i32>());
        assert_eq!(sum_f32(&flts), 0.5 + flts.iter().sum::<f32>());
        assert_eq!(prod_i64(&small), 3 * small.iter().product::<i64>());
        assert_eq!(prod_f64(&reals), reals.iter().product::<f64>());
        assert_eq!(max_u32(&bits), *bits.iter().max().unwrap());
        assert_eq!(max_f64(&reals), 2.5);
        assert_eq!(min_i32(&ints), *ints.iter().min().unwrap());
        assert_eq!(min_f32(&flts), 0.0);
        assert_eq!(and_u32(&bits), bits.iter().fold(!0, |a, b| a & b));
        let wide: Vec<i64> = (0..40).map(|i| 1i64 << i).collect();
        assert_eq!(or_i64(&wide), (1i64 << 40) - 1);
        assert_eq!(xor_u32(&bits), bits.iter().fold(7, |a, b| a ^ b));
        assert_eq!(land_i32(&ints), 0);
        assert_eq!(land_i32(&[1, 2, 3]), 1);
        assert_eq!(lor_i32(&[0, 0, 3]), 1);
        assert_eq!(lor_i32(&[0, 0, 0]), 0);
        assert_eq!(all_any(&ints, true, false), (false, true));
        assert_eq!(all_any(&[1, 2], true, false), (true, false));
    });
}

#[acc::parallel(copy(y) firstprivate(scale))]
fn private_and_firstprivate(scale: f64, y: &mut [f64]) {
    let mut t = 0.0;
    #[acc(loop gang private(t))]
    for i in 0..y.len() {
        t = y[i] * scale;
        t += 1.0;
        y[i] = t;
    }
    let _ = t;
}

#[acc::parallel(copy(y) num_gangs(4))]
fn per_gang_offset(base: i64, y: &mut [i64]) {
    #[acc(loop gang)]
    for i in 0..y.len() {
        let mut local = base;
        local += i as i64;
        y[i] = local;
    }
}

#[test]
fn private_and_firstprivate_are_per_iteration_and_per_gang() {
    each_device(|| {
        let mut y: Vec<f64> = (0..500).map(|i| i as f64).collect();
        private_and_firstprivate(3.0, &mut y);
        for (i, v) in y.iter().enumerate() {
            assert_eq!(*v, 3.0 * i as f64 + 1.0);
        }
        let mut z = vec![0i64; 100];
        per_gang_offset(1000, &mut z);
        assert!(z.iter().enumerate().all(|(i, v)| *v == 1000 + i as i64));
    });
}

#[acc::parallel(present(u) copyin(f))]
fn relax(f: &[f64], u: &mut [f64]) {
    #[acc(loop gang vector)]
    for i in 0..u.len() {
        u[i] = 0.5 * u[i] + f[i];
    }
}

#[acc::kernels(present(u))]
fn scale_kernels(s: f64, u: &mut [f64]) {
    #[acc(loop independent)]
    for i in 0..u.len() {
        u[i] *= s;
    }
}

#[acc::routine(seq)]
fn square(v: f64) -> f64 {
    v * v
}

#[acc::serial(present(u))]
fn first_squared(u: &mut [f64]) {
    u[0] = square(u[0]);
}

/// A structured data region over several kernels: `u` stays on the device in between.
#[acc::data(copy(u) copyin(f))]
fn iterate(steps: usize, f: &[f64], u: &mut [f64]) {
    for _ in 0..steps {
        relax(f, u);
        scale_kernels(2.0, u);
    }
    first_squared(u);
}

#[test]
fn data_region_across_several_kernels() {
    each_device(|| {
        let f: Vec<f64> = (0..64).map(|i| i as f64).collect();
        let mut u = vec![1.0; 64];
        iterate(3, &f, &mut u);
        let mut want = vec![1.0; 64];
        for _ in 0..3 {
            for i in 0..64 {
                want[i] = (0.5 * want[i] + f[i]) * 2.0;
            }
        }
        want[0] *= want[0];
        assert_eq!(u, want);
        if acc::device_type() == acc::DeviceType::HostDiscrete {
            assert!(!acc::is_present(&u));
        }
    });
}

#[test]
fn mirror_keeps_data_on_the_device_across_calls() {
    each_device(|| {
        let f = acc::Mirror::new((0..64).map(|i| i as f64).collect());
        let mut u = acc::Mirror::new(vec![1.0; 64]);
        assert!(acc::is_present(u.as_slice()));
        relax(f.as_slice(), u.as_mut_slice());
        scale_kernels(2.0, u.as_mut_slice());
        // The host copy is stale on a discrete device until `update_self`.
        assert_eq!(u.as_slice()[1], if discrete() { 1.0 } else { 3.0 });
        u.update_self();
        assert_eq!(u.as_slice()[1], 3.0);
        u.as_mut_slice()[1] = 10.0;
        u.update_device();
        scale_kernels(2.0, u.as_mut_slice());
        let v = u.into_vec();
        assert_eq!(v[1], 20.0);
        assert_eq!(v[2], (0.5 + 2.0) * 2.0 * 2.0);
    });
}

#[test]
fn mirror_updates_a_range_only() {
    each_device(|| {
        let mut u = acc::Mirror::new(vec![1.0; 64]);
        scale_kernels(2.0, u.as_mut_slice());
        // Rows of 8: bring the second row to the host, change the first and the last and send
        // only the last back; halo exchanges move rows this way.
        u.update_self_range(8..16);
        u.as_mut_slice()[0] = 5.0;
        u.as_mut_slice()[56..64].fill(7.0);
        u.update_device_range(56..64);
        u.update_device_range(64..64);
        let v = u.as_slice();
        assert!(v[8..16].iter().all(|&x| x == 2.0));
        if discrete() {
            assert!(v[16..56].iter().all(|&x| x == 1.0), "not copied back");
        }
        scale_kernels(2.0, u.as_mut_slice());
        let v = u.into_vec();
        // The first element's host change never reached the device.
        assert_eq!(v[0], if discrete() { 4.0 } else { 10.0 });
        assert!(v[1..56].iter().all(|&x| x == 4.0));
        assert!(v[56..].iter().all(|&x| x == 14.0));
    });
}

#[test]
fn mirror_device_pointer_is_the_device_copy() {
    each_device(|| {
        if acc::device_type() == acc::DeviceType::Nvidia {
            return; // Device memory the host cannot read.
        }
        let mut u = acc::Mirror::new(vec![1.0f64; 8]);
        let dev = u.device_ptr_mut();
        assert_eq!(dev.cast_const(), u.device_ptr());
        assert_eq!(dev.cast_const() == u.as_slice().as_ptr(), !discrete());
        // As a device-aware library would: write the device copy through the pointer.
        // SAFETY: on the CPU devices the device copy is 8 doubles of this process's memory,
        // alive while `u` is, and no kernel runs meanwhile.
        unsafe { dev.add(3).write(9.0) };
        if discrete() {
            assert_eq!(u.as_slice()[3], 1.0);
        }
        scale_kernels(2.0, u.as_mut_slice());
        let v = u.into_vec();
        assert_eq!(v[3], 18.0);
        assert!(v.iter().enumerate().all(|(i, &x)| i == 3 || x == 2.0));
    });
}

#[test]
fn device_numbers_of_the_current_type() {
    each_device(|| {
        let ty = acc::device_type();
        let n = acc::num_devices(ty);
        assert!(n >= 1);
        acc::set_device_num(n - 1);
        assert_eq!(acc::device_num(), n - 1);
        assert_eq!(acc::device_type(), ty);
        let mut y = vec![1.0f32; 16];
        saxpy(0.5, &[1.0; 16], &mut y);
        assert!(y.iter().all(|&v| v == 1.5));
        acc::set_device_num(0);
        assert_eq!(acc::device_num(), 0);
    });
}

/// `y` is written but only copied in: on a discrete device the host never sees the writes.
#[acc::parallel(copyin(y))]
fn missing_copyout(y: &mut [i32]) {
    #[acc(loop gang)]
    for i in 0..y.len() {
        y[i] = 42;
    }
}

#[test]
fn missing_copyout_gives_the_stale_answer_on_host_discrete() {
    let mut y = vec![0; 16];
    acc::set_device_type(acc::DeviceType::Host);
    missing_copyout(&mut y);
    assert!(y.iter().all(|&v| v == 42), "host shares memory");
    let mut y = vec![0; 16];
    acc::set_device_type(acc::DeviceType::HostDiscrete);
    missing_copyout(&mut y);
    assert!(
        y.iter().all(|&v| v == 0),
        "host_discrete: the writes stay on the device"
    );
    if sim::child_mode().as_deref() == Some(ON_GPU) {
        let mut y = vec![0; 16];
        acc::set_device_type(acc::DeviceType::Nvidia);
        missing_copyout(&mut y);
        assert!(
            y.iter().all(|&v| v == 0),
            "nvidia: the writes stay on the device"
        );
    }
}

#[acc::kernels(copy(y))]
fn kernels_loops(y: &mut [i64]) {
    // A bare loop in `kernels` is `auto`: the host path runs it sequentially, so this
    // loop-carried dependence is kept.
    #[acc(loop)]
    for i in 1..y.len() {
        y[i] += y[i - 1];
    }
    #[acc(loop gang)]
    for i in 0..y.len() {
        y[i] *= 2;
    }
}

#[acc::serial(copy(y))]
fn serial_prefix(y: &mut [i64]) {
    #[acc(loop gang)]
    for i in 1..y.len() {
        y[i] += y[i - 1];
    }
}

#[acc::parallel(copyin(a) copyout(rows))]
fn row_sums(n: i32, a: &[f32], rows: &mut [f32]) {
    #[acc(loop gang)]
    for i in 0..=n - 1 {
        if i % 2 == 1 {
            rows[i as usize] = -1.0;
            continue;
        }
        let mut s = 0.0;
        #[acc(loop vector reduction(+:s))]
        for j in 0..n {
            s += a[(i * n + j) as usize];
        }
        rows[i as usize] = s;
    }
}

#[test]
fn kernels_serial_and_nested_loops() {
    each_device(|| {
        let mut y = vec![1i64; 50];
        kernels_loops(&mut y);
        assert!(y.iter().enumerate().all(|(i, v)| *v == 2 * (i as i64 + 1)));
        let mut z = vec![1i64; 50];
        serial_prefix(&mut z);
        assert!(z.iter().enumerate().all(|(i, v)| *v == i as i64 + 1));
        let n = 9;
        let a: Vec<f32> = (0..n * n).map(|k| k as f32).collect();
        let mut rows = vec![0.0; n as usize];
        row_sums(n, &a, &mut rows);
        for i in 0..n {
            let want = if i % 2 == 1 {
                -1.0
            } else {
                (0..n).map(|j| (i * n + j) as f32).sum()
            };
            assert_eq!(rows[i as usize], want);
        }
    });
}

#[test]
fn data_function_region_across_several_kernels() {
    each_device(|| {
        let f: Vec<f64> = (0..64).map(|i| i as f64).collect();
        let mut u = vec![1.0; 64];
        let first = acc::data((acc::copyin(&f), acc::copy(&mut u)), |(f, u)| {
            for _ in 0..3 {
                relax(f, u);
                scale_kernels(2.0, u);
            }
            if acc::device_type() == acc::DeviceType::HostDiscrete {
                // The host copy is untouched until the region ends.
                assert_eq!(u[0], 1.0);
            }
            first_squared(u);
            u.len()
        });
        assert_eq!(first, 64);
        let mut want = vec![1.0; 64];
        for _ in 0..3 {
            for i in 0..64 {
                want[i] = (0.5 * want[i] + f[i]) * 2.0;
            }
        }
        want[0] *= want[0];
        assert_eq!(u, want);
        if acc::device_type() == acc::DeviceType::HostDiscrete {
            assert!(!acc::is_present(&u) && !acc::is_present(&f));
        }
    });
}

#[acc::parallel(copyout(out) num_gangs(7))]
fn fill3(a: usize, b: usize, c: usize, out: &mut [usize]) {
    #[acc(loop gang collapse(3))]
    for i in 0..a {
        for j in 2..b + 2 {
            for k in 0..=c - 1 {
                if k == 1 {
                    continue;
                }
                out[(i * b + (j - 2)) * c + k] = i * 10000 + j * 100 + k;
            }
        }
    }
}

#[test]
fn collapse_three_levels_across_uneven_chunks() {
    each_device(|| {
        for (a, b, c) in [(3, 5, 7), (1, 1, 2), (4, 13, 3), (2, 2, 9)] {
            // Elements the kernel skips keep the host value on `host` and come back as the
            // device's poison (all bits set) on `host_discrete`: both are `usize::MAX`. A GPU
            // leaves them undefined (`copyout` of memory no one wrote), so they are not checked
            // there.
            let mut out = vec![usize::MAX; a * b * c];
            fill3(a, b, c, &mut out);
            let gpu = acc::device_type() == acc::DeviceType::Nvidia;
            for i in 0..a {
                for j in 0..b {
                    for k in 0..c {
                        let want = if k == 1 {
                            if gpu {
                                continue;
                            }
                            usize::MAX
                        } else {
                            i * 10000 + (j + 2) * 100 + k
                        };
                        assert_eq!(
                            out[(i * b + j) * c + k],
                            want,
                            "({a},{b},{c}) at {i},{j},{k}"
                        );
                    }
                }
            }
        }
    });
}

/// The CUDA form of every kernel above: complete, and compiled by NVRTC for sm_80 and sm_90
/// (assembled by `ptxas` where it runs). No GPU needed.
#[test]
fn every_kernel_has_a_cuda_form_that_nvrtc_compiles() {
    if sim::child_mode().is_some() {
        return; // The parent process checks with the real NVRTC.
    }
    let modules: &[&acc::__private::CudaModule] = &[
        &__ACC_CUDA_SAXPY,
        &__ACC_CUDA_DOT,
        &__ACC_CUDA_STENCIL,
        &__ACC_CUDA_SUM_I32,
        &__ACC_CUDA_SUM_F32,
        &__ACC_CUDA_PROD_I64,
        &__ACC_CUDA_PROD_F64,
        &__ACC_CUDA_MAX_U32,
        &__ACC_CUDA_MAX_F64,
        &__ACC_CUDA_MIN_I32,
        &__ACC_CUDA_MIN_F32,
        &__ACC_CUDA_AND_U32,
        &__ACC_CUDA_OR_I64,
        &__ACC_CUDA_XOR_U32,
        &__ACC_CUDA_LAND_I32,
        &__ACC_CUDA_LOR_I32,
        &__ACC_CUDA_ALL_ANY,
        &__ACC_CUDA_PRIVATE_AND_FIRSTPRIVATE,
        &__ACC_CUDA_PER_GANG_OFFSET,
        &__ACC_CUDA_RELAX,
        &__ACC_CUDA_SCALE_KERNELS,
        &__ACC_CUDA_MISSING_COPYOUT,
        &__ACC_CUDA_KERNELS_LOOPS,
        &__ACC_CUDA_SERIAL_PREFIX,
        &__ACC_CUDA_ROW_SUMS,
        &__ACC_CUDA_FILL3,
        // Host code calling a routine: a one-thread kernel calling a `__device__` function.
        &__ACC_CUDA_FIRST_SQUARED,
    ];
    let mut failures = Vec::new();
    for m in modules {
        if !m.complete() {
            failures.push(format!("{}: no CUDA form:\n{}", m.function, m.reasons()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    cuda::compile_all(modules);
}

/// Every test above again, in a child process under the CUDA simulator, with the `nvidia`
/// device among the devices: the kernels' CUDA form gives the host's answers.
#[test]
fn every_test_on_the_simulated_gpu() {
    if sim::child_mode().is_some() {
        return;
    }
    let Some(s) = sim::simulator() else { return };
    let out = sim::run_child(s, ON_GPU, &["--test-threads=2"], &[]);
    let text = sim::printed(&out);
    assert!(out.status.success(), "{text}");
    let ran = text
        .lines()
        .filter(|l| l.contains("right answers on the simulated GPU"))
        .count();
    assert!(
        ran >= 8,
        "only {ran} tests ran on the simulated GPU: {text}"
    );
}
