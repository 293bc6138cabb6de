//! Emission: a [`CudaKernel`] made into an `extern "C" __global__`
//! function following `acc_rt.h`'s launch convention, and a module made of
//! the prelude, the file's support code and its kernels.
//!
//! It owns how each [`Mode`] spells the partitioning vocabulary
//! (`__ACC_FIRST`, `__ACC_VFIRST`, `__ACC_WFIRST`, ...: the spreading of
//! gang, worker and vector loops over the grid), the scalar reductions'
//! identity at the start and their combine across a block at the end. It
//! must not know the body's meaning: the body, declarations and stores are
//! the front end's text, pasted in verbatim. Every macro it defines for a
//! kernel is undefined after it, so kernels do not see each other's.

use super::model::{CudaKernel, CudaParam, Mode};
use super::prelude::{functor, PRELUDE};
use super::prelude_f80::{PRELUDE_F80, PRELUDE_F80_COMPLEX};
use std::fmt::Write;

/// The whole module: the prelude (with [`PRELUDE_F80`] where the code names
/// `long double` or `LDBL_*`), the file's own
/// declarations that kernels may use (`support`: macros, types, `routine`
/// functions made `__device__`), then the kernels.
pub fn emit_module(support: &str, kernels: &[CudaKernel]) -> String {
    let mut out = String::from(PRELUDE);
    let mentions = |t: &str| {
        let words: Vec<&str> = t
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        words
            .windows(2)
            .any(|w| matches!((w[0], w[1]), ("long", "double") | ("double", "long")))
            || words
                .iter()
                .any(|w| w.starts_with("LDBL_") || w.starts_with("__acc_f80"))
    };
    if mentions(support)
        || kernels
            .iter()
            .any(|k| mentions(&k.decls) || mentions(&k.body) || mentions(&k.store))
    {
        out.push_str(PRELUDE_F80);
        out.push_str(PRELUDE_F80_COMPLEX);
    }
    out.push_str(support);
    for k in kernels {
        out.push_str(&emit_kernel(k));
    }
    out
}

/// A file's routine library: its `routine` functions (in `support`, as for
/// [`emit_module`]) without kernels, for the runtime to link into the kernels of
/// other files that call them (compiled as relocatable device code; the atomics'
/// lock is the kernels' module's).
pub fn emit_library(support: &str) -> String {
    format!(
        "#define __ACC_ROUTINE_LIBRARY 1\n{}",
        emit_module(support, &[])
    )
}

/// One kernel, following `acc_rt.h`'s CUDA launch convention.
pub fn emit_kernel(k: &CudaKernel) -> String {
    let mut out = String::new();
    signature(&mut out, k);
    locals(&mut out, k);
    let guard = gang_vocabulary(&mut out, k.mode);
    lane_vocabulary(&mut out, k.mode);
    out.push_str(&k.decls);
    let _ = writeln!(out, "  if ({guard}) {{");
    let _ = writeln!(out, "#line {} \"{}\"", k.line, k.file.replace('\\', "\\\\"));
    out.push_str(&k.body);
    out.push('\n');
    if !k.mode.every_thread() {
        out.push_str(&k.store);
    }
    out.push_str("  }\n");
    undefine_vocabulary(&mut out, k.mode);
    combine_reductions(&mut out, k);
    out.push_str("}\n");
    if !k.types.is_empty() {
        // The entry keeps its unmangled name in the namespace (`extern "C"`); this makes it
        // visible by that name in the module's scope too.
        let _ = writeln!(out, "}}\nusing {e}_types::{e};", e = k.entry);
    }
    out
}

/// The condition that picks one thread of a block.
const FIRST_THREAD: &str = "threadIdx.x == 0 && threadIdx.y == 0";

/// Code that must run once per block: on its first thread, between barriers (every thread
/// must reach them): the one before, so that no thread still reads what it writes (`int old
/// = x[i];` before `x[i] = old + 1;`), the one after, so that the block sees its effects.
fn leader() -> (String, String) {
    (
        format!("__syncthreads(); if ({FIRST_THREAD}) {{"),
        "} __syncthreads();".to_string(),
    )
}

/// The comment, the namespace of the construct's own types, the value parameters' structs
/// and the entry's head, up to its opening brace.
fn signature(out: &mut String, k: &CudaKernel) {
    let _ = writeln!(out, "\n/* {}:{} */", k.file, k.line);
    if !k.types.is_empty() {
        let _ = writeln!(out, "namespace {}_types {{\n{}", k.entry, k.types);
    }
    let mut params = Vec::new();
    for (i, p) in k.params.iter().enumerate() {
        match p {
            CudaParam::Pointer => params.push(format!("void *__acc_a{i}")),
            CudaParam::Value { decl } => {
                let _ = writeln!(out, "struct {}_v{i} {{ {decl}; }};", k.entry);
                params.push(format!("struct {}_v{i} __acc_a{i}", k.entry));
            }
        }
    }
    params.push("void *const *__acc_red".into());
    params.push("long long __acc_iterations".into());
    let _ = writeln!(
        out,
        "extern \"C\" __global__ void {}({}) {{",
        k.entry,
        params.join(", ")
    );
}

