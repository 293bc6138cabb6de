//! The Rust front end's OpenACC semantics come from acc-engine, as C's do: which loops of a
//! `kernels` function run partitioned (Clacc's reading, with the dependence test), which
//! slices a construct maps implicitly, and what `default(...)` requires.

#![allow(clippy::needless_range_loop)]

fn each_device(f: impl Fn()) {
    for d in [acc::DeviceType::Host, acc::DeviceType::HostDiscrete] {
        acc::set_device_type(d);
        f();
    }
}

/// In `kernels`, a `gang` loop without `independent` is `auto`: the dependence test finds the
/// loop-carried dependence, so it runs in order and the prefix sum is right.
#[acc::kernels(copy(y) num_gangs(4))]
fn prefix_in_kernels(y: &mut [i64]) {
    #[acc(loop gang)]
    for i in 1..y.len() {
        y[i] += y[i - 1];
    }
}

/// The same loop with `independent`, the user's promise: each chunk sums its own part.
#[acc::kernels(copy(y) num_gangs(4))]
fn prefix_promised_independent(y: &mut [i64]) {
    #[acc(loop gang independent)]
    for i in 0..y.len() {
        y[i] *= 3;
    }
}

/// Loops of `kernels` without a directive: one the test proves independent, one it does not.
#[acc::kernels(copy(a, b))]
fn plain_kernels_loops(a: &mut [f64], b: &mut [f64]) {
    for i in 0..a.len() {
        a[i] = 2.0 * a[i] + 1.0;
    }
    for i in 1..b.len() {
        b[i] += b[i - 1];
    }
}

#[test]
fn kernels_loops_follow_the_engines_verdict() {
    each_device(|| {
        let mut y = vec![1i64; 1000];
        prefix_in_kernels(&mut y);
        assert!(
            y.iter().enumerate().all(|(i, v)| *v == i as i64 + 1),
            "{y:?}"
        );
        prefix_promised_independent(&mut y);
        assert!(y.iter().enumerate().all(|(i, v)| *v == 3 * (i as i64 + 1)));
        let mut a = vec![1.0; 500];
        let mut b = vec![1.0; 500];
        plain_kernels_loops(&mut a, &mut b);
        assert!(a.iter().all(|&v| v == 3.0));
        assert!(b.iter().enumerate().all(|(i, v)| *v == i as f64 + 1.0));
    });
}

#[acc::parallel]
fn scale(s: f64, u: &mut [f64]) {
    #[acc(loop gang)]
    for i in 0..u.len() {
        u[i] *= s;
    }
}

/// A data construct maps only what its clauses name (OpenACC has no implicit data
/// attributes on `data`): `u` is mapped by the kernel called inside, each time.
#[acc::data(copyin(f))]
fn region(f: &[f64], u: &mut [f64]) -> (bool, bool) {
    let seen = (acc::is_present(f), acc::is_present(u));
    scale(f[0], u);
    seen
}

#[test]
fn a_data_function_maps_only_its_clauses() {
    each_device(|| {
        let f = vec![2.0; 4];
        let mut u = vec![1.0; 8];
        let (f_present, u_present) = region(&f, &mut u);
        assert!(f_present);
        let discrete = acc::device_type() == acc::DeviceType::HostDiscrete;
        // A shared-memory device has everything present.
        assert_eq!(u_present, !discrete);
        assert_eq!(
            u, [2.0; 8],
            "the kernel's own implicit copy brought `u` back"
        );
    });
}

/// `default(none)` asks for every variable, scalars too, as in C.
#[acc::parallel(default(none) copy(y) firstprivate(s))]
fn scale_none(s: f32, y: &mut [f32]) {
    #[acc(loop gang)]
    for i in 0..y.len() {
        y[i] *= s;
    }
}

/// `default(present)`: slices must already be present; scalars stay firstprivate.
#[acc::parallel(default(present))]
fn scale_present(s: f32, y: &mut [f32]) {
    #[acc(loop gang)]
    for i in 0..y.len() {
        y[i] *= s;
    }
}

#[test]
fn default_clauses_mean_what_they_mean_in_c() {
    each_device(|| {
        let mut y = vec![1.0f32; 16];
        scale_none(2.0, &mut y);
        assert_eq!(y, [2.0; 16]);
        acc::data(acc::copy(&mut y), |y| scale_present(3.0, y));
        assert_eq!(y, [6.0; 16]);
    });
}
