//! Rust kernels over user types: slices of `#[derive(acc::DeviceCopy)]` structs (an n-body
//! step) and of fixed arrays (a stencil over `[f64; 3]` points), with routines taking and
//! returning structs. Each runs on `host` and `host_discrete` against a sequential answer, its
//! CUDA form compiles with NVRTC, and under the CUDA simulator (a child process) it runs on the
//! `nvidia` device too.

#![allow(clippy::needless_range_loop)]

#[path = "support/cuda.rs"]
mod cuda;

#[path = "cuda-sim/support.rs"]
mod sim;

const ON_GPU: &str = "rust-types-on-gpu";

#[derive(Clone, Copy, Debug, PartialEq, acc::DeviceCopy)]
#[repr(C)]
pub struct Vec3 {
    x: f32,
    y: f32,
    z: f32,
}

#[derive(Clone, Copy, Debug, PartialEq, acc::DeviceCopy)]
#[repr(C)]
pub struct Particle {
    pos: Vec3,
    mass: f32,
}

/// `b - a`.
#[acc::routine(seq)]
fn sub(a: Vec3, b: Vec3) -> Vec3 {
    Vec3 {
        x: b.x - a.x,
        y: b.y - a.y,
        z: b.z - a.z,
    }
}

impl Vec3 {
    /// A method routine taking `&self`.
    #[acc::routine(seq)]
    fn dot(&self, o: Vec3) -> f32 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    /// A method routine taking `self`, returning `Self`, calling another method.
    #[acc::routine(seq)]
    fn scaled(self, s: f32) -> Self {
        let n = self.dot(self);
        Self {
            x: self.x * s,
            y: self.y * s,
            z: self.z * s + n * 0.0,
        }
    }
}

/// One step of the velocities: each body's acceleration from every other body.
#[acc::parallel(copyin(p) copy(vel))]
fn nbody_step(dt: f32, p: &[Particle], vel: &mut [Vec3]) {
    #[acc(loop gang vector)]
    for i in 0..p.len() {
        let mut acc = Vec3 {
            x: 0.0,
            y: 0.0,
            z: 0.0,
        };
        for j in 0..p.len() {
            let d: Vec3 = sub(p[i].pos, p[j].pos);
            let r2 = d.dot(d) + 0.01;
            let a = d.scaled(p[j].mass / (r2 * r2.sqrt()));
            acc.x += a.x;
            acc.y += a.y;
            acc.z += a.z;
        }
        vel[i].x += acc.x * dt;
        vel[i].y += acc.y * dt;
        vel[i].z += acc.z * dt;
    }
}

fn nbody_host(dt: f32, p: &[Particle], vel: &mut [Vec3]) {
    for i in 0..p.len() {
        let mut acc = Vec3 {
            x: 0.0,
            y: 0.0,
            z: 0.0,
        };
        for j in 0..p.len() {
            let d: Vec3 = sub(p[i].pos, p[j].pos);
            let r2 = d.dot(d) + 0.01;
            let a = d.scaled(p[j].mass / (r2 * r2.sqrt()));
            acc.x += a.x;
            acc.y += a.y;
            acc.z += a.z;
        }
        vel[i].x += acc.x * dt;
        vel[i].y += acc.y * dt;
        vel[i].z += acc.z * dt;
    }
}

fn bodies(n: usize) -> (Vec<Particle>, Vec<Vec3>) {
    let p = (0..n)
        .map(|k| {
            let t = k as f32;
            Particle {
                pos: Vec3 {
                    x: (t * 0.37).sin(),
                    y: (t * 0.11).cos(),
                    z: t * 0.01,
                },
                mass: 1.0 + (k % 3) as f32,
            }
        })
        .collect();
    let v = (0..n)
        .map(|k| Vec3 {
            x: k as f32 * 0.5,
            y: 0.0,
            z: -1.0,
        })
        .collect();
    (p, v)
}

fn check_nbody() {
    let (p, mut vel) = bodies(64);
    let mut want = vel.clone();
    nbody_step(0.01, &p, &mut vel);
    nbody_host(0.01, &p, &mut want);
    assert_eq!(vel, want);
}