/// The arrays the body reads its arguments and reduction slots through, the scalar
/// reductions' identities, and the device's lock word.
fn locals(out: &mut String, k: &CudaKernel) {
    if !k.params.is_empty() {
        let addrs: Vec<String> = (0..k.params.len())
            .map(|i| format!("(void *)&__acc_a{i}"))
            .collect();
        let _ = writeln!(
            out,
            "  void *const __acc_args[] = {{{}}};",
            addrs.join(", ")
        );
    }
    if !k.slot_bytes.is_empty() {
        let slots: Vec<String> = k
            .slot_bytes
            .iter()
            .enumerate()
            .map(|(j, bytes)| format!("(void *)((char *)__acc_red[{j}] + blockIdx.x * ({bytes}))"))
            .collect();
        let _ = writeln!(
            out,
            "  void *const __acc_slot[] = {{{}}};",
            slots.join(", ")
        );
    }
    if !k.reductions.is_empty() {
        // The scalar reductions' slots start at the identity, set here by each block (the
        // runtime does not preset them: see `acc_rt.h`), before any thread reads its slot.
        out.push_str("  if (threadIdx.x == 0 && threadIdx.y == 0) {");
        for r in &k.reductions {
            let _ = write!(
                out,
                " *({ty} *)__acc_slot[{j}] = __acc_identity<{ty}>({f}());",
                ty = r.ty,
                j = r.slot,
                f = functor(r.op),
            );
        }
        out.push_str(" }\n  __syncthreads();\n");
    }
    out.push_str("  (void)__acc_iterations;\n");
    // Every thread stores the same address before it can reach an atomic.
    let _ = writeln!(
        out,
        "  __acc_lock = (unsigned int *)__acc_red[{}];",
        k.slot_bytes.len()
    );
}

/// The gang vocabulary (`__ACC_FIRST`, `__ACC_STEP`, ..., `__ACC_REDUNDANT_*`) of `mode`;
/// returns the condition on the threads that run the body.
fn gang_vocabulary(out: &mut String, mode: Mode) -> String {
    let (first, step, guard) = match mode {
        Mode::Threads => (
            "((long long)blockIdx.x * blockDim.x * blockDim.y + (long long)threadIdx.y * blockDim.x + threadIdx.x)",
            "((long long)gridDim.x * blockDim.x * blockDim.y)",
            "1".to_string(),
        ),
        Mode::Blocks => (
            "(long long)blockIdx.x",
            "(long long)gridDim.x",
            FIRST_THREAD.to_string(),
        ),
        Mode::Single => ("0LL", "1LL", format!("blockIdx.x == 0 && {FIRST_THREAD}")),
        Mode::Lanes | Mode::Rows => {
            ("(long long)blockIdx.x", "(long long)gridDim.x", "1".to_string())
        }
    };
    let _ = writeln!(
        out,
        "#define __ACC_FIRST(t) {first}\n#define __ACC_END(t) (t)\n#define __ACC_STEP {step}\n\
         #define __ACC_ROUNDS(t) 1LL\n#define __ACC_BLOCK(t, r) 0LL\n\
         #define __ACC_BFIRST(t, b) __ACC_FIRST(t)\n#define __ACC_BEND(t, b) (t)"
    );
    // Gang-redundant statements that must run once per gang: on the block's first thread,
    // then a barrier so the block sees their effects (every thread reaches it: they stand at
    // the top level of the region). Blocks and single kernels run on one thread anyway.
    let (begin, end) = if mode.every_thread() {
        leader()
    } else {
        ("{".to_string(), "}".to_string())
    };
    let _ = writeln!(
        out,
        "#define __ACC_REDUNDANT_BEGIN {begin}\n#define __ACC_REDUNDANT_END {end}"
    );
    guard
}

