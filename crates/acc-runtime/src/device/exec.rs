//! The executor of the CPU devices, and the thread-local marker `acc_on_device` reads inside
//! kernels.
//!
//! A launch runs on a **team**: one thread per core (the launching thread plus `cores - 1`
//! workers) that hand out chunks with one atomic counter, as an OpenMP `parallel` region does.
//! Between launches the workers spin for a while before they sleep, so back-to-back launches —
//! the common case in a time-step loop — cost about as much as an empty `omp parallel`; a
//! rayon `install` costs tens of microseconds because its workers sleep and the caller blocks
//! on a condition variable. The team runs one launch at a time: a launch that finds it busy
//! (several host threads launching at once, or a launch from inside a kernel) runs on a rayon
//! pool of the same size instead, so no launch ever waits for another.

use super::DeviceKind;
use rayon::prelude::*;
use std::cell::{Cell, UnsafeCell};
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, OnceLock, TryLockError};

/// How many times an idle worker polls for the next launch before it sleeps: a few hundred
/// microseconds, in the range of libgomp's default `GOMP_SPINCOUNT`.
const SPINS: u32 = 1 << 16;

/// The machine's cores, read once: `available_parallelism` reads cgroup files on every call,
/// which costs more than a launch.
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

fn pool() -> &'static rayon::ThreadPool {
    static POOL: OnceLock<rayon::ThreadPool> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(cores())
            .thread_name(|i| format!("acc-kernel-{i}"))
            .build()
            // Without a pool no kernel can run; there is nothing sensible to fall back to.
            .expect("acc: cannot start the kernel thread pool")
    })
}

/// The number of threads a launch runs on.
pub fn threads() -> usize {
    cores()
}

thread_local! {
    static RUNNING_ON: Cell<Option<DeviceKind>> = const { Cell::new(None) };
}

/// The device whose kernel the calling thread is running, if any (for `acc_on_device`).
pub fn running_on() -> Option<DeviceKind> {
    RUNNING_ON.with(Cell::get)
}

/// The launch the team is running.
struct Job {
    /// The chunk body, its lifetime erased: valid while the launching thread waits in `run`.
    body: *const (dyn Fn(usize) + Sync + 'static),
    chunks: usize,
}

struct Team {
    workers: usize,
    /// Held by the launching thread for the whole launch.
    launch: Mutex<()>,
    /// Bumped once per launch; workers watch it.
    generation: AtomicU64,
    /// Written by the launcher while no worker is inside a job (see `run`).
    job: UnsafeCell<Job>,
    next: AtomicUsize,
    /// Workers that have not yet finished the current launch.
    remaining: AtomicUsize,
    /// The first panic of the current launch, re-raised on the launching thread.
    panic: Mutex<Option<Box<dyn std::any::Any + Send>>>,
    sleepers: AtomicUsize,
    sleep: Mutex<()>,
    wake: Condvar,
}

// SAFETY: `job` is written only by the thread holding `launch`, and only while every worker is
// outside the job (`remaining == 0`); workers read it only between seeing a new generation
// (Acquire, paired with the launcher's SeqCst bump after the write) and decrementing `remaining`.
unsafe impl Sync for Team {}

fn empty_body(_: usize) {}

fn team() -> &'static Team {
    static TEAM: OnceLock<&'static Team> = OnceLock::new();
    TEAM.get_or_init(|| {
        let workers = cores() - 1;
        let team: &'static Team = Box::leak(Box::new(Team {
            workers,
            launch: Mutex::new(()),
            generation: AtomicU64::new(0),
            job: UnsafeCell::new(Job {
                body: &empty_body,
                chunks: 0,
            }),
            next: AtomicUsize::new(0),
            remaining: AtomicUsize::new(0),
            panic: Mutex::new(None),
            sleepers: AtomicUsize::new(0),
            sleep: Mutex::new(()),
            wake: Condvar::new(),
        }));
        for i in 0..workers {
            let spawned = std::thread::Builder::new()
                .name(format!("acc-team-{}", i + 1))
                .spawn(move || team.work());
            // A team short of a worker would wait for it forever; fail loudly at start-up.
            spawned.expect("acc: cannot start the kernel team");
        }
        team
    })
}

impl Team {
    /// Claims and runs chunks of the current job until none are left.
    fn claim(&self, kind: DeviceKind) {
        // SAFETY: called only while the job is published (see the `Sync` impl).
        let job = unsafe { &*self.job.get() };
        // SAFETY: the launcher keeps the body alive until every participant is done.
        let body = unsafe { &*job.body };
        loop {
            let c = self.next.fetch_add(1, Ordering::Relaxed);
            if c >= job.chunks {
                break;
            }
            let prev = RUNNING_ON.with(|r| r.replace(Some(kind)));
            if let Err(payload) = catch_unwind(AssertUnwindSafe(|| body(c))) {
                let mut first = self.panic.lock().unwrap_or_else(|e| e.into_inner());
                first.get_or_insert(payload);
            }
            RUNNING_ON.with(|r| r.set(prev));
        }
    }

