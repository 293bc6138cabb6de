//! Kernels over user types (issue 19) against the same loops written with rayon and serially:
//! an n-body step over a slice of `#[derive(acc::DeviceCopy)]` particle structs calling routine
//! methods, a 3-D stencil on `[f64; 3]`-valued points, and generic `axpy` and `dot` at `f32` and `f64`.
//! As in the rest of the bench, every variant gets the same inputs the same way (the scalars
//! through one `black_box` a call).

use super::{row, take_turns};
use rayon::prelude::*;
use std::hint::black_box;

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
    #[acc::routine(seq)]
    fn dot(&self, o: Vec3) -> f32 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    #[acc::routine(seq)]
    fn scaled(self, s: f32) -> Self {
        Self {
            x: self.x * s,
            y: self.y * s,
            z: self.z * s,
        }
    }
}

/// One step of the velocities: each body's acceleration from every other body.
#[acc::parallel(copyin(p) copy(vel))]
fn nbody_step(dt: f32, p: &[Particle], vel: &mut [Vec3]) {
    #[acc(loop gang vector)]
    for i in 0..p.len() {
        let pi: Vec3 = p[i].pos;
        let mut acc = Vec3 {
            x: 0.0,
            y: 0.0,
            z: 0.0,
        };
        for j in 0..p.len() {
            let d: Vec3 = sub(pi, p[j].pos);
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

/// The acceleration of a body at `pi` from all of `p` (the peers' inner loop, as a Rust user
/// writes it: over the elements).
#[inline(always)]
fn pull(pi: Vec3, p: &[Particle]) -> Vec3 {
    let mut acc = Vec3 {
        x: 0.0,
        y: 0.0,
        z: 0.0,
    };
    for q in p {
        let d = sub(pi, q.pos);
        let r2 = d.dot(d) + 0.01;
        let a = d.scaled(q.mass / (r2 * r2.sqrt()));
        acc.x += a.x;
        acc.y += a.y;
        acc.z += a.z;
    }
    acc
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

/// The stencil at point `(i, j, k)`: the peers' body (the same statements as `smooth3`'s).
#[inline(always)]
fn smooth_point(n: usize, p: &[[f64; 3]], i: usize, j: usize, k: usize) -> ([f64; 3], f64) {
    const DI: [i64; 7] = [0, -1, 1, 0, 0, 0, 0];
    const DJ: [i64; 7] = [0, 0, 0, -1, 1, 0, 0];
    const DK: [i64; 7] = [0, 0, 0, 0, 0, -1, 1];
    let mut s = [0.0; 3];
    for m in 0..DI.len() {
        let top = n as i64 - 1;
        let ii = (i as i64 + DI[m]).clamp(0, top) as usize;
        let jj = (j as i64 + DJ[m]).clamp(0, top) as usize;
        let kk = (k as i64 + DK[m]).clamp(0, top) as usize;
        let v = p[(ii * n + jj) * n + kk];
        for d in 0..3 {
            s[d] += v[d];
        }
    }
    let q = [s[0] / 7.0, s[1] / 7.0, s[2] / 7.0];
    let mut norm2 = 0.0;
    for x in q.iter() {
        norm2 += x * x;
    }
    (q, norm2.sqrt())
}

/// A generic kernel: one instantiation per float type.
#[acc::parallel(copyin(x) copy(y))]
fn axpy<T: acc::Float>(a: T, x: &[T], y: &mut [T]) {
    #[acc(loop gang vector)]
    for i in 0..y.len() {
        y[i] += a * x[i];
    }
}

/// A generic reduction: `T::zero()` starts it.
#[acc::parallel(loop gang vector reduction(+:sum))]
fn dot<T: acc::Float>(x: &[T], y: &[T]) -> T {
    let mut sum = T::zero();
    for i in 0..x.len() {
        sum += x[i] * y[i];
    }
    sum
}

fn dot_rayon<T: acc::Float + Send + Sync + std::iter::Sum>(x: &[T], y: &[T]) -> T {
    x.par_iter().zip(y).map(|(&a, &b)| a * b).sum()
}

fn dot_serial<T: acc::Float>(x: &[T], y: &[T]) -> T {
    let mut s = T::zero();
    for (&a, &b) in x.iter().zip(y) {
        s += a * b;
    }
    s
}

fn axpy_rayon<T: acc::Float + Send + Sync>(a: T, x: &[T], y: &mut [T]) {
    y.par_iter_mut().zip(x).for_each(|(y, &x)| *y += a * x)
}

fn axpy_serial<T: acc::Float>(a: T, x: &[T], y: &mut [T]) {
    for (y, &x) in y.iter_mut().zip(x) {
        *y += a * x;
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
    let v = vec![
        Vec3 {
            x: 0.0,
            y: 0.0,
            z: 0.0
        };
        n
    ];
    (p, v)
}

fn bench_nbody() {
    let n = 4096;
    let (p, mut vel) = bodies(n);
    let t = take_turns(
        &mut vel,
        &mut [
            &mut |vel: &mut Vec<Vec3>| nbody_step(black_box(1e-6), &p, vel),
            &mut |vel: &mut Vec<Vec3>| {
                let dt = black_box(1e-6f32);
                vel.par_iter_mut().zip(&p).for_each(|(v, pi)| {
                    let acc = pull(pi.pos, &p);
                    v.x += acc.x * dt;
                    v.y += acc.y * dt;
                    v.z += acc.z * dt;
                })
            },
            &mut |vel: &mut Vec<Vec3>| {
                let dt = black_box(1e-6f32);
                for (v, pi) in vel.iter_mut().zip(&p) {
                    let acc = pull(pi.pos, &p);
                    v.x += acc.x * dt;
                    v.y += acc.y * dt;
                    v.z += acc.z * dt;
                }
            },
        ],
    );
    row("n-body (4096 structs)", t);
}

fn bench_smooth3() {
    let n = 128;
    let p: Vec<[f64; 3]> = (0..n * n * n)
        .map(|c| [c as f64, (c % 7) as f64 * 0.5, -((c % 101) as f64)])
        .collect();
    let mut out = (vec![[0.0; 3]; n * n * n], vec![0.0; n * n * n]);
    type Out = (Vec<[f64; 3]>, Vec<f64>);
    let t = take_turns(
        &mut out,
        &mut [
            &mut |(q, r): &mut Out| smooth3(black_box(n), &p, q, r),
            &mut |(q, r): &mut Out| {
                let n = black_box(n);
                q.par_chunks_mut(n * n)
                    .zip(r.par_chunks_mut(n * n))
                    .enumerate()
                    .for_each(|(i, (qi, ri))| {
                        for j in 0..n {
                            for k in 0..n {
                                (qi[j * n + k], ri[j * n + k]) = smooth_point(n, &p, i, j, k);
                            }
                        }
                    })
            },
            &mut |(q, r): &mut Out| {
                let n = black_box(n);
                for i in 0..n {
                    for j in 0..n {
                        for k in 0..n {
                            let c = (i * n + j) * n + k;
                            (q[c], r[c]) = smooth_point(n, &p, i, j, k);
                        }
                    }
                }
            },
        ],
    );
    row("smooth3 (128^3 [f64;3])", t);
}

fn bench_axpy<T: acc::Float + Send + Sync>(name: &str, a: T, x: &[T], y: &mut Vec<T>) {
    let t = take_turns(
        y,
        &mut [
            &mut |y: &mut Vec<T>| axpy(black_box(a), x, y),
            &mut |y: &mut Vec<T>| axpy_rayon(black_box(a), x, y),
            &mut |y: &mut Vec<T>| axpy_serial(black_box(a), x, y),
        ],
    );
    row(name, t);
}

fn bench_dot<T: acc::Float + Send + Sync + std::iter::Sum>(name: &str, x: &[T], y: &[T]) {
    let t = take_turns(
        &mut (),
        &mut [
            &mut |_: &mut ()| {
                black_box(dot(x, y));
            },
            &mut |_: &mut ()| {
                black_box(dot_rayon(x, y));
            },
            &mut |_: &mut ()| {
                black_box(dot_serial(x, y));
            },
        ],
    );
    row(name, t);
}

pub fn main() {
    for m in [
        &__ACC_CUDA_NBODY_STEP,
        &__ACC_CUDA_SMOOTH3,
        &__ACC_CUDA_AXPY,
        &__ACC_CUDA_DOT,
    ] {
        assert!(m.complete(), "{}: {}", m.function, m.reasons());
    }
    bench_nbody();
    bench_smooth3();
    // 32M elements: a run of the f32 kernels takes more than 10 ms too.
    let n = 1 << 25;
    let x: Vec<f32> = (0..n).map(|i| (i % 17) as f32).collect();
    let mut y = vec![1.0f32; n];
    bench_axpy("axpy<f32> (32M)", 0.5f32, &x, &mut y);
    bench_dot("dot<f32> (32M)", &x, &y);
    drop((x, y));
    let x: Vec<f64> = (0..n).map(|i| (i % 17) as f64).collect();
    let mut y = vec![1.0f64; n];
    bench_axpy("axpy<f64> (32M)", 0.5f64, &x, &mut y);
    bench_dot("dot<f64> (32M)", &x, &y);
}
