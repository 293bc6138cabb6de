//! acc-engine: the OpenACC mapping engine shared by every front end.
//!
//! It owns the meaning of OpenACC: the directive model (text in, typed
//! constructs with spans out), the checks and their diagnostics, the data
//! attributes of every variable on every construct, the OpenMP form of the
//! Clacc mapping, the offload plan that the runtime executes, and the CUDA
//! C form of a kernel (`cuda`: text for NVRTC, from pieces a front end
//! lowered).
//!
//! It must not do I/O and knows nothing of tree-sitter, syn, C compilers or
//! CUDA drivers: a front end hands it text and facts, it hands back results
//! and `Vec<Diagnostic>`. Bad user input is data, never a panic.

pub mod attrs;
pub mod check;
pub mod check_clauses;
pub mod check_data;
pub mod cuda;
pub mod dependence;
pub mod diag;
pub mod directive;
pub mod facts;
pub mod omp;
pub mod plan;
pub mod span;

pub use diag::{Diagnostic, Severity};
pub use span::Span;
