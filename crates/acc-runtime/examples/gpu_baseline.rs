//! The hand-written side of `scripts/gpu-check`: the loops of `benches/gpu/acc_kernels.c`
//! written directly in CUDA, compiled the same way (NVRTC through `acc_runtime::jit`, for the
//! device's architecture) and launched with raw cudarc, plus the device's copy bandwidth and
//! the latency of an empty launch. Prints `name best_seconds check` lines.
//!
//! Needs a GPU: `cargo run --release -p acc-runtime --example gpu_baseline`.

use cudarc::driver::{CudaContext, LaunchConfig, PushKernelArg};
use cudarc::nvrtc::Ptx;
use std::time::Instant;

const REPS: usize = 20;

const SOURCE: &str = r#"
extern "C" __global__ void triad(double *a, const double *b, const double *c, double s, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x)
    a[i] = b[i] + s * c[i];
}
extern "C" __global__ void dot(const double *x, const double *y, long n, double *partial) {
  __shared__ double buf[256];
  double s = 0;
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x)
    s += x[i] * y[i];
  buf[threadIdx.x] = s;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) buf[threadIdx.x] += buf[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = buf[0];
}
extern "C" __global__ void jacobi(const double *u, double *v, int m) {
  long inner = (long)(m - 2) * (m - 2);
  for (long k = blockIdx.x * (long)blockDim.x + threadIdx.x; k < inner; k += (long)gridDim.x * blockDim.x) {
    int i = 1 + (int)(k / (m - 2)), j = 1 + (int)(k % (m - 2));
    v[i * m + j] = 0.25 * (u[i * m + j - 1] + u[i * m + j + 1] + u[(i - 1) * m + j] + u[(i + 1) * m + j]);
  }
}
extern "C" __global__ void empty(void) {}
"#;

fn best(mut f: impl FnMut()) -> f64 {
    (0..REPS)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // SAFETY: only probes whether the driver library can be loaded.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return Err("no CUDA driver (libcuda) on this machine".into());
    }
    let ctx = CudaContext::new(0)?;
    let stream = ctx.default_stream();
    let (major, minor) = ctx.compute_capability()?;
    let sms = ctx.attribute(
        cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
    )? as u32;
    let ptx =
        acc_runtime::jit::compile_cuda(SOURCE, "gpu_baseline", &format!("sm_{major}{minor}"))?;
    let module = ctx.load_module(Ptx::from_src(String::from_utf8(ptx)?))?;
    let sync = || stream.synchronize().expect("synchronize");
    let grid = |n: usize| LaunchConfig {
        grid_dim: ((n.div_ceil(256) as u32).min(32 * sms).max(1), 1, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 0,
    };

    let n: usize = 1 << 25;
    let (n_arg, s_arg) = (n as i64, 3.0f64);
    let b_host: Vec<f64> = (0..n).map(|i| (i % 1000) as f64).collect();
    let b = stream.clone_htod(&b_host)?;
    let c = stream.clone_htod(&vec![2.0f64; n])?;
    let mut a = stream.alloc_zeros::<f64>(n)?;

    // The device's copy bandwidth: 2 × 8n bytes moved per copy.
    let mut copy_dst = stream.alloc_zeros::<f64>(n)?;
    let t = best(|| {
        stream.memcpy_dtod(&b, &mut copy_dst).expect("copy");
        sync();
    });
    println!("copy {t:.9} {:.1}", (2 * 8 * n) as f64 / t / 1e9);

    let triad = module.load_function("triad")?;
    let t = best(|| {
        let mut l = stream.launch_builder(&triad);
        l.arg(&mut a).arg(&b).arg(&c).arg(&s_arg).arg(&n_arg);
        // SAFETY: the arguments match the kernel's parameters, and the buffers hold n doubles.
        unsafe { l.launch(grid(n)) }.expect("launch");
        sync();
    });
    let check = stream.clone_dtoh(&a)?[n - 1];
    println!("triad {t:.9} {check:.6}");

    let dot = module.load_function("dot")?;
    let cfg = grid(n);
    let blocks = cfg.grid_dim.0 as usize;
    let mut partial = stream.alloc_zeros::<f64>(blocks)?;
    let mut sum = 0.0;
    let t = best(|| {
        let mut l = stream.launch_builder(&dot);
        l.arg(&b).arg(&c).arg(&n_arg).arg(&mut partial);
        // SAFETY: as above; `partial` has one slot per block.
        unsafe { l.launch(cfg) }.expect("launch");
        sum = stream.clone_dtoh(&partial).expect("copy").iter().sum();
    });
    println!("dot {t:.9} {sum:.6}");

    let m: usize = 4096;
    let m_arg = m as i32;
    let mut u_host = vec![0.0f64; m * m];
    u_host[..m].fill(1.0);
    let u = stream.clone_htod(&u_host)?;
    let mut v = stream.clone_htod(&u_host)?;
    let jacobi = module.load_function("jacobi")?;
    let t = best(|| {
        let mut l = stream.launch_builder(&jacobi);
        l.arg(&u).arg(&mut v).arg(&m_arg);
        // SAFETY: as above; both grids hold m × m doubles.
        unsafe { l.launch(grid((m - 2) * (m - 2))) }.expect("launch");
        sync();
    });
    let check = stream.clone_dtoh(&v)?[m + 1];
    println!("jacobi {t:.9} {check:.6}");

    let empty = module.load_function("empty")?;
    let launches = 2000;
    let one = LaunchConfig {
        grid_dim: (1, 1, 1),
        block_dim: (1, 1, 1),
        shared_mem_bytes: 0,
    };
    let t = Instant::now();
    for _ in 0..launches {
        let mut l = stream.launch_builder(&empty);
        // SAFETY: the kernel takes no parameters.
        unsafe { l.launch(one) }.expect("launch");
        sync();
    }
    println!("empty {:.9} 0", t.elapsed().as_secs_f64() / launches as f64);
    Ok(())
}
