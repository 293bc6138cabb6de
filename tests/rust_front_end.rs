//! End-to-end tests of the Rust front end's host path: each kernel runs on `host` and on
//! `host_discrete`, and gives the sequential answer on both.
//!
//! The current device is per thread, and every test body runs on the test's own thread, so
//! tests that switch devices cannot disturb each other.

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

fn each_device(f: impl Fn()) {
    for d in [acc::DeviceType::Host, acc::DeviceType::HostDiscrete] {
        acc::set_device_type(d);
        assert_eq!(acc::device_type(), d);
        f();
        assert_eq!(acc::mapped_count(), 0, "a kernel left data mapped on {d:?}");
    }
}

#[test]
fn saxpy_on_both_devices() {
    each_device(|| {
        let x: Vec<f32> = (0..1000).map(|i| i as f32).collect();
        let mut y = vec![1.0f32; 1000];
        saxpy(2.0, &x, &mut y);
        for i in 0..1000 {
            assert_eq!(y[i], 1.0 + 2.0 * i as f32);
        }
    });
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
                    * (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] + a[i * m + j + 1]);
                assert_eq!(b[i * m + j], want, "b[{i}][{j}]");
            }
        }
    });
}
