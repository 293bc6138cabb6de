//! Async queues: per-queue FIFO ordering, `wait`, `test`, and queue-to-queue waits.
//!
//! A device's queues run in one of two modes:
//! - **eager** (`host`): every operation runs in the caller's thread when it is enqueued. On
//!   shared memory there is nothing to overlap, and an eager queue is a queue whose work has
//!   always already finished, so `acc_async_test` is true and waits return at once — every
//!   observable rule of the specification holds.
//! - **deferred** (`host_discrete`): each queue has a worker thread that runs its operations in
//!   order while the host thread goes on, as a CUDA stream does. A program that reads results
//!   without waiting sees stale or poisoned data here, as it would on a GPU.
//!
//! Queue keys are the non-negative async values; `acc_async_noval` means the default queue
//! ([`NOVAL_QUEUE`] at first). `acc_async_sync` is not a queue: [`QueueSel::Sync`] runs in the
//! caller.
//!
//! The `nvidia` device uses deferred queues too: a queue's worker thread issues the queue's
//! operations on the CUDA stream of that queue ([`worker_queue`] tells the device which) and
//! each operation waits for its stream before it counts as completed, so `wait`, `test` and
//! queue-to-queue waits keep their meaning, and different queues overlap on the GPU.

use crate::error::{fatal, Error, ErrorKind, Site};
use std::cell::Cell;
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// The queue `acc_async_noval` (an `async` clause without an argument) means while the
/// default async queue has not been changed: queue 0. OpenACC 3.3 leaves the initial value of
/// acc-default-async-var to the implementation; `acc_get_default_async` returns it, and
/// programs use that value as a queue number (`wait(acc_get_default_async())`), so it is
/// one. `async` and `async(0)` share the queue, which orders them and changes no answer.
pub const NOVAL_QUEUE: i32 = 0;

/// Where an operation runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueSel {
    /// Synchronously, in the calling thread.
    Sync,
    /// On the queue with this key, in order with the queue's earlier operations.
    Async(i32),
}

type Job = Box<dyn FnOnce() + Send>;

pub struct Queues {
    eager: bool,
    queues: Mutex<HashMap<i32, Arc<Queue>>>,
    /// Operations enqueued on any of the queues and not completed yet: a synchronous operation
    /// waits for the queues on every data action and launch, and with nothing pending (the
    /// common case) one load answers where locking the map and each queue cost more than the
    /// present table's lookup.
    pending: Arc<AtomicU64>,
}

struct Queue {
    state: Mutex<Counts>,
    done: Condvar,
    tx: Mutex<Sender<Job>>,
    /// The device's [`Queues::pending`].
    pending: Arc<AtomicU64>,
}

#[derive(Clone, Copy, Default)]
struct Counts {
    submitted: u64,
    completed: u64,
}

thread_local! {
    /// The key of the queue whose worker this thread is.
    static WORKER_KEY: Cell<Option<i32>> = const { Cell::new(None) };
}

/// The queue whose worker thread is calling, or `None` in a program thread (synchronous
/// operations). Devices with streams run a queue's operations on that queue's stream.
pub fn worker_queue() -> Option<i32> {
    WORKER_KEY.with(Cell::get)
}

thread_local! {
    /// Set while a synchronous operation that drained the queues first holds its lock
    /// ([`Queues::drain_for`]).
    static DRAINED: Cell<bool> = const { Cell::new(false) };
}

/// What [`Queues::drain_for`] returns: the thread's mark, restored when it drops.
#[must_use = "the queues count as drained only while the guard lives"]
pub struct Drained {
    outer: bool,
}

impl Drop for Drained {
    fn drop(&mut self) {
        DRAINED.set(self.outer);
    }
}

/// Bumped after any operation on any queue completes, for `acc_wait_any`.
static ANY_DONE: (Mutex<u64>, Condvar) = (Mutex::new(0), Condvar::new());

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A poisoned lock only means another thread panicked while holding it; that panic already
    // goes to the error path, and the counts it protects are still consistent.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Queue {
    fn start(key: i32, pending: Arc<AtomicU64>) -> Arc<Queue> {
        let (tx, rx) = channel::<Job>();
        let q = Arc::new(Queue {
            state: Mutex::new(Counts::default()),
            done: Condvar::new(),
            tx: Mutex::new(tx),
            pending,
        });
        let worker = Arc::clone(&q);
        let name = format!("acc-queue-{key}");
        let spawned = std::thread::Builder::new().name(name).spawn(move || {
            WORKER_KEY.with(|k| k.set(Some(key)));
            for job in rx {
                if let Err(p) = catch_unwind(AssertUnwindSafe(job)) {
                    fatal(&crate::ffi::panic_error(
                        &Site::routine("async queue"),
                        p.as_ref(),
                    ));
                }
                let mut c = lock(&worker.state);
                c.completed += 1;
                drop(c);
                // Release: whoever reads the count at zero sees the job's effects.
                worker.pending.fetch_sub(1, Ordering::Release);
                worker.done.notify_all();
                *lock(&ANY_DONE.0) += 1;
                ANY_DONE.1.notify_all();
            }
        });
        if let Err(e) = spawned {
            let site = Site::routine("async queue");
            fatal(&Error::new(
                ErrorKind::Internal,
                &site,
                format!("cannot start a queue thread: {e}"),
            ));
        }
        q
    }

    fn push(&self, job: Job) {
        self.pending.fetch_add(1, Ordering::Relaxed);
        lock(&self.state).submitted += 1;
        // The worker only stops when the sender is dropped, which never happens while `self`
        // is reachable, so a send cannot fail.
        let _ = lock(&self.tx).send(job);
    }

    fn submitted(&self) -> u64 {
        lock(&self.state).submitted
    }

    fn idle(&self) -> bool {
        let c = *lock(&self.state);
        c.completed == c.submitted
    }

    fn wait_for(&self, target: u64) {
        let mut c = lock(&self.state);
        while c.completed < target {
            c = self.done.wait(c).unwrap_or_else(|e| e.into_inner());
        }
    }
}