    fn work(&self) {
        let mut seen = 0u64;
        loop {
            let mut spins = 0;
            loop {
                let g = self.generation.load(Ordering::Acquire);
                if g != seen {
                    seen = g;
                    break;
                }
                if spins < SPINS {
                    spins += 1;
                    std::hint::spin_loop();
                    continue;
                }
                let guard = self.sleep.lock().unwrap_or_else(|e| e.into_inner());
                self.sleepers.fetch_add(1, Ordering::SeqCst);
                let mut guard = guard;
                while self.generation.load(Ordering::SeqCst) == seen {
                    guard = self.wake.wait(guard).unwrap_or_else(|e| e.into_inner());
                }
                self.sleepers.fetch_sub(1, Ordering::SeqCst);
                spins = 0;
            }
            self.claim(LAUNCH_KIND.load_kind());
            self.remaining.fetch_sub(1, Ordering::Release);
        }
    }

    /// Runs `body` over `0..chunks` with the whole team; the caller holds `launch`.
    fn run(&self, kind: DeviceKind, chunks: usize, body: &(dyn Fn(usize) + Sync)) {
        let body: *const (dyn Fn(usize) + Sync + '_) = body;
        // SAFETY: only the lifetime is erased; this function does not return before every
        // worker has finished with the job (`remaining == 0` below), so the body outlives its
        // uses.
        let body: *const (dyn Fn(usize) + Sync + 'static) = unsafe { std::mem::transmute(body) };
        // SAFETY: we hold `launch` and the previous launch ended with `remaining == 0`, so no
        // worker reads the job now.
        unsafe { *self.job.get() = Job { body, chunks } };
        LAUNCH_KIND.store_kind(kind);
        self.next.store(0, Ordering::Relaxed);
        self.remaining.store(self.workers, Ordering::Relaxed);
        self.generation.fetch_add(1, Ordering::SeqCst);
        if self.sleepers.load(Ordering::SeqCst) > 0 {
            let _g = self.sleep.lock().unwrap_or_else(|e| e.into_inner());
            self.wake.notify_all();
        }
        self.claim(kind);
        let mut spins = 0u32;
        while self.remaining.load(Ordering::Acquire) != 0 {
            spins += 1;
            if spins < SPINS {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        let panic = self.panic.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(payload) = panic {
            resume_unwind(payload);
        }
    }
}

/// The device kind of the team's current launch, for `acc_on_device` in the workers.
struct KindCell(AtomicUsize);

impl KindCell {
    fn store_kind(&self, k: DeviceKind) {
        let v = match k {
            DeviceKind::Host => 0,
            DeviceKind::HostDiscrete => 1,
            DeviceKind::Nvidia => 2,
        };
        self.0.store(v, Ordering::Relaxed);
    }

    fn load_kind(&self) -> DeviceKind {
        match self.0.load(Ordering::Relaxed) {
            0 => DeviceKind::Host,
            1 => DeviceKind::HostDiscrete,
            _ => DeviceKind::Nvidia,
        }
    }
}

static LAUNCH_KIND: KindCell = KindCell(AtomicUsize::new(0));

/// Runs `body(c)` for `c` in `0..chunks` on the CPU, marking each chunk as running on `kind`,
/// and returns when all have finished.
pub fn run_chunks(kind: DeviceKind, chunks: usize, body: &(dyn Fn(usize) + Sync)) {
    let marked = |c: usize| {
        let prev = RUNNING_ON.with(|r| r.replace(Some(kind)));
        body(c);
        RUNNING_ON.with(|r| r.set(prev));
    };
    if chunks == 0 {
        return;
    }
    // One chunk gains nothing from other threads; running it here saves the hand-off.
    if chunks == 1 || cores() == 1 {
        return (0..chunks).for_each(marked);
    }
    let t = team();
    match t.launch.try_lock() {
        Ok(_guard) => t.run(kind, chunks, body),
        // A launch that panicked left the team consistent (it waited for every worker first).
        Err(TryLockError::Poisoned(p)) => {
            let _guard = p.into_inner();
            t.run(kind, chunks, body)
        }
        Err(TryLockError::WouldBlock) => {
            pool().install(|| (0..chunks).into_par_iter().with_max_len(1).for_each(marked))
        }
    }
}
