//! The CUDA simulator (`tests/cuda-sim`) checked against CUDA's semantics, through the
//! runtime's own `nvidia` device (JIT, module loading, launches, copies): barriers and shared
//! memory per block, a missing barrier shows, warp collectives, atomics under contention,
//! device printf, traps and faults fail the launch (not the process), compile errors come
//! back as NVRTC logs, and the JIT's disk cache serves a second run.
//!
//! Each test runs its kernels in a child process (this binary again, under the simulator's
//! environment); without a C++ compiler they skip, unless `ACC_REQUIRE_TOOLS` is set.

#[path = "../../../tests/cuda-sim/support.rs"]
mod sim;

use acc_runtime::device::cuda::{probe, CudaDevice, Function, Shape};
use acc_runtime::device::Device;
use acc_runtime::jit::KernelSource;
use std::ffi::c_void;
use std::process::Output;

/// Runs `body` when this process is the child of test `name`; otherwise, in the parent, runs
/// the child and returns its output (`None`: skipped, or another test's child).
fn child(name: &str, env: &[(&str, &str)], body: impl FnOnce()) -> Option<Output> {
    match sim::child_mode() {
        Some(mode) if mode == name => {
            body();
            None
        }
        Some(_) => None,
        None => {
            let s = sim::simulator()?;
            Some(sim::run_child(s, name, &["--exact", name], env))
        }
    }
}

fn gpu() -> CudaDevice {
    probe()
        .expect("the simulated GPU")
        .into_iter()
        .next()
        .unwrap()
}

fn kernel(gpu: &CudaDevice, source: &'static str, entry: &'static str) -> Result<Function, String> {
    let k = KernelSource {
        name: entry,
        file: "selftest.cu",
        line: 1,
        source,
    };
    // Self-test modules link no routine libraries: no file-scope variable to find.
    gpu.function(
        (source.as_ptr() as usize, entry.as_ptr() as usize),
        &k,
        entry,
        &|_| None,
    )
    .map(|loaded| loaded.function)
}

/// Device memory holding `data`.
fn upload<T: Copy>(gpu: &CudaDevice, data: &[T]) -> usize {
    let bytes = std::mem::size_of_val(data);
    let d = gpu.alloc(bytes).unwrap();
    // SAFETY: `d` has `bytes` bytes; `data` is that many readable bytes.
    unsafe { gpu.copy_to_device(d, data.as_ptr().cast(), bytes) };
    d
}

fn download<T: Copy + Default>(gpu: &CudaDevice, d: usize, n: usize) -> Vec<T> {
    let mut v = vec![T::default(); n];
    // SAFETY: `d` holds at least `n` values of `T` (the caller's allocation).
    unsafe { gpu.copy_to_host(v.as_mut_ptr().cast(), d, n * std::mem::size_of::<T>()) };
    v
}

/// Launches `f` with one pointer per parameter value.
fn launch(gpu: &CudaDevice, f: Function, grid: u32, block: (u32, u32), params: &mut [*mut c_void]) {
    // SAFETY: every test passes pointers to values of its kernel's parameter types, and device
    // addresses of live allocations.
    let r = unsafe { gpu.launch_kernel(f, Shape { grid, block }, params) };
    if let Err(e) = r {
        println!("launch error: {e}");
    }
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A block tree reduction in shared memory, as acc-engine's emitter writes it; `BARRIER`
/// is where the loop's `__syncthreads` goes.
const REDUCE: &str = r#"
extern "C" __global__ void reduce(const int *x, long long n, long long *out) {
  __shared__ long long buf[1024];
  const unsigned t = threadIdx.y * blockDim.x + threadIdx.x, nt = blockDim.x * blockDim.y;
  long long s = 0;
  for (long long i = blockIdx.x * (long long)nt + t; i < n; i += (long long)gridDim.x * nt) s += x[i];
  buf[t] = s;
  FIRST_BARRIER;
  for (unsigned k = 1; k < nt; k <<= 1) {
    if (t % (2 * k) == 0 && t + k < nt) buf[t] += buf[t + k];
    BARRIER;
  }
  if (t == 0) out[blockIdx.x] = buf[0];
}
"#;

/// The sum `REDUCE` (with the barriers given) computes on 2-D blocks, and the right one.
fn reduce_sum(first: &str, barrier: &str) -> (i64, i64) {
    let source: &'static str = Box::leak(
        REDUCE
            .replace("FIRST_BARRIER", first)
            .replace("BARRIER", barrier)
            .into_boxed_str(),
    );
    let gpu = gpu();
    let f = kernel(&gpu, source, "reduce").unwrap();
    let x: Vec<i32> = (0..100_000).map(|i| (i * 7919) % 1000 - 300).collect();
    let want: i64 = x.iter().map(|&v| v as i64).sum();
    let grid = 6;
    let (dx, dout) = (upload(&gpu, &x), gpu.alloc(8 * grid).unwrap());
    let (mut px, mut n, mut pout) = (dx as u64, x.len() as i64, dout as u64);
    let mut params = [
        (&mut px as *mut u64).cast(),
        (&mut n as *mut i64).cast(),
        (&mut pout as *mut u64).cast(),
    ];
    launch(&gpu, f, grid as u32, (32, 8), &mut params);
    let got: Vec<i64> = download(&gpu, dout, grid);
    (got.iter().sum(), want)
}