/// Each point of an `n`×`n`×`n` grid moves to the average of itself and its six neighbours
/// (clamped at the faces); `r` gets each new point's distance from the origin.
#[acc::parallel(copyin(p) copyout(q, r))]
fn smooth3(n: usize, p: &[[f64; 3]], q: &mut [[f64; 3]], r: &mut [f64]) {
    #[acc(loop gang vector collapse(3))]
    for i in 0..n {
        for j in 0..n {
            for k in 0..n {
                let c = (i * n + j) * n + k;
                let di: [i64; 7] = [0, -1, 1, 0, 0, 0, 0];
                let dj = [0, 0, 0, -1, 1, 0, 0];
                let dk = [0i64, 0, 0, 0, 0, -1, 1];
                let mut s = [0.0; 3];
                for m in 0..di.len() {
                    let top = n as i64 - 1;
                    let ii = (i as i64 + di[m]).clamp(0, top) as usize;
                    let jj = (j as i64 + dj[m]).clamp(0, top) as usize;
                    let kk = (k as i64 + dk[m]).clamp(0, top) as usize;
                    let v = p[(ii * n + jj) * n + kk];
                    for d in 0..3 {
                        s[d] += v[d];
                    }
                }
                q[c] = [s[0] / 7.0, s[1] / 7.0, s[2] / 7.0];
                let mut norm2 = 0.0;
                for x in q[c].iter() {
                    norm2 += x * x;
                }
                r[c] = norm2.sqrt();
            }
        }
    }
}

fn smooth3_host(n: usize, p: &[[f64; 3]], q: &mut [[f64; 3]], r: &mut [f64]) {
    for c in 0..n * n * n {
        let (i, j, k) = (c / (n * n), c / n % n, c % n);
        let mut s = [0.0; 3];
        for (di, dj, dk) in [
            (0, 0, 0),
            (-1, 0, 0),
            (1, 0, 0),
            (0, -1, 0),
            (0, 1, 0),
            (0, 0, -1),
            (0, 0, 1),
        ] {
            let top = n as i64 - 1;
            let ii = (i as i64 + di).clamp(0, top) as usize;
            let jj = (j as i64 + dj).clamp(0, top) as usize;
            let kk = (k as i64 + dk).clamp(0, top) as usize;
            for d in 0..3 {
                s[d] += p[(ii * n + jj) * n + kk][d];
            }
        }
        q[c] = [s[0] / 7.0, s[1] / 7.0, s[2] / 7.0];
        r[c] = q[c].iter().map(|x| x * x).sum::<f64>().sqrt();
    }
}

fn check_smooth3() {
    let n = 6;
    let p: Vec<[f64; 3]> = (0..n * n * n)
        .map(|c| [c as f64, (c % 7) as f64 * 0.5, -(c as f64).sqrt()])
        .collect();
    let (mut q, mut r) = (vec![[0.0; 3]; n * n * n], vec![0.0; n * n * n]);
    let (mut wq, mut wr) = (q.clone(), r.clone());
    smooth3(n, &p, &mut q, &mut r);
    smooth3_host(n, &p, &mut wq, &mut wr);
    assert_eq!(q, wq);
    assert_eq!(r, wr);
}

/// The float methods CUDA has, against the host's.
#[acc::parallel(copyin(x) copyout(y))]
fn shapes(x: &[f32], y: &mut [f32]) {
    #[acc(loop gang vector)]
    for i in 0..x.len() {
        let v = x[i];
        let a = v.hypot(2.0) + v.atan2(1.5) + v.tanh() + v.clamp(-1.0, 1.0) + v.signum();
        let b = v.abs().cbrt() + v.round() + v.trunc() + (v * 0.1).asin() + v.exp2().log2();
        y[i] = a + b + std::f32::consts::PI;
    }
}

fn check_shapes() {
    let x: Vec<f32> = (0..100).map(|k| (k as f32 - 50.0) * 0.19).collect();
    let mut y = vec![0.0; 100];
    shapes(&x, &mut y);
    for (k, &v) in x.iter().enumerate() {
        let a = v.hypot(2.0) + v.atan2(1.5) + v.tanh() + v.clamp(-1.0, 1.0) + v.signum();
        let b = v.abs().cbrt() + v.round() + v.trunc() + (v * 0.1).asin() + v.exp2().log2();
        let want = a + b + std::f32::consts::PI;
        assert!(
            (y[k] - want).abs() <= 1e-4 * want.abs().max(1.0),
            "{k}: {} {want}",
            y[k]
        );
    }
}

