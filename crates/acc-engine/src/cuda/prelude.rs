//! The prelude: fixed C++ text every CUDA module starts with (types,
//! macros and helpers NVRTC lacks, the partitioning and reduction helpers),
//! and the name of each reduction operator's functor in that text. The
//! 80-bit `long double` that modules include only where their code names
//! it is `prelude_f80`'s.
//!
//! Tables of text: this module must not know about kernels or modes. The
//! constants are pinned by acc-c's snapshot tests by name
//! (`acc_engine::cuda::PRELUDE`, ...); their text is the contract with
//! `emit` (which names `__acc_identity`, `__acc_block_reduce`, the
//! functors) and with the runtime (`acc_rt.h`).

use crate::directive::ReductionOp;

/// Declarations every module starts with: the C types and macros kernels
/// use that NVRTC (which has no system headers) lacks, and the partitioning
/// vocabulary of the module docs. The text lives in `prelude/*.cuh` by concern, in this order
/// (later parts use the earlier ones' types and macros).
pub const PRELUDE: &str = concat!(
    include_str!("prelude/c_library.cuh"),
    include_str!("prelude/atomics_and_arrays.cuh"),
    include_str!("prelude/complex.cuh"),
    include_str!("prelude/reductions.cuh"),
);

/// The names the prelude defines as macros (C's library macros, and C's math functions as
/// their C signatures): a file that defines a function of one of these names
/// (`double fmax(double, double)` of its own) needs the macro out of the way of its routine.
pub fn macro_names() -> impl Iterator<Item = &'static str> {
    PRELUDE.lines().filter_map(|line| {
        let rest = line.strip_prefix("#define ")?;
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        Some(&rest[..end]).filter(|name| !name.is_empty())
    })
}

/// The prelude's functor of a reduction operator (`__acc_add`, ...).
pub fn functor(op: ReductionOp) -> &'static str {
    match op {
        ReductionOp::Add => "__acc_add",
        ReductionOp::Mul => "__acc_mul",
        ReductionOp::Max => "__acc_max",
        ReductionOp::Min => "__acc_min",
        ReductionOp::BitAnd => "__acc_bitand",
        ReductionOp::BitOr => "__acc_bitor",
        ReductionOp::BitXor => "__acc_bitxor",
        ReductionOp::LogAnd => "__acc_and",
        ReductionOp::LogOr => "__acc_or",
    }
}
