//! The executor of the CPU devices: one rayon pool sized to the machine, shared by `host` and
//! `host_discrete` kernels, and the thread-local marker `acc_on_device` reads inside kernels.

use super::DeviceKind;
use rayon::prelude::*;
use std::cell::Cell;
use std::sync::OnceLock;

fn pool() -> &'static rayon::ThreadPool {
    static POOL: OnceLock<rayon::ThreadPool> = OnceLock::new();
    POOL.get_or_init(|| {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("acc-kernel-{i}"))
            .build()
            // Without a pool no kernel can run; there is nothing sensible to fall back to.
            .expect("acc: cannot start the kernel thread pool")
    })
}

/// The number of threads kernels run on.
pub fn threads() -> usize {
    pool().current_num_threads()
}

thread_local! {
    static RUNNING_ON: Cell<Option<DeviceKind>> = const { Cell::new(None) };
}

/// The device whose kernel the calling thread is running, if any (for `acc_on_device`).
pub fn running_on() -> Option<DeviceKind> {
    RUNNING_ON.with(Cell::get)
}

/// Runs `body(c)` for `c` in `0..chunks` on the pool, marking each chunk as running on `kind`.
pub fn run_chunks(kind: DeviceKind, chunks: usize, body: &(dyn Fn(usize) + Sync)) {
    let run = |c: usize| {
        let prev = RUNNING_ON.with(|r| r.replace(Some(kind)));
        body(c);
        RUNNING_ON.with(|r| r.set(prev));
    };
    match chunks {
        0 => {}
        // One chunk gains nothing from the pool; running it here saves the hand-off.
        1 => run(0),
        _ => pool().install(|| (0..chunks).into_par_iter().with_max_len(1).for_each(run)),
    }
}