/// `&Vec<T>` parameters are mapped as slices; `enumerate` over an array, `consts`.
#[allow(clippy::ptr_arg)]
#[acc::parallel(copyin(w) copy(y))]
fn weigh(w: &Vec<[f32; 4]>, y: &mut Vec<f32>) {
    #[acc(loop gang vector)]
    for i in 0..y.len() {
        let mut s = 0.0;
        for (k, &x) in w[i].iter().enumerate() {
            s += x * (k as f32) * std::f32::consts::FRAC_PI_4;
        }
        y[i] += s * std::f32::consts::E + std::f32::consts::TAU;
    }
}

fn check_weigh() {
    let w: Vec<[f32; 4]> = (0..40).map(|i| [i as f32, 1.0, -2.0, 0.5]).collect();
    let mut y = vec![1.0f32; 40];
    weigh(&w, &mut y);
    for i in 0..40 {
        let mut s = 0.0;
        for (k, &x) in w[i].iter().enumerate() {
            s += x * (k as f32) * std::f32::consts::FRAC_PI_4;
        }
        assert_eq!(
            y[i],
            1.0 + (s * std::f32::consts::E + std::f32::consts::TAU)
        );
    }
}

/// Iterator loops over slices, partitioned: they are the index loops they stand for.
#[acc::parallel(copyin(x) copy(y))]
fn saxpy_iter(a: f32, x: &[f32], y: &mut [f32]) {
    #[acc(loop gang vector)]
    for (yi, xi) in y.iter_mut().zip(x.iter()) {
        *yi += a * xi;
    }
}

#[acc::parallel(loop gang vector copyin(p) copyout(e))]
fn energies(p: &[Particle], e: &mut [f32]) {
    for (i, q) in p.iter().enumerate() {
        let v: Vec3 = q.pos;
        e[i] = 0.5 * q.mass * v.dot(v);
    }
}

#[acc::parallel(copyin(x))]
fn total(x: &[f32]) -> f32 {
    let mut s = 0.0;
    #[acc(loop gang reduction(+:s))]
    for v in x.iter() {
        s += v;
    }
    s
}

fn check_iterators() {
    assert_eq!(total(&[1.0, 2.0, 4.5]), 7.5);
    let x: Vec<f32> = (0..50).map(|i| i as f32).collect();
    let mut y = vec![1.0f32; 40];
    saxpy_iter(2.0, &x, &mut y);
    assert!(y
        .iter()
        .enumerate()
        .all(|(i, &v)| v == 1.0 + 2.0 * i as f32));
    let (p, _) = bodies(30);
    let mut e = vec![0.0; 30];
    energies(&p, &mut e);
    for (i, q) in p.iter().enumerate() {
        assert_eq!(e[i], 0.5 * q.mass * q.pos.dot(q.pos));
    }
}

/// A generic kernel: one CUDA form per float type.
#[acc::parallel(copyin(x) copy(y))]
fn axpy<T: acc::Float>(a: T, x: &[T], y: &mut [T]) {
    #[acc(loop gang vector)]
    for i in 0..y.len() {
        y[i] += a * x[i].abs().sqrt();
    }
}

/// A generic reduction, started at `T::zero()`.
#[acc::parallel(loop gang vector reduction(+:sum))]
fn dot<T: acc::Float>(x: &[T], y: &[T]) -> T {
    let mut sum = T::zero();
    for i in 0..x.len() {
        sum += x[i] * y[i];
    }
    sum
}

/// `T::one()` and a `max` reduction over a type parameter.
#[acc::parallel(loop gang vector reduction(max:m))]
fn peak<T: acc::Float>(x: &[T]) -> T {
    let mut m = T::zero() - T::one();
    for i in 0..x.len() {
        m = m.max(x[i] * T::one());
    }
    m
}

fn check_generic() {
    let x: Vec<f32> = (0..30).map(|i| i as f32).collect();
    let mut y = vec![1.0f32; 30];
    axpy(2.0, &x, &mut y);
    assert!(y.iter().zip(&x).all(|(&v, &u)| v == 1.0 + 2.0 * u.sqrt()));
    let x: Vec<f64> = (0..30).map(|i| i as f64).collect();
    let mut y = vec![1.0f64; 30];
    axpy(2.0, &x, &mut y);
    assert!(y.iter().zip(&x).all(|(&v, &u)| v == 1.0 + 2.0 * u.sqrt()));
    // Small integers: every order of the sum gives the same value.
    let x: Vec<f32> = (0..1000).map(|i| (i % 7) as f32).collect();
    let y: Vec<f32> = (0..1000).map(|i| (i % 5) as f32 - 2.0).collect();
    assert_eq!(
        dot(&x, &y),
        x.iter().zip(&y).map(|(a, b)| a * b).sum::<f32>()
    );
    assert_eq!(peak(&y), 2.0);
    assert_eq!(peak::<f32>(&[]), -1.0);
    let x: Vec<f64> = x.iter().map(|&v| v as f64).collect();
    let y: Vec<f64> = y.iter().map(|&v| v as f64 * 0.5).collect();
    assert_eq!(
        dot(&x, &y),
        x.iter().zip(&y).map(|(a, b)| a * b).sum::<f64>()
    );
    assert_eq!(peak(&y), 1.0);
}

