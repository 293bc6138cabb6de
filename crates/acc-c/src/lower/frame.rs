//! A kernel's frame: what the host side of a compute construct gathers, piece by piece, for
//! its kernel function, its CUDA version and its launch ([`Frame`]), and a private section's
//! plan. Plain data that the pieces (`host`, `privates`, `reduction`) fill in.
//!
//! It must not compute anything itself.

use super::*;

/// A kernel argument: kind, address expression, byte count, text literal.
pub(super) fn arg(kind: &str, addr: String, bytes: &str, text: &str) -> [String; 4] {
    [kind.into(), addr, bytes.into(), text.into()]
}

/// What [`Lowerer::kernel`] gathers for one compute construct, piece by piece, in the order
/// the pieces run: an argument's index is where it was pushed.
#[derive(Default)]
pub(super) struct Frame {
    /// The construct's number: `__acc_kernel{n}`, `__acc_d{n}`, …
    pub(super) n: usize,
    /// The arguments: kind, address, bytes, text (see [`arg`]).
    pub(super) args: Vec<[String; 4]>,
    /// The CUDA version's parameters, one per argument.
    pub(super) cuda_params: Vec<CudaParam>,
    pub(super) cuda_reds: Vec<CudaReduction>,
    pub(super) cuda_slot_bytes: Vec<String>,
    /// A CUDA block must be one gang, reduced by its first thread.
    pub(super) cuda_blocks: bool,
    /// Values the host computes where the launch is, passed after the parameters.
    pub(super) offsets: Vec<String>,
    /// Their declarations (and the private sections' extents), ahead of the launch.
    pub(super) offset_decls: String,
    /// The kernel function's declarations, ahead of its body.
    pub(super) decls: CWriter,
    /// Private sections met (variable, item, `firstprivate`), then their plans.
    pub(super) sections: Vec<(VarId, VarItem, bool)>,
    pub(super) section_plans: Vec<SectionPlan>,
    /// The reductions as the runtime's tables take them: op, type, address, text, count,
    /// size, init, combine.
    pub(super) reds: Vec<[String; 8]>,
    /// The stores of the reductions' gang copies, at the kernel's end.
    pub(super) red_store: CWriter,
    /// The function's own types the kernel repeats, and the typedefs it marks used.
    pub(super) local_types: CWriter,
    pub(super) typedefs_used: String,
    /// The CUDA kernel's settings of the routines' file-scope pointers.
    pub(super) bind_globals: CWriter,
    /// Arrays the body reaches through a macro's text, each made a macro of its name for the
    /// body (see `host::macro_alias`): `#undef`ined after it.
    pub(super) alias_macros: Vec<String>,
}

/// Each gang's copy of a private section: the storage the runtime makes for the launch, and
/// where the copy's size (`jb`) and the section's offset from the pointer (`jl`) are among
/// the arguments.
pub(super) struct SectionPlan {
    pub(super) var: VarId,
    pub(super) name: String,
    /// `firstprivate`: the copy starts as the section.
    pub(super) first: bool,
    pub(super) start: String,
    pub(super) bytes: String,
    pub(super) jb: usize,
    pub(super) jl: usize,
    pub(super) text: String,
}

impl Frame {
    /// The frame of kernel `n`: its declarations one level into the kernel function.
    pub(super) fn new(n: usize) -> Frame {
        Frame {
            n,
            decls: CWriter::at(1),
            red_store: CWriter::at(1),
            local_types: CWriter::at(1),
            bind_globals: CWriter::at(1),
            alias_macros: Vec::new(),
            ..Frame::default()
        }
    }
}
