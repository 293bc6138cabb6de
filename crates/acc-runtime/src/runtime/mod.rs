//! The runtime proper: the devices of this process, the current device of each thread, and the
//! data actions, transfers and launches on one device, as `Result`-returning Rust functions.
//!
//! `api` (the OpenACC routines) and `abi` (the entry points of generated code) are thin C ABI
//! layers over this module; both end every error in `error::fatal`.
//!
//! The module is split by what each part owns; every public item is re-exported here, so its
//! path stays `runtime::…`:
//!
//! - `select` — the devices of the process and each thread's current device;
//! - `state` — [`DeviceState`]: one device, its present table, its queues, its names, and the
//!   errors and profiling events that name it;
//! - `data` — data actions: every change to a present table and its reference counts;
//! - `memory` — `acc_malloc`/`acc_free`/`acc_memcpy_*` on raw device memory;
//! - `waits` — async arguments, the default async queue, waits and tests;
//! - `args`, `reductions`, `launch`, `cuda` — kernel launches: arguments as the kernel sees
//!   them, reductions' private copies and combination, host chunks, CUDA kernels;
//! - `globals` — where a `routine` running inside a kernel chunk finds a file-scope variable.
//!
//! **Locking.** Each device's present table has one mutex, the only lock this module owns,
//! taken through `DeviceState::table`. A data action holds it from the lookup until its
//! synchronous copies are done, so a thread that finds data present also finds it copied in.
//! Asynchronous copies are only *enqueued* under the lock; as on a GPU, the program must wait
//! before it relies on them.
//! Queued work may take the lock too (a kernel chunk's `routine` resolving a `declare`d
//! global: `globals`), so a synchronous action waits for the queues *before* it takes the lock
//! (`Queues::drain_for`), never under it.

mod args;
mod cuda;
mod data;
mod globals;
mod launch;
mod memory;
mod reductions;
mod select;
mod state;
mod waits;

pub use args::Arg;
pub use cuda::CudaKernel;
pub use globals::kernel_global;
pub use launch::{Chunk, Geometry, HostFn};
pub use reductions::{CustomReduction, Reduction};
pub use select::{
    current, no_nvidia, not_host_kind, nvidia, nvidia_unavailable, parse_device_type, runtime,
    set_current, thread_has_device, Runtime,
};
pub use state::DeviceState;
pub use waits::{default_async, queue_sel, set_default_async, ASYNC_NOVAL, ASYNC_SYNC};

/// A data action of a clause, a routine or an update.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Copy,
    CopyIn,
    CopyOut,
    Create,
    NoCreate,
    Present,
    DevicePtr,
    Attach,
    Detach,
    Delete,
    UpdateSelf,
    UpdateDevice,
}

/// Clause modifiers and flags (`acc_rt.h`'s `ACC_RT_*` flag bits).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags(pub u32);

impl Flags {
    pub const ZERO: Flags = Flags(1);
    pub const ALWAYS_IN: Flags = Flags(2);
    pub const ALWAYS_OUT: Flags = Flags(4);
    pub const FINALIZE: Flags = Flags(8);
    pub const IF_PRESENT: Flags = Flags(16);
    /// The item is an implicit data attribute's (for profiling events only).
    pub const IMPLICIT: Flags = Flags(64);
    /// `present(p)` of a bare pointer: when the pointer itself is not present but its target
    /// is, the pointer gets a device copy attached to the target (see `Device::enter`).
    pub const POINTER_TARGET: Flags = Flags(128);
    /// With `POINTER_TARGET`, the pointer is a struct's member (`present(s.x)`): a present
    /// target is enough, and nothing is mapped (the struct's copy attaches the member).
    pub const MEMBER_TARGET: Flags = Flags(256);
    /// An attach made by a section of the pointer (`s.x[10:20]`): `bytes` is the section's
    /// offset from the pointer's target (see `Device::attach_at`).
    pub const SECTION_OFFSET: Flags = Flags(512);

    pub fn has(self, f: Flags) -> bool {
        self.0 & f.0 != 0
    }
}

#[cfg(test)]
mod tests;