#[test]
fn a_block_reduction_with_barriers_is_right() {
    let Some(out) = child("a_block_reduction_with_barriers_is_right", &[], || {
        let (got, want) = reduce_sum("__syncthreads()", "__syncthreads()");
        println!("sum {got}, want {want}");
    }) else {
        return;
    };
    let text = stdout(&out);
    let line = text.lines().find(|l| l.starts_with("sum ")).unwrap_or("");
    let (got, want) = line.split_once(", want ").unwrap_or(("?", "!"));
    assert_eq!(
        got.trim_start_matches("sum "),
        want,
        "{}",
        sim::printed(&out)
    );
}

/// Without the barrier in the loop, each thread runs all its steps at once in the shuffled
/// order, reading partial sums that are not ready: the answer is wrong, as on a GPU (where
/// it would be wrong only sometimes). Without the first barrier, threads read other
/// threads' slots before they are written: the poisoned shared memory shows.
#[test]
fn a_missing_barrier_gives_a_wrong_answer() {
    let Some(out) = child("a_missing_barrier_gives_a_wrong_answer", &[], || {
        for (first, barrier) in [
            ("__syncthreads()", "(void)0"),
            ("(void)0", "__syncthreads()"),
        ] {
            let (got, want) = reduce_sum(first, barrier);
            println!(
                "{} {got} {want}",
                if got == want { "right" } else { "wrong" }
            );
        }
    }) else {
        return;
    };
    let text = stdout(&out);
    let wrong = text.lines().filter(|l| l.starts_with("wrong ")).count();
    assert_eq!(wrong, 2, "{}", sim::printed(&out));
}

/// Blocks run on several OS threads at once, and each has its own shared memory.
#[test]
fn shared_memory_is_per_block() {
    const SRC: &str = r#"
extern "C" __global__ void __launch_bounds__(128) owner(int *bad) {
  __shared__ unsigned who;
  if (threadIdx.x == 0) who = blockIdx.x;
  __syncthreads();
  for (int k = 0; k < 4; k++) {
    if (who != blockIdx.x) atomicAdd(bad, 1);
    __syncthreads();
  }
}
"#;
    let Some(out) = child(
        "shared_memory_is_per_block",
        &[("ACC_SIM_THREADS", "4")],
        || {
            let gpu = gpu();
            let f = kernel(&gpu, SRC, "owner").unwrap();
            let bad = upload(&gpu, &[0i32]);
            let mut p = bad as u64;
            launch(&gpu, f, 64, (96, 1), &mut [(&mut p as *mut u64).cast()]);
            println!("bad {}", download::<i32>(&gpu, bad, 1)[0]);
        },
    ) else {
        return;
    };
    assert!(stdout(&out).contains("bad 0\n"), "{}", sim::printed(&out));
}