/// The worker/vector vocabulary: spread over the block in `Lanes` and `Rows` (and in `Rows`
/// the row vocabulary, workers over `threadIdx.y` and vectors over `threadIdx.x`), in order
/// elsewhere.
fn lane_vocabulary(out: &mut String, mode: Mode) {
    let lanes = matches!(mode, Mode::Lanes | Mode::Rows);
    if lanes {
        let leader = leader();
        let _ = writeln!(
            out,
            "#define __ACC_VFIRST(t) ((long long)threadIdx.y * blockDim.x + threadIdx.x)\n\
             #define __ACC_VEND(t) (t)\n\
             #define __ACC_VSTEP ((long long)blockDim.x * blockDim.y)\n\
             #define __ACC_VSYNC __syncthreads();\n\
             #define __ACC_VRED_BEGIN(save, fresh) {{ save; {{ fresh;\n\
             #define __ACC_VRED_END(combine, restore) combine; }} restore; }}\n\
             #define __ACC_VSINGLE_BEGIN {}\n#define __ACC_VSINGLE_END {}",
            leader.0, leader.1
        );
    } else {
        let _ = writeln!(
            out,
            "#define __ACC_VFIRST(t) 0LL\n#define __ACC_VEND(t) (t)\n#define __ACC_VSTEP 1LL\n\
             #define __ACC_VSYNC\n\
             #define __ACC_VRED_BEGIN(save, fresh) {{{{\n\
             #define __ACC_VRED_END(combine, restore) }}}}\n\
             #define __ACC_VSINGLE_BEGIN {{\n#define __ACC_VSINGLE_END }}"
        );
    }
    if mode == Mode::Rows {
        // Rows must lie within a warp unless the block is one row (see `Mode::Rows`); the
        // runtime launches them so, and anything else would deadlock or race.
        out.push_str(
            "  if (blockDim.y > 1 && 32 % blockDim.x != 0) __trap();\n\
             #define __ACC_WFIRST(t) ((long long)threadIdx.y)\n\
             #define __ACC_WEND(t) (t)\n\
             #define __ACC_WSTEP ((long long)blockDim.y)\n\
             #define __ACC_WSYNC __syncthreads();\n\
             #define __ACC_WRED_BEGIN(save, fresh) { save; { fresh;\n\
             #define __ACC_WRED_END(combine, restore) combine; } restore; }\n\
             #define __ACC_XFIRST(t) ((long long)threadIdx.x)\n\
             #define __ACC_XEND(t) (t)\n\
             #define __ACC_XSTEP ((long long)blockDim.x)\n\
             #define __ACC_XSYNC __acc_row_sync();\n\
             #define __ACC_XRED_BEGIN(save, fresh) { save; { fresh;\n\
             #define __ACC_XRED_END(combine, restore) combine; } restore; }\n\
             #define __ACC_XSINGLE_BEGIN __acc_row_sync(); if (threadIdx.x == 0) {\n\
             #define __ACC_XSINGLE_END } __acc_row_sync();\n",
        );
    }
}

/// Undefines what [`gang_vocabulary`] and [`lane_vocabulary`] defined.
fn undefine_vocabulary(out: &mut String, mode: Mode) {
    out.push_str(
        "#undef __ACC_FIRST\n#undef __ACC_END\n#undef __ACC_STEP\n\
         #undef __ACC_ROUNDS\n#undef __ACC_BLOCK\n#undef __ACC_BFIRST\n#undef __ACC_BEND\n\
         #undef __ACC_REDUNDANT_BEGIN\n#undef __ACC_REDUNDANT_END\n\
         #undef __ACC_VFIRST\n#undef __ACC_VEND\n#undef __ACC_VSTEP\n#undef __ACC_VSYNC\n\
         #undef __ACC_VRED_BEGIN\n#undef __ACC_VRED_END\n\
         #undef __ACC_VSINGLE_BEGIN\n#undef __ACC_VSINGLE_END\n",
    );
    if mode == Mode::Rows {
        out.push_str(
            "#undef __ACC_WFIRST\n#undef __ACC_WEND\n#undef __ACC_WSTEP\n#undef __ACC_WSYNC\n\
             #undef __ACC_WRED_BEGIN\n#undef __ACC_WRED_END\n\
             #undef __ACC_XFIRST\n#undef __ACC_XEND\n#undef __ACC_XSTEP\n#undef __ACC_XSYNC\n\
             #undef __ACC_XRED_BEGIN\n#undef __ACC_XRED_END\n\
             #undef __ACC_XSINGLE_BEGIN\n#undef __ACC_XSINGLE_END\n",
        );
    }
}

/// The gang reductions' combine in every-thread modes: the block's threads' copies combined
/// (`__acc_block_reduce`), then the block's first thread folds the result into its slot.
fn combine_reductions(out: &mut String, k: &CudaKernel) {
    if !k.mode.every_thread() {
        return;
    }
    for r in &k.reductions {
        let _ = writeln!(
            out,
            "  {{ const {ty} __acc_all = __acc_block_reduce<{ty}>({var}, {f}()); \
             if ({FIRST_THREAD}) *({ty} *)__acc_slot[{j}] = {f}()(*({ty} *)__acc_slot[{j}], __acc_all); }}",
            ty = r.ty,
            var = r.var,
            j = r.slot,
            f = functor(r.op),
        );
    }
}
