//! Runtime overheads, printed as a table: present-table lookup, structured enter/exit of present
//! data, and an empty kernel launch on `host` compared with an empty `#pragma omp parallel`
//! region built with `gcc -O2 -fopenmp` and run in the same bench (target: within 2x).
//!
//! Run with `cargo bench -p acc-runtime`. Plain `std::time`, many iterations, best of a few runs.

use acc_runtime::abi::{
    acc_rt_launch, acc_rt_region_begin, acc_rt_region_end, AccRtConfig, AccRtData, AccRtKernel,
};
use acc_runtime::api::*;
use acc_runtime::runtime::Chunk;
use std::ffi::c_void;
use std::hint::black_box;
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

/// Nanoseconds per call of `f`, the best of five runs of `iters` calls.
fn time_ns(iters: u64, mut f: impl FnMut(u64)) -> f64 {
    for i in 0..iters / 10 {
        f(i);
    }
    (0..5)
        .map(|_| {
            let t = Instant::now();
            for i in 0..iters {
                f(i);
            }
            t.elapsed().as_nanos() as f64 / iters as f64
        })
        .fold(f64::INFINITY, f64::min)
}

unsafe extern "C" fn empty_kernel(c: *const Chunk) {
    black_box(c);
}

/// Launches an empty kernel with one chunk per core on the current device, synchronously.
fn empty_launch(threads: i64) {
    let kernel = AccRtKernel {
        name: c"empty".as_ptr(),
        file: c"bench".as_ptr(),
        line: 1,
        host_fn: Some(empty_kernel),
        cuda_source: std::ptr::null(),
        cuda_entry: std::ptr::null(),
        cuda_lanes: 0,
    };
    let cfg = AccRtConfig {
        iterations: threads,
        num_gangs: 0,
        num_workers: 0,
        vector_length: 0,
        async_arg: ACC_ASYNC_SYNC,
    };
    // SAFETY: the descriptors live across the call and the kernel touches nothing.
    unsafe { acc_rt_launch(&kernel, &cfg, std::ptr::null(), 0, std::ptr::null(), 0) };
}

const OMP_SRC: &str = r#"
#include <omp.h>
#include <stdio.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
int main(void) {
  const long iters = 200000;
  double best = 1e30;
  for (int run = 0; run < 6; run++) {
    double t0 = now();
    for (long i = 0; i < iters; i++) {
#pragma omp parallel
      { __asm__ volatile("" ::: "memory"); }
    }
    double ns = (now() - t0) / iters;
    if (run > 0 && ns < best) best = ns; /* run 0 warms the thread pool up */
  }
  printf("%.1f %d\n", best, omp_get_max_threads());
  return 0;
}
"#;

/// ns per empty `omp parallel` region and the thread count, or why it could not be measured.
fn omp_parallel_ns() -> Result<(f64, usize), String> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bench-omp");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let src = dir.join("omp_empty.c");
    let exe = dir.join("omp_empty");
    std::fs::write(&src, OMP_SRC).map_err(|e| e.to_string())?;
    let out = Command::new("gcc")
        .args(["-O2", "-fopenmp"])
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .map_err(|e| format!("gcc: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "gcc -fopenmp failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let out = Command::new(&exe).output().map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut it = text.split_whitespace();
    let ns = it.next().and_then(|s| s.parse().ok()).ok_or("no output")?;
    let threads = it
        .next()
        .and_then(|s| s.parse().ok())
        .ok_or("no thread count")?;
    Ok((ns, threads))
}

fn main() {
    let mut rows: Vec<(String, f64)> = Vec::new();

    // Present lookups among 1000 mapped arrays on host_discrete.
    acc_set_device_type(ACC_DEVICE_HOST_DISCRETE);
    let arrays: Vec<Vec<f64>> = (0..1000).map(|_| vec![0.0; 64]).collect();
    for a in &arrays {
        // SAFETY: every array lives until the end of main.
        unsafe { acc_copyin(a.as_ptr() as *mut c_void, 512) };
    }
    let ns = time_ns(2_000_000, |i| {
        let a = &arrays[(i as usize * 7919) % arrays.len()];
        // SAFETY: `a` is live; the range is inside it.
        black_box(unsafe { acc_is_present(a.as_ptr().add(8) as *mut c_void, 64) });
    });
    rows.push(("present lookup, 1000 entries (acc_is_present)".into(), ns));

    // Structured enter/exit of present data (a data region with present(a)).
    let a = &arrays[500];
    let data = [AccRtData {
        action: 6,
        flags: 0,
        host: a.as_ptr() as *mut c_void,
        bytes: 512,
        text: c"a[0:64]".as_ptr(),
    }];
    let ns = time_ns(1_000_000, |_| {
        // SAFETY: `a` is present and live; the region is balanced.
        unsafe {
            acc_rt_region_begin(c"bench.c".as_ptr(), 1, data.as_ptr(), 1, ACC_ASYNC_SYNC);
            acc_rt_region_end(c"bench.c".as_ptr(), 2, data.as_ptr(), 1, ACC_ASYNC_SYNC);
        }
    });
    rows.push((
        "enter+exit of a present variable (region begin/end)".into(),
        ns,
    ));

    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as i64;
    let ns = time_ns(100_000, |_| empty_launch(threads));
    rows.push(("empty kernel launch, host_discrete".into(), ns));

    acc_set_device_type(ACC_DEVICE_HOST);
    let launch = time_ns(200_000, |_| empty_launch(threads));
    rows.push(("empty kernel launch, host".into(), launch));

    let omp = omp_parallel_ns();
    if let Ok((ns, _)) = &omp {
        rows.push(("empty #pragma omp parallel (gcc -O2 -fopenmp)".into(), *ns));
    }

    println!();
    println!("| {:<54} | {:>10} |", "measurement", "ns/op");
    println!("|{:-<56}|{:->12}|", "", "");
    for (name, ns) in &rows {
        println!("| {name:<54} | {ns:>10.1} |");
    }
    match omp {
        Ok((ns, threads)) => println!(
            "\nempty launch on host / empty omp parallel = {:.2}x (target <= 2x; {} threads each)",
            launch / ns,
            threads
        ),
        Err(e) => println!("\nomp comparison skipped: {e}"),
    }
}
