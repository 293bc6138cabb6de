//! `acc`: OpenACC for Rust users.
//!
//! This is the one crate a Rust program depends on. It re-exports the
//! runtime's Rust API (and, once the Rust front end lands, the
//! `#[acc::parallel]` family of macros). It owns no logic of its own: the
//! mapping rules live in `acc-engine`, execution in `acc-runtime`.

pub use acc_runtime as runtime;