#[derive(Clone, Copy, Debug, acc::DeviceCopy)]
#[repr(C)]
pub struct Box3 {
    lo: [f64; 3],
    hi: [f64; 3],
}

/// A struct parameter by value (48 bytes) reaches the kernel whole.
#[acc::parallel(copy(q))]
fn clamp_into(b: Box3, q: &mut [[f64; 3]]) {
    #[acc(loop gang vector)]
    for i in 0..q.len() {
        for d in 0..3 {
            q[i][d] = q[i][d].clamp(b.lo[d], b.hi[d]);
        }
    }
}

/// Host data of the function: not device data, and only the loop's bounds (evaluated on the
/// host) read it.
#[derive(Clone, Copy)]
pub struct Span {
    from: usize,
    to: usize,
}

#[acc::parallel(copy(y))]
fn fill(s: Span, y: &mut [f32]) {
    #[acc(loop gang vector)]
    for i in s.from..s.to {
        y[i] = 1.0;
    }
}

fn check_struct_parameter() {
    let mut y = vec![0.0; 8];
    fill(Span { from: 2, to: 5 }, &mut y);
    assert_eq!(y, [0.0, 0.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0]);
    let b = Box3 {
        lo: [0.0, -1.0, 2.0],
        hi: [1.0, 1.0, 3.0],
    };
    let mut q: Vec<[f64; 3]> = (0..20)
        .map(|i| [i as f64 * 0.1, -(i as f64), i as f64])
        .collect();
    let want: Vec<[f64; 3]> = q
        .iter()
        .map(|p| {
            [
                p[0].clamp(0.0, 1.0),
                p[1].clamp(-1.0, 1.0),
                p[2].clamp(2.0, 3.0),
            ]
        })
        .collect();
    clamp_into(b, &mut q);
    assert_eq!(q, want);
}

fn devices() -> Vec<acc::DeviceType> {
    let mut d = vec![acc::DeviceType::Host, acc::DeviceType::HostDiscrete];
    if sim::child_mode().as_deref() == Some(ON_GPU) {
        d.push(acc::DeviceType::Nvidia);
    }
    d
}

#[test]
fn user_type_kernels_give_the_sequential_answers() {
    for d in devices() {
        acc::set_device_type(d);
        check_nbody();
        check_smooth3();
        check_shapes();
        check_weigh();
        check_iterators();
        check_generic();
        check_struct_parameter();
        println!("right answers on {d:?}");
    }
}

#[test]
fn user_type_kernels_on_the_simulated_gpu() {
    if sim::child_mode().is_some() {
        return;
    }
    let Some(s) = sim::simulator() else { return };
    let out = sim::run_child(
        s,
        ON_GPU,
        &["--exact", "user_type_kernels_give_the_sequential_answers"],
        &[],
    );
    let text = sim::printed(&out);
    assert!(
        out.status.success() && text.contains("right answers on Nvidia"),
        "{text}"
    );
}

#[test]
fn user_type_kernels_have_a_cuda_form_that_nvrtc_compiles() {
    if sim::child_mode().is_some() {
        return;
    }
    cuda::compile_all(&[
        &__ACC_CUDA_NBODY_STEP,
        &__ACC_CUDA_SMOOTH3,
        &__ACC_CUDA_SHAPES,
        &__ACC_CUDA_WEIGH,
        &__ACC_CUDA_SAXPY_ITER,
        &__ACC_CUDA_ENERGIES,
        &__ACC_CUDA_TOTAL,
        &__ACC_CUDA_AXPY,
        &__ACC_CUDA_DOT,
        &__ACC_CUDA_PEAK,
        &__ACC_CUDA_CLAMP_INTO,
        &__ACC_CUDA_FILL,
    ]);
    let src = __ACC_CUDA_NBODY_STEP.cuda_source().unwrap();
    assert!(src.contains("static_assert(sizeof(__acc_struct_10rust_types_8Particle) == 16"));
}