/// `acc_rt_atomic_begin/end` as acc-engine emits them: a device-wide spin lock taken by every
/// thread of many blocks. A waiting thread lets the others run, so the holder finishes.
#[test]
fn the_device_wide_lock_of_atomics_makes_progress() {
    const SRC: &str = r#"
__device__ unsigned int __acc_lock;
static __device__ void acc_rt_atomic_begin(void) {
  while (atomicCAS(&__acc_lock, 0u, 1u) != 0u) {
  }
  __threadfence();
}
static __device__ void acc_rt_atomic_end(void) {
  __threadfence();
  atomicExch(&__acc_lock, 0u);
}
extern "C" __global__ void count(long long *c, double *d) {
  for (int k = 0; k < 3; k++) {
    acc_rt_atomic_begin();
    *c += 1;
    *d += 0.5;
    acc_rt_atomic_end();
  }
}
"#;
    let Some(out) = child(
        "the_device_wide_lock_of_atomics_makes_progress",
        &[("ACC_SIM_THREADS", "3")],
        || {
            let gpu = gpu();
            let f = kernel(&gpu, SRC, "count").unwrap();
            let (c, d) = (upload(&gpu, &[0i64]), upload(&gpu, &[0f64]));
            let (mut pc, mut pd) = (c as u64, d as u64);
            let mut params = [(&mut pc as *mut u64).cast(), (&mut pd as *mut u64).cast()];
            launch(&gpu, f, 16, (64, 2), &mut params);
            let (c, d) = (
                download::<i64>(&gpu, c, 1)[0],
                download::<f64>(&gpu, d, 1)[0],
            );
            println!("count {c} {d}");
        },
    ) else {
        return;
    };
    assert!(
        stdout(&out).contains(&format!("count {} {}\n", 16 * 128 * 3, 16 * 128 * 3 / 2)),
        "{}",
        sim::printed(&out)
    );
}

/// A hang on a GPU (a thread waits at a barrier while holding the lock the others spin on)
/// is a failed launch here.
#[test]
fn a_kernel_that_would_hang_fails_its_launch() {
    const SRC: &str = r#"
__device__ unsigned int lock;
extern "C" __global__ void hang(int *x) {
  while (atomicCAS(&lock, 0u, 1u) != 0u) {
  }
  *x += 1;
  __syncthreads();
  atomicExch(&lock, 0u);
}
"#;
    let Some(out) = child("a_kernel_that_would_hang_fails_its_launch", &[], || {
        let gpu = gpu();
        let f = kernel(&gpu, SRC, "hang").unwrap();
        let x = upload(&gpu, &[0i32]);
        let mut p = x as u64;
        launch(&gpu, f, 1, (32, 1), &mut [(&mut p as *mut u64).cast()]);
    }) else {
        return;
    };
    assert!(out.status.success(), "{}", sim::printed(&out));
    assert!(
        stdout(&out)
            .contains("launch error: the kernel failed while it ran: CUDA_ERROR_LAUNCH_FAILED"),
        "{}",
        sim::printed(&out)
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("threads spin on atomicCAS"),
        "{}",
        sim::printed(&out)
    );
}

#[test]
fn warp_shuffles_and_votes_exchange_values_within_a_warp() {
    const SRC: &str = r#"
extern "C" __global__ void warps(int *out) {
  const unsigned t = threadIdx.x, lane = t % 32;
  int v = (int)t;
  for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
  const unsigned odd = __ballot_sync(0xffffffffu, lane & 1);
  const int up = __shfl_up_sync(0xffffffffu, (int)t, 1);
  const int x = __shfl_xor_sync(0xffffffffu, (int)t, 1);
  const int b = __shfl_sync(0xffffffffu, (int)t, 5);
  if (lane == 0) out[t / 32] = v;
  out[8 + t] = (odd == 0xaaaaaaaau) + 2 * (up == (lane == 0 ? (int)t : (int)t - 1)) +
               4 * (x == (int)(t ^ 1)) + 8 * (b == (int)(t - lane + 5)) +
               16 * (__syncthreads_count(lane < 4) == 4 * (int)(blockDim.x / 32));
}
"#;
    let Some(out) = child(
        "warp_shuffles_and_votes_exchange_values_within_a_warp",
        &[],
        || {
            let gpu = gpu();
            let f = kernel(&gpu, SRC, "warps").unwrap();
            let d = upload(&gpu, &[0i32; 8 + 128]);
            let mut p = d as u64;
            launch(&gpu, f, 1, (128, 1), &mut [(&mut p as *mut u64).cast()]);
            let v: Vec<i32> = download(&gpu, d, 8 + 128);
            println!("sums {:?}", &v[..4]);
            println!("checks {}", v[8..].iter().all(|&c| c == 31));
        },
    ) else {
        return;
    };
    // Lane 0 of warp w sums the warp's thread numbers 32w..32w+31.
    let sums: Vec<i32> = (0..4).map(|w| (0..32).map(|l| 32 * w + l).sum()).collect();
    let text = stdout(&out);
    assert!(
        text.contains(&format!("sums {sums:?}")) && text.contains("checks true"),
        "{}",
        sim::printed(&out)
    );
}