impl Queues {
    /// Queues that run `eager`ly (in the caller) or deferred (on a worker thread per queue).
    pub fn new(eager: bool) -> Queues {
        Queues {
            eager,
            queues: Mutex::new(HashMap::new()),
            pending: Arc::new(AtomicU64::new(0)),
        }
    }

    pub fn is_eager(&self) -> bool {
        self.eager
    }

    fn queue(&self, key: i32) -> Arc<Queue> {
        let mut m = lock(&self.queues);
        Arc::clone(
            m.entry(key)
                .or_insert_with(|| Queue::start(key, Arc::clone(&self.pending))),
        )
    }

    fn existing(&self, key: i32) -> Option<Arc<Queue>> {
        lock(&self.queues).get(&key).cloned()
    }

    fn all(&self) -> Vec<Arc<Queue>> {
        lock(&self.queues).values().cloned().collect()
    }

    /// Runs `job` now (sync or eager) or enqueues it behind the queue's earlier operations.
    ///
    /// A synchronous operation from the program's threads first waits for every queue of the
    /// device, as an operation on CUDA's legacy default stream waits for every other stream.
    /// OpenACC asks the program to wait itself (a data region's copyout after an `async` kernel
    /// that writes the data is a race by §2.16), but programs tuned on GPUs rely on the
    /// stream's rule, and waiting more never changes a correct program's answer. The cost: a
    /// synchronous operation no longer overlaps with queued work on the same device, as on
    /// nvc's default (legacy) stream.
    pub fn submit<F: FnOnce() + Send + 'static>(&self, sel: QueueSel, job: F) {
        match sel {
            QueueSel::Async(key) if !self.eager => self.queue(key).push(Box::new(job)),
            QueueSel::Sync if !self.eager && worker_queue().is_none() && !DRAINED.get() => {
                self.wait_all();
                job()
            }
            _ => job(),
        }
    }

    /// For a synchronous operation that takes a lock queued work may take too (the present
    /// table: a kernel chunk's `routine` resolves a `declare`d global through it): waits for
    /// every queue *before* the caller takes the lock, and until the guard drops marks the
    /// thread so that `submit(Sync)` under the lock runs at once instead of waiting for the
    /// queues there, which could wait for a job that waits for the lock. Work another thread
    /// enqueues meanwhile is not waited for: OpenACC orders a synchronous operation after its
    /// own thread's queues only through a `wait`, and this thread's are drained.
    pub fn drain_for(&self, sel: QueueSel) -> Drained {
        let outer = DRAINED.get();
        if sel == QueueSel::Sync && !self.eager && worker_queue().is_none() {
            self.wait_all();
            DRAINED.set(true);
        }
        Drained { outer }
    }

    /// Whether every operation enqueued on `key` so far has completed.
    pub fn test(&self, key: i32) -> bool {
        self.existing(key).is_none_or(|q| q.idle())
    }

    pub fn test_all(&self) -> bool {
        self.all().iter().all(|q| q.idle())
    }

    /// Blocks until every operation enqueued on `key` before this call has completed.
    pub fn wait(&self, key: i32) {
        if let Some(q) = self.existing(key) {
            q.wait_for(q.submitted());
        }
    }

    pub fn wait_all(&self) {
        if self.pending.load(Ordering::Acquire) == 0 {
            return;
        }
        for q in self.all() {
            q.wait_for(q.submitted());
        }
    }

    /// Makes queue `on` wait for what `key` has been given so far, without blocking the caller.
    pub fn wait_async(&self, key: i32, on: i32) {
        if key == on {
            return; // A queue is always ordered after its own earlier work.
        }
        let Some(q) = self.existing(key) else { return };
        let target = q.submitted();
        self.submit(QueueSel::Async(on), move || q.wait_for(target));
    }

    /// Makes queue `on` wait for what every other queue has been given so far.
    pub fn wait_all_async(&self, on: i32) {
        // Collected first: a guard in the `for` expression would live through the loop.
        let keys: Vec<i32> = lock(&self.queues).keys().copied().collect();
        for key in keys {
            self.wait_async(key, on);
        }
    }

    /// Blocks until one of `keys` (`None` entries are skipped) has no pending work; returns its
    /// index, or `None` when every entry is `None`.
    pub fn wait_any(&self, keys: &[Option<i32>]) -> Option<usize> {
        let targets: Vec<Option<(usize, Option<Arc<Queue>>)>> = keys
            .iter()
            .enumerate()
            .map(|(i, k)| k.map(|k| (i, self.existing(k))))
            .collect();
        if targets.iter().all(Option::is_none) {
            return None;
        }
        let mut gen = lock(&ANY_DONE.0);
        loop {
            for (i, q) in targets.iter().flatten() {
                if q.as_ref().is_none_or(|q| q.idle()) {
                    return Some(*i);
                }
            }
            gen = ANY_DONE.1.wait(gen).unwrap_or_else(|e| e.into_inner());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc;

    #[test]
    fn deferred_queue_keeps_order_and_wait_waits() {
        let qs = Queues::new(false);
        let log = Arc::new(Mutex::new(Vec::new()));
        let (gate_tx, gate_rx) = mpsc::channel::<()>();
        qs.submit(QueueSel::Async(1), move || gate_rx.recv().unwrap());
        for i in 0..5 {
            let log = Arc::clone(&log);
            qs.submit(QueueSel::Async(1), move || log.lock().unwrap().push(i));
        }
        // The gate holds the queue, so nothing has run yet and test reports pending work.
        assert!(!qs.test(1));
        assert!(qs.test(2), "an unused queue is idle");
        gate_tx.send(()).unwrap();
        qs.wait(1);
        assert!(qs.test(1));
        assert_eq!(*log.lock().unwrap(), vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn wait_async_orders_one_queue_after_another() {
        let qs = Queues::new(false);
        let (gate_tx, gate_rx) = mpsc::channel::<()>();
        let step = Arc::new(AtomicUsize::new(0));
        let s1 = Arc::clone(&step);
        qs.submit(QueueSel::Async(1), move || {
            gate_rx.recv().unwrap();
            s1.store(1, Ordering::SeqCst);
        });
        qs.wait_async(1, 2);
        let s2 = Arc::clone(&step);
        let seen = Arc::new(AtomicUsize::new(99));
        let seen2 = Arc::clone(&seen);
        qs.submit(QueueSel::Async(2), move || {
            seen2.store(s2.load(Ordering::SeqCst), Ordering::SeqCst)
        });
        assert!(!qs.test(2), "queue 2 waits for queue 1's gate");
        gate_tx.send(()).unwrap();
        qs.wait(2);
        assert_eq!(
            seen.load(Ordering::SeqCst),
            1,
            "queue 2 ran after queue 1's operation"
        );
        assert!(qs.test(1) && qs.test(2));
    }

    #[test]
    fn a_synchronous_operation_runs_after_pending_queued_work_and_none_is_left_pending() {
        let qs = Queues::new(false);
        assert_eq!(qs.pending.load(Ordering::Acquire), 0);
        let (gate_tx, gate_rx) = mpsc::channel::<()>();
        let done = Arc::new(AtomicUsize::new(0));
        let d1 = Arc::clone(&done);
        qs.submit(QueueSel::Async(3), move || {
            gate_rx.recv().unwrap();
            d1.fetch_add(1, Ordering::SeqCst);
        });
        let d2 = Arc::clone(&done);
        qs.submit(QueueSel::Async(4), move || {
            d2.fetch_add(10, Ordering::SeqCst);
        });
        assert!(
            qs.pending.load(Ordering::Acquire) >= 1,
            "the gated job is pending"
        );
        let releaser = std::thread::spawn(move || gate_tx.send(()).unwrap());
        let seen = Arc::new(AtomicUsize::new(99));
        let (d3, s3) = (Arc::clone(&done), Arc::clone(&seen));
        qs.submit(QueueSel::Sync, move || {
            s3.store(d3.load(Ordering::SeqCst), Ordering::SeqCst)
        });
        releaser.join().unwrap();
        assert_eq!(
            seen.load(Ordering::SeqCst),
            11,
            "the sync job saw both queued jobs done"
        );
        assert_eq!(qs.pending.load(Ordering::Acquire), 0);
    }

    #[test]
    fn wait_any_returns_an_idle_queue() {
        let qs = Queues::new(false);
        let (gate_tx, gate_rx) = mpsc::channel::<()>();
        qs.submit(QueueSel::Async(1), move || gate_rx.recv().unwrap());
        qs.submit(QueueSel::Async(2), || {});
        assert_eq!(qs.wait_any(&[Some(1), None, Some(2)]), Some(2));
        assert_eq!(qs.wait_any(&[None, None]), None);
        gate_tx.send(()).unwrap();
        qs.wait_all();
        assert!(qs.test_all());
    }

    #[test]
    fn eager_queues_run_at_once() {
        let qs = Queues::new(true);
        let hit = Arc::new(AtomicUsize::new(0));
        let h = Arc::clone(&hit);
        qs.submit(QueueSel::Async(3), move || {
            h.fetch_add(1, Ordering::SeqCst);
        });
        assert_eq!(hit.load(Ordering::SeqCst), 1);
        assert!(qs.test(3) && qs.test_all());
    }
}
