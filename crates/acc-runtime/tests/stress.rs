//! 16 host threads doing interleaved enter/exit on shared and private data through the C ABI
//! on `host_discrete`: no crash, correct values, and consistent counts at the end. Bounded in
//! time: the work runs on a helper thread and the test fails if it takes over a minute. The
//! same again on the `nvidia` device of the CUDA simulator (`tests/cuda-sim`), in a child
//! process: 16 threads sharing one GPU, each binding its context and launching the kernel's
//! CUDA version.

use acc_runtime::abi::{
    acc_rt_launch, acc_rt_region_begin, acc_rt_region_end, AccRtArg, AccRtConfig, AccRtData,
    AccRtKernel, ACC_RT_ARG_MAPPED,
};
use acc_runtime::api::*;
use acc_runtime::error::Site;
use acc_runtime::runtime::{self, Chunk};
use std::ffi::c_void;
use std::sync::mpsc;
use std::sync::Barrier;
use std::time::Duration;

const THREADS: usize = 16;
const ROUNDS: usize = 200;
const N: usize = 256;

const COPY: u32 = 1;
const PRESENT: u32 = 6;

#[path = "../../../tests/cuda-sim/support.rs"]
mod sim;

/// The child mode that runs the test on the simulated GPU.
const ON_GPU: &str = "stress-on-gpu";

/// The device of this run: `host_discrete`, or the simulated GPU in the child process.
fn device() -> i32 {
    if sim::child_mode().as_deref() == Some(ON_GPU) {
        ACC_DEVICE_NVIDIA
    } else {
        ACC_DEVICE_HOST_DISCRETE
    }
}

/// `add_one` for the nvidia device, after `acc_rt.h`'s launch convention.
const ADD_ONE_CUDA: &std::ffi::CStr = c"extern \"C\" __global__ void add_one(long long *a, void *const *red, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    a[i] += 1;
}
";

unsafe extern "C" fn add_one(c: *const Chunk) {
    // SAFETY: the runtime passes a valid chunk whose argument 0 holds a device pointer to N i64.
    unsafe {
        let c = &*c;
        let a = *(*c.args as *const *mut i64);
        for i in c.begin..c.end {
            *a.add(i as usize) += 1;
        }
    }
}

fn worker(shared: usize, barrier: &Barrier) -> Vec<i64> {
    acc_set_device_type(device());
    let mut private = vec![0i64; N];
    let bytes = N * size_of::<i64>();
    barrier.wait();
    for round in 0..ROUNDS {
        // SAFETY: `shared` and `private` are live arrays of `bytes` bytes for the whole loop; every
        // action below is synchronous.
        unsafe {
            acc_copyin(shared as *mut c_void, bytes);
            assert_eq!(
                acc_is_present(shared as *mut c_void, bytes),
                1,
                "shared data held by this thread"
            );
            let data = [
                AccRtData {
                    action: PRESENT,
                    flags: 0,
                    host: shared as *mut c_void,
                    bytes,
                    text: c"shared".as_ptr(),
                },
                AccRtData {
                    action: COPY,
                    flags: 0,
                    host: private.as_mut_ptr().cast(),
                    bytes,
                    text: c"private".as_ptr(),
                },
            ];
            acc_rt_region_begin(c"stress.rs".as_ptr(), 1, data.as_ptr(), 2, ACC_ASYNC_SYNC);
            let kernel = AccRtKernel {
                name: c"add_one".as_ptr(),
                file: c"stress.rs".as_ptr(),
                line: 2,
                host_fn: Some(add_one),
                cuda_source: ADD_ONE_CUDA.as_ptr(),
                cuda_entry: c"add_one".as_ptr(),
                cuda_lanes: 0,
            };
            let cfg = AccRtConfig {
                iterations: N as i64,
                num_gangs: 2,
                num_workers: 0,
                vector_length: 0,
                async_arg: ACC_ASYNC_SYNC,
            };
            let arg = AccRtArg {
                kind: ACC_RT_ARG_MAPPED,
                host: private.as_mut_ptr().cast(),
                bytes,
                text: c"private".as_ptr(),
            };
            acc_rt_launch(&kernel, &cfg, &arg, 1, std::ptr::null(), 0);
            acc_rt_region_end(c"stress.rs".as_ptr(), 3, data.as_ptr(), 2, ACC_ASYNC_SYNC);
            if round % 2 == 0 {
                acc_delete(shared as *mut c_void, bytes);
            } else {
                // finalize zeroes every thread's dynamic count at once, so only this thread's
                // private data gets it.
                acc_copyin(private.as_mut_ptr().cast(), bytes);
                acc_copyin(private.as_mut_ptr().cast(), bytes);
                acc_delete_finalize(private.as_mut_ptr().cast(), bytes);
                assert_eq!(acc_is_present(private.as_mut_ptr().cast(), bytes), 0);
                acc_delete(shared as *mut c_void, bytes);
            }
        }
    }
    private
}