/// Device `printf` prints; `vprintf` reads CUDA's packed argument buffer (each argument aligned
/// to its size), as the Rust kernels' panic message passes it.
#[test]
fn device_printf_formats_as_cuda_does() {
    const SRC: &str = r#"
extern "C" __device__ int vprintf(const char *, const char *);
extern "C" __global__ void hello(int n) {
  if (threadIdx.x != 0) return;
  printf("block %u: %d %5.2f %s\n", blockIdx.x, n, 2.5, "text");
  struct { int a; long long b; const char *s; double d; char c; } args = {-3, 1LL << 40, "str", 0.25, 'z'};
  vprintf("packed %d %lld %s %g %c %%\n", (const char *)&args);
}
"#;
    let Some(out) = child("device_printf_formats_as_cuda_does", &[], || {
        let gpu = gpu();
        let f = kernel(&gpu, SRC, "hello").unwrap();
        let mut n = 42i32;
        launch(&gpu, f, 2, (32, 1), &mut [(&mut n as *mut i32).cast()]);
    }) else {
        return;
    };
    let text = stdout(&out);
    for want in [
        "block 0: 42  2.50 text\n",
        "block 1: 42  2.50 text\n",
        "packed -3 1099511627776 str 0.25 z %\n",
    ] {
        assert!(text.contains(want), "{want:?} in {}", sim::printed(&out));
    }
}

/// `__trap()` fails the launch: the runtime gets CUDA_ERROR_LAUNCH_FAILED from the stream's
/// synchronization, the process goes on, and the error sticks to the context.
#[test]
fn a_trap_fails_the_launch_not_the_process() {
    const SRC: &str = r#"
extern "C" __global__ void trapper(int *x) {
  x[threadIdx.x] = 1;
  if (blockIdx.x == 1 && threadIdx.x == 7) __trap();
}
"#;
    let Some(out) = child("a_trap_fails_the_launch_not_the_process", &[], || {
        let gpu = gpu();
        let f = kernel(&gpu, SRC, "trapper").unwrap();
        let x = upload(&gpu, &[0i32; 64]);
        let mut p = x as u64;
        launch(&gpu, f, 4, (64, 1), &mut [(&mut p as *mut u64).cast()]);
        // SAFETY: the argument matches, as above.
        let again = unsafe {
            gpu.launch_kernel(
                f,
                Shape {
                    grid: 1,
                    block: (1, 1),
                },
                &mut [(&mut p as *mut u64).cast()],
            )
        };
        println!("afterwards: {again:?}");
    }) else {
        return;
    };
    assert!(out.status.success(), "{}", sim::printed(&out));
    let (text, err) = (stdout(&out), String::from_utf8_lossy(&out.stderr));
    assert!(
        text.contains("launch error: the kernel failed while it ran: CUDA_ERROR_LAUNCH_FAILED (unspecified launch failure)"),
        "{}",
        sim::printed(&out)
    );
    assert!(
        text.contains("afterwards: Err(\"cuLaunchKernel failed: CUDA_ERROR_LAUNCH_FAILED"),
        "the error sticks: {}",
        sim::printed(&out)
    );
    assert!(
        err.contains("acc-sim: kernel trapper: __trap() in block (1,0,0), thread (7,0,0)"),
        "{}",
        sim::printed(&out)
    );
}

