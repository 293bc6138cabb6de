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
    cuda::compile_all(&[&__ACC_CUDA_NBODY_STEP]);
    let src = __ACC_CUDA_NBODY_STEP.cuda_source().unwrap();
    assert!(src.contains("static_assert(sizeof(__acc_struct_10rust_types_8Particle) == 16"));
}