#[test]
fn sixteen_threads_keep_counts_consistent() {
    let device = device();
    let shared: &'static mut [i64] = Box::leak(vec![7i64; N].into_boxed_slice());
    let shared_addr = shared.as_mut_ptr() as usize;
    let bytes = N * size_of::<i64>();
    acc_set_device_type(device);
    let free_before = acc_get_property(0, device, ACC_PROPERTY_FREE_MEMORY);
    // The main thread holds the shared data in a structured region for the whole run.
    let hold = [AccRtData {
        action: COPY,
        flags: 0,
        host: shared_addr as *mut c_void,
        bytes,
        text: c"shared".as_ptr(),
    }];
    // SAFETY: `shared` is leaked, so it outlives the region.
    unsafe { acc_rt_region_begin(c"stress.rs".as_ptr(), 10, hold.as_ptr(), 1, ACC_ASYNC_SYNC) };

    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let barrier = Barrier::new(THREADS);
        let results: Vec<Vec<i64>> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..THREADS)
                .map(|_| s.spawn(|| worker(shared_addr, &barrier)))
                .collect();
            hs.into_iter()
                .map(|h| h.join().expect("worker panicked"))
                .collect()
        });
        let _ = tx.send(results);
    });
    let results = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("stress test finished within a minute");
    for r in &results {
        assert!(
            r.iter().all(|&v| v == ROUNDS as i64),
            "each private array was incremented once per round"
        );
    }
    let d = runtime::current(&Site::routine("stress")).unwrap();
    let e = d
        .entry(shared_addr)
        .expect("the main thread's region still holds the shared data");
    assert_eq!(
        (e.structured, e.dynamic),
        (1, 0),
        "every thread's counts were returned"
    );
    assert_eq!(d.mapped_count(), 1, "no private data is left mapped");
    // SAFETY: as above.
    unsafe { acc_rt_region_end(c"stress.rs".as_ptr(), 11, hold.as_ptr(), 1, ACC_ASYNC_SYNC) };
    assert_eq!(d.mapped_count(), 0);
    assert_eq!(
        acc_get_property(0, device, ACC_PROPERTY_FREE_MEMORY),
        free_before,
        "all device memory was freed"
    );
    assert!(shared.iter().all(|&v| v == 7));
    if device == ACC_DEVICE_NVIDIA {
        println!("consistent on the simulated GPU");
    }
}

#[test]
fn sixteen_threads_keep_counts_consistent_on_the_simulated_gpu() {
    if sim::child_mode().is_some() {
        return;
    }
    let Some(s) = sim::simulator() else { return };
    let out = sim::run_child(
        s,
        ON_GPU,
        &["--exact", "sixteen_threads_keep_counts_consistent"],
        &[],
    );
    assert!(
        out.status.success()
            && String::from_utf8_lossy(&out.stdout).contains("consistent on the simulated GPU"),
        "{}",
        sim::printed(&out)
    );
}
