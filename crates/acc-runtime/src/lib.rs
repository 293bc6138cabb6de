//! acc-runtime: the OpenACC runtime shared by compiled C and expanded Rust.
//!
//! It knows nothing of C or Rust syntax. Layers, bottom up (like cudarc's
//! `sys → result → safe`):
//!
//! - [`device`] — the `Device` trait and the `host`, `host_discrete` and `nvidia` (CUDA)
//!   devices: memory, transfers, and an executor that runs kernels' chunks;
//! - [`jit`] — NVRTC compilation of kernels' CUDA source, with a disk cache;
//! - [`present`] — the present table with structured and dynamic reference counts;
//! - [`queue`] — async queues;
//! - [`runtime`] — the devices of the process, each thread's current device, and every data
//!   action, transfer and launch as a `Result`-returning function;
//! - [`api`] — the OpenACC 3.3 routines with their C ABI (`include/openacc.h`);
//! - [`abi`] — the entry points compiler-generated code calls (`include/acc_rt.h`);
//! - [`check`] — `acc check --run`'s checking mode (`ACC_CHECK`), called around `abi`'s and
//!   `api`'s data actions and launches; one relaxed load when off.
//!
//! Errors go through [`error`]: Rust layers return [`error::Error`]; the C ABI prints
//! `acc: error: FILE:LINE: ...` and exits 1.

pub mod abi;
pub mod api;
pub mod check;
pub mod device;
pub mod device_code;
pub mod error;
mod ffi;
pub mod jit;
pub mod nvrtc;
pub mod present;
pub mod prof;
pub mod queue;
pub mod reduce;
pub mod runtime;
pub mod rust;

/// The directory holding `openacc.h` and `acc_rt.h`, for build helpers.
pub const INCLUDE_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/include");