/// Device memory ends at a guard page: a kernel that writes past its allocation fails with
/// CUDA_ERROR_ILLEGAL_ADDRESS, as a GPU reports a fault.
#[test]
fn a_fault_in_a_kernel_is_an_illegal_address() {
    const SRC: &str = r#"
extern "C" __global__ void overrun(double *x, int n) {
  for (int i = threadIdx.x; i < n + 4096; i += blockDim.x) x[i] = 1.0;
}
"#;
    let Some(out) = child("a_fault_in_a_kernel_is_an_illegal_address", &[], || {
        let gpu = gpu();
        let f = kernel(&gpu, SRC, "overrun").unwrap();
        let x = gpu.alloc(800).unwrap();
        let (mut p, mut n) = (x as u64, 100i32);
        let mut params = [(&mut p as *mut u64).cast(), (&mut n as *mut i32).cast()];
        launch(&gpu, f, 1, (32, 1), &mut params);
    }) else {
        return;
    };
    assert!(out.status.success(), "{}", sim::printed(&out));
    assert!(
        stdout(&out)
            .contains("CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)"),
        "{}",
        sim::printed(&out)
    );
}

/// A kernel that does not compile: the runtime's error carries the compiler's diagnostic for
/// the kernel's file, as it carries NVRTC's log.
#[test]
fn a_compile_error_comes_back_in_the_log() {
    const SRC: &str =
        "#line 12 \"broken.c\"\nextern \"C\" __global__ void broken(int *x) { x[0] = y; }\n";
    let Some(out) = child("a_compile_error_comes_back_in_the_log", &[], || {
        let gpu = gpu();
        println!("{}", kernel(&gpu, SRC, "broken").unwrap_err());
    }) else {
        return;
    };
    let text = stdout(&out);
    assert!(
        text.contains("kernel 'broken' failed to compile for sm_90 with NVRTC 12.9")
            && text.contains("broken.c:12")
            && text.contains("'y'")
            && text.contains("error")
            && !text.contains("acc-sim"),
        "{}",
        sim::printed(&out)
    );
}

/// The second run of a program loads its kernels from the JIT's disk cache: it needs no
/// compiler (here: one that always fails).
#[test]
fn the_jit_disk_cache_serves_the_second_run() {
    const SRC: &str = r#"
extern "C" __global__ void twice(int *x) { x[threadIdx.x] *= 2; }
"#;
    let name = "the_jit_disk_cache_serves_the_second_run";
    let body = || {
        let gpu = gpu();
        match kernel(&gpu, SRC, "twice") {
            Ok(f) => {
                let x = upload(&gpu, &[1i32, 2, 3]);
                let mut p = x as u64;
                launch(&gpu, f, 1, (3, 1), &mut [(&mut p as *mut u64).cast()]);
                println!("result {:?}", download::<i32>(&gpu, x, 3));
            }
            Err(e) => println!("error {e}"),
        }
    };
    if sim::child_mode().is_some() {
        if sim::child_mode().as_deref() == Some(name) {
            body();
        }
        return;
    }
    let Some(s) = sim::simulator() else { return };
    let cache = sim::fresh_cache(name);
    let run = |cxx: &str| {
        let mut cmd = std::process::Command::new(std::env::current_exe().unwrap());
        cmd.args(["--exact", name, "--nocapture"])
            .env(sim::CHILD, name)
            .env("ACC_SIM_CXX", cxx);
        sim::output_within(s.configure(&mut cmd, &cache), sim::CHILD_TIMEOUT)
    };
    let first = run("false");
    assert!(
        stdout(&first).contains("error "),
        "no compiler, no cache: {}",
        sim::printed(&first)
    );
    let second = run(&std::env::var("ACC_SIM_CXX").unwrap_or_else(|_| "c++".into()));
    assert!(
        stdout(&second).contains("result [2, 4, 6]"),
        "{}",
        sim::printed(&second)
    );
    let third = run("false");
    assert!(
        stdout(&third).contains("result [2, 4, 6]"),
        "{}",
        sim::printed(&third)
    );
    let _ = std::fs::remove_dir_all(&cache);
}
