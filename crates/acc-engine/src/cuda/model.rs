//! The kernel model: what a front end hands the emitter for one kernel
//! (its parameters, reduction slots, declarations, body and partitioning
//! [`Mode`]).
//!
//! Plain data, no text generation: it must not know the prelude's text or
//! how a mode is spelled in CUDA (that is `emit`'s job). The front end
//! guarantees the body is written against the vocabulary of the module
//! docs and that the mode it picks is exact for that body.

use crate::directive::ReductionOp;

/// One kernel of a CUDA module.
#[derive(Clone, Debug)]
pub struct CudaKernel {
    /// The `extern "C"` entry name.
    pub entry: String,
    /// Where the construct is, for a comment and `#line`.
    pub file: String,
    pub line: usize,
    /// One per launch argument, in order: the parameter's type and how the
    /// body reaches the value (see [`CudaParam`]).
    pub params: Vec<CudaParam>,
    /// Per reduction, in slot order: the bytes of one slot (a C expression
    /// that may read `__acc_args`).
    pub slot_bytes: Vec<String>,
    /// The scalar reductions of C's arithmetic types, whose slots the kernel
    /// sets to the operator's identity as it starts (the runtime presets only
    /// the others'); in every-thread modes also combined across the block.
    pub reductions: Vec<CudaReduction>,
    /// The types the construct's function declares for itself (C declarations), which the
    /// parameters and the body may name: the kernel and its parameters' structs go in a
    /// namespace of their own that starts with them (the `extern "C"` entry keeps its name).
    pub types: String,
    /// Declarations that read the arguments (through `__acc_args[i]`) and
    /// the reduction copies (through `__acc_slot[j]`), as the host kernel
    /// has them.
    pub decls: String,
    /// The kernel's statement.
    pub body: String,
    /// [`Mode::Blocks`] and [`Mode::Single`]: statements that store the
    /// reduction copies back into their slots, as the host kernel ends.
    pub store: String,
    pub mode: Mode,
}

/// How a kernel's threads share its work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every thread is a chunk of the gang loop; scalar reductions are
    /// combined across each block.
    Threads,
    /// Every block is a chunk, run by its first thread, which reduces
    /// straight into the block's slot: for reductions whose private copy is
    /// an array or a struct (they have no per-thread form yet).
    Blocks,
    /// Not gang-partitioned: the body runs once, on the first thread of
    /// the first block.
    Single,
    /// Every block runs one iteration of the gang loop at a time, all its
    /// threads together: the outermost worker or vector loop inside is
    /// spread over them (`__ACC_VFIRST/__ACC_VEND/__ACC_VSTEP`, worker and
    /// vector lanes as one range over `threadIdx.y`, `threadIdx.x`), its
    /// reductions combined across the block (`__ACC_VRED_BEGIN/END`), and
    /// followed by a barrier (`__ACC_VSYNC`) so the vector-single code after
    /// it sees what it wrote. The vector-single code in between runs on every
    /// thread of the block (each computes the same values), except the
    /// statements the front end marks (`__ACC_VSINGLE_BEGIN/END`: those that
    /// write shared data), which the block's first thread runs before a
    /// barrier. The front end chooses this mode only where that is exact.
    Lanes,
    /// As [`Mode::Lanes`], and a worker loop that contains vector loops is
    /// spread over the block's rows instead (`__ACC_WFIRST/__ACC_WEND/
    /// __ACC_WSTEP` over `threadIdx.y`), with the outermost vector loops in
    /// it over the lanes of a row (`__ACC_X*` over `threadIdx.x`): worker →
    /// `threadIdx.y`, vector → `threadIdx.x`, as nvc maps them. A row
    /// synchronises and reduces on its own (`__acc_row_sync`,
    /// `__acc_row_reduce`): the whole block when `blockDim.y == 1`, else a
    /// warp's lanes, so the runtime launches these kernels with rows that
    /// lie within one warp (`blockDim.x` divides 32) or a single row
    /// (`acc_rt_kernel.cuda_lanes == 2`). The worker-single code in a row
    /// runs on every lane of it, except the statements the front end marks
    /// (`__ACC_XSINGLE_BEGIN/END`), which the row's first lane runs before
    /// the row's barrier.
    Rows,
}

impl Mode {
    /// Whether every thread of the grid runs the body (combining its reductions across the
    /// block), as opposed to one thread a block.
    pub(super) fn every_thread(self) -> bool {
        matches!(self, Mode::Threads | Mode::Lanes | Mode::Rows)
    }
}

/// A kernel parameter.
#[derive(Clone, Debug)]
pub enum CudaParam {
    /// A device address (mapped data, pointers, deviceptr).
    Pointer,
    /// A value; `decl` declares a member named `v` of the value's type (as
    /// `double v` or `int v[4]`), so the parameter has the value's size and
    /// alignment.
    Value { decl: String },
}

/// A scalar reduction of a builtin type.
#[derive(Clone, Debug)]
pub struct CudaReduction {
    pub op: ReductionOp,
    /// The C type of the private copy (`double`, `unsigned long`, `_Bool`).
    pub ty: String,
    /// The private copy's name in the body.
    pub var: String,
    /// Its index among the kernel's reductions (`__acc_slot[slot]`).
    pub slot: usize,
}
