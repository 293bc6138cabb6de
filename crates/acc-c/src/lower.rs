//! Lowering OpenACC C to host C that calls the runtime (`acc_rt.h`).
//!
//! Each compute construct is outlined into a kernel function, as
//! `sotoc-target-codegen.md` describes: the variables it uses become
//! parameters (the device copy of shared data, a translated pointer, or a
//! per-gang copy of a `firstprivate` value), its gang-partitioned loops are
//! split across the runtime's chunks (one chunk per gang), and reductions
//! across gangs go through the runtime's per-chunk slots. Data directives
//! become runtime calls; a data region ends through a `cleanup` attribute,
//! so a `return` or `break` out of it still ends it. The output is the
//! original text with edits plus the kernels at the end, with `#line`
//! directives so the C compiler's messages point at the user's file.
//!
//! On the CPU devices the levels below gang (worker, vector) run inside a
//! chunk, sequentially, where the C compiler vectorizes what it can.

use std::fmt::Write;

use acc_engine::attrs::EffKind;
use acc_engine::cuda::{CudaKernel, CudaParam, CudaReduction, Mode as CudaMode};
use acc_engine::directive::{
    Accessor, ClauseArgs, ClauseKind, DirectiveKind, ReductionOp, VarItem,
};
use acc_engine::facts::{Cmp, ConstructId, LoopHeader, ScalarType, Unit, VarId};
use acc_engine::plan::{Action, ConstructPlan, DataItem, KernelPlan, LoopPlan, Pass};
use acc_engine::{Diagnostic, Span};

use crate::types::TypeEnv;

/// Options of the lowering.
#[derive(Clone, Debug, Default)]
pub struct LowerOptions {
    /// The name used in messages and `#line` directives (the user's path).
    pub file_name: String,
}

/// The generated C for one file.
#[derive(Clone, Debug)]
pub struct Lowered {
    /// Host C: the user's code with directives replaced by runtime calls,
    /// and the kernels' host functions.
    pub host_c: String,
    /// What `acc cc --info` prints: `line: how the construct was mapped`.
    pub info: Vec<String>,
    /// The CUDA module of the file's kernels (that have a CUDA form), as
    /// `host_c` embeds it for the runtime; `None` when there is none.
    pub cuda_c: Option<String>,
    /// The pieces `host_c` is made of, for [`Lowered::split`].
    pub(crate) parts: crate::split::Parts,
}

/// Lowers one file. `None` when there are errors (in the diagnostics).
pub fn lower_file(
    src: &str,
    headers: TypeEnv,
    opts: &LowerOptions,
) -> (Option<Lowered>, Vec<Diagnostic>) {
    let items = headers.header_items.clone();
    lower_analysis(src, crate::analyze_for(src, headers, None), opts, &items)
}

/// As [`lower_file`], asking for header facts only when the file itself
/// does not say enough: when a variable that a construct uses has a type
/// name the file does not define. Running the preprocessor and reading
/// every header costs more than the rest of `acc cc` together, and most
/// files do not need it.
pub fn lower_file_lazy(
    src: &str,
    headers: &mut dyn FnMut() -> Result<TypeEnv, String>,
    opts: &LowerOptions,
) -> Result<(Option<Lowered>, Vec<Diagnostic>), String> {
    let mut analysis = crate::analyze_for(src, TypeEnv::default(), None);
    let unknown_type = analysis
        .diags
        .iter()
        .any(|d| d.message.starts_with(crate::sema::UNKNOWN_TYPE));
    // A header of the program's own may declare what a construct uses (a global, a type, a
    // macro its CUDA version needs): read the headers through the preprocessor then too.
    let has_compute = analysis
        .unit
        .constructs
        .iter()
        .any(|c| c.directive.kind.is_compute());
    let mut header_items = Vec::new();
    if unknown_type || (has_compute && includes_program_header(src)) {
        let env = headers()?;
        header_items = env.header_items.clone();
        analysis = crate::analyze_for(src, env, None);
    }
    Ok(lower_analysis(src, analysis, opts, &header_items))
}

/// Whether the file includes a header with `#include "…"`, the form for a program's own.
fn includes_program_header(src: &str) -> bool {
    src.lines().any(|l| {
        let l = l.trim_start();
        l.strip_prefix('#')
            .map(str::trim_start)
            .and_then(|l| l.strip_prefix("include"))
            .is_some_and(|l| l.trim_start().starts_with('"'))
    })
}

fn lower_analysis(
    src: &str,
    analysis: crate::Analysis,
    opts: &LowerOptions,
    header_items: &[crate::types::HeaderItem],
) -> (Option<Lowered>, Vec<Diagnostic>) {
    let mut diags = analysis.diags;
    if diags.iter().any(|d| d.is_error()) {
        return (None, diags);
    }
    let plans = acc_engine::plan::plan(&analysis.unit, &analysis.attrs);
    let mut lw = Lowerer {
        src,
        unit: &analysis.unit,
        plans: &plans,
        file: c_string(&opts.file_name),
        edits: Vec::new(),
        kernels: String::new(),
        prototypes: String::new(),
        diags: Vec::new(),
        info: Vec::new(),
        counter: 0,
        renames: Vec::new(),
        lanes: None,
        routine_globals: Vec::new(),
        cuda_kernels: Vec::new(),
        atomics: Vec::new(),
    };
    // The `declare`d file-scope variables: routines reach them through the runtime on the CPU
    // devices, and through device pointers in the CUDA module.
    let unit = lw.unit;
    let declared: Vec<String> = unit
        .constructs
        .iter()
        .filter(|c| c.directive.kind == DirectiveKind::Declare)
        .flat_map(|c| c.clause_vars.iter().flatten().flatten())
        .filter(|&&v| unit.var(v).is_global)
        .map(|&v| unit.var(v).name.clone())
        .collect();
    let bound = crate::cuda::routine_globals(src);
    for g in bound.iter().filter(|g| declared.contains(&g.name)) {
        for at in &g.uses {
            lw.edits.push(Edit {
                start: at.start,
                end: at.end,
                text: format!(
                    "(*(__typeof__(&{g}))acc_rt_global((void *)&{g}))",
                    g = g.name
                ),
                order: 0,
                line_after: false,
            });
        }
    }
    lw.routine_globals = bound.iter().map(|g| g.name.clone()).collect();
    lw.run();
    lw.warn_mixed_atomics();
    // An item's extent is read for each use of it (the data actions, the kernel's arguments):
    // one report of what is wrong with it.
    for d in std::mem::take(&mut lw.diags) {
        if !diags.contains(&d) {
            diags.push(d);
        }
    }
    if diags.iter().any(|d| d.is_error()) {
        return (None, diags);
    }
    // One CUDA module per file: the runtime compiles it once, on the first
    // launch of any of its kernels on a GPU.
    let cuda_c = if lw.cuda_kernels.is_empty() {
        None
    } else {
        match crate::cuda::support(src, &opts.file_name, &declared, &bound) {
            Ok(support) => {
                // What the program's headers define that the module uses, ahead of the rest.
                let used = acc_engine::cuda::emit_module(&support, &lw.cuda_kernels);
                let support = crate::cuda::header_support(header_items, &used) + &support;
                Some(crate::cuda::ascii_module(&crate::cuda::cxx_types(
                    &acc_engine::cuda::emit_module(&support, &lw.cuda_kernels),
                    src.contains("<complex.h>"),
                )))
            }
            Err((line, why)) => {
                lw.info.push(format!("{line}: no CUDA version: {why}"));
                None
            }
        }
    };
    let cuda_decl = match &cuda_c {
        // ISO C only promises 4095-character literals; GCC and clang take
        // any length, and `-pedantic` users should not hear about ours.
        Some(module) => format!(
            "#pragma GCC diagnostic push\n#pragma GCC diagnostic ignored \"-Woverlength-strings\"\n\
             static const char __acc_cuda_module[] = {};\n#pragma GCC diagnostic pop\n",
            c_string(module)
        ),
        // The kernels name no CUDA source: on a GPU the runtime says so.
        None if !lw.cuda_kernels.is_empty() => "#define __acc_cuda_module 0\n".to_string(),
        None => String::new(),
    } + &crate::sites::table(lw.unit, src, &lw.file);
    let mut out = String::with_capacity(src.len() * 2);
    out.push_str(PRELUDE);
    out.push_str(&cuda_decl);
    out.push_str(&lw.prototypes);
    let _ = writeln!(out, "#line 1 {}", lw.file);
    let user_start = out.len();
    out.push_str(&apply(src, lw.edits.clone(), &lw.file));
    if !out.ends_with('\n') {
        out.push('\n');
    }
    let user = user_start..out.len();
    out.push_str(&lw.kernels);
    let parts = crate::split::Parts {
        edits: std::mem::take(&mut lw.edits),
        prototypes: std::mem::take(&mut lw.prototypes),
        user,
        kernels: std::mem::take(&mut lw.kernels),
        file: std::mem::take(&mut lw.file),
        cuda_decl,
    };
    (
        Some(Lowered {
            host_c: out,
            info: lw.info,
            cuda_c,
            parts,
        }),
        diags,
    )
}

/// What every lowered file starts with.
pub(crate) const PRELUDE: &str = r#"/* Generated by `acc cc` from OpenACC C: do not edit. */
#include <acc_rt.h>

/* A structured data region, ended by a cleanup when its block is left. */
struct __acc_region {
  const char *file;
  int line;
  const acc_rt_data *data;
  size_t n;
  int async;
  int active;
};
__attribute__((unused)) static inline void __acc_region_end(struct __acc_region *r) {
  if (r->active) acc_rt_region_end(r->file, r->line, r->data, r->n, r->async);
}
/* The trip count of a canonical loop; cmp: 0 <, 1 <=, 2 >, 3 >=, 4 !=. */
__attribute__((unused)) static inline long long __acc_trips(long long lb, long long ub, long long step, int cmp) {
  if (step == 0) return 0;
  if (cmp == 1) ub += 1, cmp = 0;
  if (cmp == 3) ub -= 1, cmp = 2;
  if (cmp == 4) cmp = step > 0 ? 0 : 2;
  if (cmp == 0) return (step > 0 && ub > lb) ? (ub - lb + step - 1) / step : 0;
  return (step < 0 && lb > ub) ? (lb - ub - step - 1) / -step : 0;
}
/* The outermost gang loop of a kernel runs iterations [__ACC_FIRST(t), __ACC_END(t)) in steps
 * of __ACC_STEP: a contiguous chunk here (the first t % count chunks one iteration longer; no
 * 128-bit arithmetic, which costs the C compiler more than the rest of a small kernel); the
 * CUDA module deals them out over its threads. */
#define __ACC_FIRST(t) \
  ((t) / __acc_chunk->count * __acc_chunk->index + \
   ((t) % __acc_chunk->count < __acc_chunk->index ? (t) % __acc_chunk->count : __acc_chunk->index))
#define __ACC_END(t) \
  (__ACC_FIRST(t) + (t) / __acc_chunk->count + (__acc_chunk->index < (t) % __acc_chunk->count))
#define __ACC_STEP 1
/* A gang loop whose iterations differ in work (a triangular nest) runs __ACC_ROUNDS(t) rounds
 * of one block each: the iterations cut into 16 blocks a chunk, dealt out in a zigzag (rounds
 * alternately forwards and backwards over the chunks), so each chunk gets early and late
 * iterations alike and the work of any linearly growing or shrinking nest evens out. The
 * CUDA module deals iterations out one at a time anyway: there it is one round. */
#define __ACC_BLOCKS(t) ((t) < __acc_chunk->count * 16 ? (t) : __acc_chunk->count * 16)
#define __ACC_ROUNDS(t) ((__ACC_BLOCKS(t) + __acc_chunk->count - 1) / __acc_chunk->count)
#define __ACC_BLOCK(t, r) \
  ((r) * __acc_chunk->count + ((r) & 1 ? __acc_chunk->count - 1 - __acc_chunk->index : __acc_chunk->index))
#define __ACC_BFIRST(t, b) \
  ((b) >= __ACC_BLOCKS(t) ? (t) \
   : (t) / __ACC_BLOCKS(t) * (b) + ((t) % __ACC_BLOCKS(t) < (b) ? (t) % __ACC_BLOCKS(t) : (b)))
#define __ACC_BEND(t, b) __ACC_BFIRST(t, (b) + 1)
/* Gang-redundant statements with effects that must happen once per gang (atomics, updates of
 * reduction variables): here a chunk is a gang, so they need nothing; the CUDA module runs
 * them on the first thread of each block. */
#define __ACC_REDUNDANT_BEGIN {
#define __ACC_REDUNDANT_END }
/* A worker or vector loop that the CUDA module spreads over a block's threads (its "lanes"
 * mode): here it runs in order, within the chunk, its reductions straight into the variable. */
#define __ACC_VFIRST(t) 0LL
#define __ACC_VEND(t) (t)
#define __ACC_VSTEP 1LL
#define __ACC_VSYNC
#define __ACC_VRED_BEGIN(save, fresh) {{
#define __ACC_VRED_END(combine, restore) }}
#define __ACC_VSINGLE_BEGIN {
#define __ACC_VSINGLE_END }
/* A worker loop with vector loops inside, which the CUDA module spreads over a block's rows
 * (threadIdx.y), and those vector loops, over a row's lanes (threadIdx.x): in order here. */
#define __ACC_WFIRST(t) 0LL
#define __ACC_WEND(t) (t)
#define __ACC_WSTEP 1LL
#define __ACC_WSYNC
#define __ACC_WRED_BEGIN(save, fresh) {{
#define __ACC_WRED_END(combine, restore) }}
#define __ACC_XFIRST(t) 0LL
#define __ACC_XEND(t) (t)
#define __ACC_XSTEP 1LL
#define __ACC_XSYNC
#define __ACC_XRED_BEGIN(save, fresh) {{
#define __ACC_XRED_END(combine, restore) }}
#define __ACC_XSINGLE_BEGIN {
#define __ACC_XSINGLE_END }
/* Atomics read as one access of one location (`x op= e`, `x = e op x` as the _R forms, their
 * captures, reads and writes): under the process-wide lock here; the CUDA module
 * compare-and-swaps the one location, or reads or writes it whole, instead. */
#define __ACC_ATOMIC(lv, op, name, e) do { acc_rt_atomic_begin(); (lv) op (e); acc_rt_atomic_end(); } while (0)
#define __ACC_ATOMIC_R(lv, op, name, e) do { acc_rt_atomic_begin(); (lv) = (e) op (lv); acc_rt_atomic_end(); } while (0)
#define __ACC_ATOMIC_READ(v, x) do { acc_rt_atomic_begin(); (v) = (x); acc_rt_atomic_end(); } while (0)
#define __ACC_ATOMIC_WRITE(x, e) do { acc_rt_atomic_begin(); (x) = (e); acc_rt_atomic_end(); } while (0)
#define __ACC_CAPTURE(v, lv, op, name, e, new) \
  do { acc_rt_atomic_begin(); if (new) { (lv) op (e); (v) = (lv); } else { (v) = (lv); (lv) op (e); } \
       acc_rt_atomic_end(); } while (0)
#define __ACC_CAPTURE_R(v, lv, op, name, e, new) \
  do { acc_rt_atomic_begin(); if (new) { (lv) = (e) op (lv); (v) = (lv); } \
       else { (v) = (lv); (lv) = (e) op (lv); } acc_rt_atomic_end(); } while (0)
"#;

/// A kernel argument: kind, address expression, byte count, text literal.
fn arg(kind: &str, addr: String, bytes: &str, text: &str) -> [String; 4] {
    [kind.into(), addr, bytes.into(), text.into()]
}

/// One data clause item as the runtime takes it.
/// How a jagged array section is mapped (see `Lowerer::jagged`).
struct JaggedRows {
    /// The address and size of the row pointers' section.
    pointers: String,
    pointer_bytes: String,
    /// The size of each row's section, and its text for messages.
    row_bytes: String,
    row_text: String,
}

struct DataEntry {
    action: &'static str,
    flags: String,
    addr: String,
    bytes: String,
    /// A C string literal.
    text: String,
}

impl DataEntry {
    /// As an `acc_rt_data` initializer.
    fn full(&self) -> String {
        format!(
            "{{{}, {}, (void *)({}), (size_t)({}), {}}}",
            self.action, self.flags, self.addr, self.bytes, self.text
        )
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Edit {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) text: String,
    /// Among edits at one place, lower goes first.
    pub(crate) order: i64,
    /// Resynchronise line numbers after this edit.
    pub(crate) line_after: bool,
}

impl Edit {
    /// Deletes `span` (a directive the lowered code has no use for).
    pub(crate) fn remove(span: Span) -> Edit {
        Edit {
            start: span.start,
            end: span.end,
            text: String::new(),
            order: 0,
            line_after: false,
        }
    }
}

/// An `atomic` construct of a kernel: where its directive is, and the variable whose location
/// its CUDA version compare-and-swaps (`None`: it takes the device lock), with the variables
/// its statement names.
struct AtomicSeen {
    directive: Span,
    line: usize,
    location: Option<VarId>,
    vars: Vec<VarId>,
}

/// Over which of a CUDA block's threads a worker/vector loop is spread (see [`Lanes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SpreadLevel {
    /// All of them (`__ACC_V*`).
    Block,
    /// The rows, `threadIdx.y` (`__ACC_W*`): a worker loop with vector loops inside.
    Rows,
    /// The lanes of a row, `threadIdx.x` (`__ACC_X*`): those vector loops.
    RowLanes,
}

/// How a kernel's CUDA version spreads worker and vector loops over a block's threads
/// (`CudaMode::Lanes`): the blocks share out the gang loops' iterations, and inside each, the
/// outermost worker or vector loops are spread over the block's threads.
struct Lanes {
    /// Those worker/vector loops.
    spread: Vec<ConstructId>,
    /// Vector-single statements that write data other threads see (array elements, variables
    /// declared outside the gang loop, atomics): run on the block's first thread.
    single: Vec<Span>,
    /// Worker loops among `spread` that contain vector loops: spread over the block's rows
    /// (`threadIdx.y`) instead, with `row_spread` over each row's lanes (`CudaMode::Rows`).
    rows: Vec<ConstructId>,
    /// The outermost vector loops inside `rows`.
    row_spread: Vec<ConstructId>,
    /// Statements of a `rows` loop's body outside its vector loops that write data other
    /// lanes see, or the worker loop's reduction variables: run on the row's first lane.
    row_single: Vec<Span>,
}

struct Lowerer<'a> {
    src: &'a str,
    unit: &'a Unit,
    plans: &'a [ConstructPlan],
    /// The file name as a C string literal.
    file: String,
    edits: Vec<Edit>,
    kernels: String,
    prototypes: String,
    diags: Vec<Diagnostic>,
    info: Vec<String>,
    counter: usize,
    /// Variables the current kernel names differently (array reductions'
    /// private copies), with the expression to use.
    renames: Vec<(VarId, String)>,
    /// The kernel being written spreads its worker/vector loops over CUDA blocks' threads.
    lanes: Option<Lanes>,
    /// The file-scope variables the file's routines use (see `crate::cuda::support`).
    routine_globals: Vec<String>,
    /// The CUDA versions of the kernels, for the file's CUDA module.
    cuda_kernels: Vec<CudaKernel>,
    /// The `atomic` constructs met in kernels, and how their CUDA versions update.
    atomics: Vec<AtomicSeen>,
}

/// `s` as a C string literal whose bytes are exactly `s`'s (its raw bytes included, see
/// [`crate::text`]), whatever they are: printable ASCII
/// as itself, newlines and tabs as `\n` and `\t`, and every other byte (a carriage return from
/// a CRLF file, UTF-8 or Latin-1 text in a comment) as a three-digit octal escape, which no
/// following character can extend. `?` is escaped after a `?`, so no trigraph forms.
fn c_string(s: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(s.len() + s.len() / 8 + 2);
    out.push('"');
    let mut prev = 0u8;
    for &b in crate::text::encode(s).iter() {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            b'?' if prev == b'?' => out.push_str("\\?"),
            b' '..=b'~' => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:03o}");
            }
        }
        prev = b;
    }
    out.push('"');
    out
}

fn line_of(src: &str, offset: usize) -> usize {
    src.as_bytes()[..offset.min(src.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The declaration text with the name replaced, e.g. `double (*p)[10]`.
fn declare_as(unit: &Unit, v: VarId, replacement: &str) -> String {
    let var = unit.var(v);
    let mut s = var.decl_text.clone();
    s.replace_range(var.decl_name.clone(), replacement);
    s
}

/// As [`declare_as`], with a variable-length array's first dimension left unbound
/// (`double (*p)[]`): a kernel function cannot name the size (a local of its caller), nor can
/// a CUDA kernel (C++) spell a variable bound; indexing is the same. (A kernel then cannot take
/// `sizeof` of the array; a variable inner dimension stays unsupported.)
fn declare_as_unbound(unit: &Unit, v: VarId, replacement: &str) -> String {
    let var = unit.var(v);
    let s = declare_as(unit, v, replacement);
    if !var.vla {
        return s;
    }
    let at = var.decl_name.start + replacement.len();
    let rest = &s[at..];
    let Some(open) = rest.find('[') else { return s };
    let mut depth = 0usize;
    for (i, c) in rest[open..].char_indices() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    return format!("{}[]{}", &s[..at + open], &rest[open + i + 1..]);
                }
            }
            _ => {}
        }
    }
    s
}

/// The identity of a reduction across a CUDA block's lanes, as CUDA C; `None` where there is
/// no lanes form (complex and `_Bool` values for `max`/`min`).
fn lane_identity(op: ReductionOp, t: ScalarType) -> Option<&'static str> {
    use ScalarType as S;
    Some(match (op, t) {
        (_, S::C32 | S::C64) => return None,
        (ReductionOp::Add | ReductionOp::BitOr | ReductionOp::BitXor | ReductionOp::LogOr, _) => {
            "0"
        }
        (ReductionOp::Mul | ReductionOp::LogAnd, _) => "1",
        (ReductionOp::BitAnd, _) => "~0",
        (ReductionOp::Max | ReductionOp::Min, S::Bool) => return None,
        (ReductionOp::Max, S::F32) => "-__int_as_float(0x7f800000)",
        (ReductionOp::Max, S::F64) => "-__longlong_as_double(0x7ff0000000000000LL)",
        (ReductionOp::Min, S::F32) => "__int_as_float(0x7f800000)",
        (ReductionOp::Min, S::F64) => "__longlong_as_double(0x7ff0000000000000LL)",
        (ReductionOp::Max, S::I8) => "(-128)",
        (ReductionOp::Max, S::I16) => "(-32768)",
        (ReductionOp::Max, S::I32) => "INT_MIN",
        (ReductionOp::Max, S::I64) => "LLONG_MIN",
        (ReductionOp::Max, S::U8 | S::U16 | S::U32 | S::U64) => "0",
        (ReductionOp::Min, S::I8) => "127",
        (ReductionOp::Min, S::I16) => "32767",
        (ReductionOp::Min, S::I32) => "INT_MAX",
        (ReductionOp::Min, S::I64) => "LLONG_MAX",
        (ReductionOp::Min, S::U8) => "255",
        (ReductionOp::Min, S::U16) => "65535",
        (ReductionOp::Min, S::U32) => "UINT_MAX",
        (ReductionOp::Min, S::U64) => "ULONG_MAX",
    })
}

/// Each item of a construct's `reduction` clauses: operator and variable; `None` when the
/// front end could not resolve one.
fn reduction_items(c: &acc_engine::facts::Construct) -> Option<Vec<(ReductionOp, VarId)>> {
    let mut out = Vec::new();
    for (ci, clause) in c.directive.clauses.iter().enumerate() {
        if let ClauseArgs::Reduction { op, items, .. } = &clause.args {
            for ii in 0..items.len() {
                out.push((*op, (*c.clause_vars.get(ci)?.get(ii)?)?));
            }
        }
    }
    Some(out)
}

/// Whether each CUDA thread has its own copy of `v` in kernel `k`: a private or
/// firstprivate variable, or a value argument.
fn per_thread(k: &KernelPlan, v: VarId) -> bool {
    k.private.contains(&v)
        || k.loops.iter().any(|l| l.private.contains(&v))
        || k.params.iter().any(|p| p.var == v && p.pass == Pass::Value)
}

/// The top-level statements of a compute region: those of its block, or its one statement
/// when that is not a block (a loop directly under `parallel`); none for a combined construct
/// (`parallel loop`), whose statement is its own loop.
fn region_statements(c: &acc_engine::facts::Construct) -> Vec<Span> {
    match c.body {
        _ if c.directive.kind.is_combined() => Vec::new(),
        Some(b) if c.statements.is_empty() => vec![b],
        _ => c.statements.clone(),
    }
}

/// Whether `text` has `word` as a whole identifier.
fn has_word(text: &str, word: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| w == word)
}

/// Puts the statement `s` between `<name>_BEGIN` and `<name>_END`, outside every other edit
/// at its ends.
fn enclose(edits: &mut Vec<Edit>, s: Span, name: &str) {
    edits.push(Edit {
        start: s.start,
        end: s.start,
        text: format!("{name}_BEGIN "),
        order: -10_000,
        line_after: false,
    });
    edits.push(Edit {
        start: s.end,
        end: s.end,
        text: format!(" {name}_END"),
        order: 10_000,
        line_after: false,
    });
}

fn red_op(op: ReductionOp) -> &'static str {
    match op {
        ReductionOp::Add => "ACC_RT_RED_ADD",
        ReductionOp::Mul => "ACC_RT_RED_MUL",
        ReductionOp::Max => "ACC_RT_RED_MAX",
        ReductionOp::Min => "ACC_RT_RED_MIN",
        ReductionOp::BitAnd => "ACC_RT_RED_BITAND",
        ReductionOp::BitOr => "ACC_RT_RED_BITOR",
        ReductionOp::BitXor => "ACC_RT_RED_BITXOR",
        ReductionOp::LogAnd => "ACC_RT_RED_AND",
        ReductionOp::LogOr => "ACC_RT_RED_OR",
    }
}

fn red_type(t: ScalarType) -> Option<&'static str> {
    Some(match t {
        ScalarType::I8 => "ACC_RT_TYPE_I8",
        ScalarType::I16 => "ACC_RT_TYPE_I16",
        ScalarType::I32 => "ACC_RT_TYPE_I32",
        ScalarType::I64 => "ACC_RT_TYPE_I64",
        ScalarType::U8 => "ACC_RT_TYPE_U8",
        ScalarType::Bool => "ACC_RT_TYPE_BOOL",
        ScalarType::U16 => "ACC_RT_TYPE_U16",
        ScalarType::U32 => "ACC_RT_TYPE_U32",
        ScalarType::U64 => "ACC_RT_TYPE_U64",
        ScalarType::F32 => "ACC_RT_TYPE_F32",
        ScalarType::F64 => "ACC_RT_TYPE_F64",
        ScalarType::C32 => "ACC_RT_TYPE_C32",
        ScalarType::C64 => "ACC_RT_TYPE_C64",
    })
}

fn cmp_code(c: Cmp) -> u8 {
    match c {
        Cmp::Lt => 0,
        Cmp::Le => 1,
        Cmp::Gt => 2,
        Cmp::Ge => 3,
        Cmp::Ne => 4,
    }
}

impl<'a> Lowerer<'a> {
    /// The whitespace before a directive on its line.
    fn indent_of(&self, span: Span) -> String {
        let line_start = self.src[..span.start].rfind('\n').map_or(0, |i| i + 1);
        self.src[line_start..span.start]
            .chars()
            .take_while(|c| c.is_whitespace())
            .collect()
    }

    fn fresh(&mut self) -> usize {
        self.counter += 1;
        self.counter
    }

    fn line(&self, span: Span) -> usize {
        line_of(self.src, span.start)
    }

    /// Is the construct inside a compute construct (so its kernel handles
    /// it)?
    fn in_kernel(&self, c: ConstructId) -> bool {
        self.unit
            .ancestors(c)
            .any(|a| self.unit.construct(a).directive.kind.is_compute())
    }

    fn run(&mut self) {
        for id in self.unit.construct_ids() {
            if self.in_kernel(id) {
                continue;
            }
            let c = self.unit.construct(id);
            let line = self.line(c.pragma_span);
            match &self.plans[id.0 as usize] {
                ConstructPlan::Kernel(k) => {
                    let info = acc_engine::plan::Info {
                        unit: self.unit,
                        plan: &self.plans[id.0 as usize],
                    };
                    self.info.push(format!("{line}: {info}"));
                    self.kernel(id, k);
                }
                ConstructPlan::Region { data, .. } => {
                    let info = acc_engine::plan::Info {
                        unit: self.unit,
                        plan: &self.plans[id.0 as usize],
                    };
                    self.info.push(format!("{line}: {info}"));
                    self.region(id, data);
                }
                ConstructPlan::Dynamic { kind, data, .. } => {
                    let info = acc_engine::plan::Info {
                        unit: self.unit,
                        plan: &self.plans[id.0 as usize],
                    };
                    self.info.push(format!("{line}: {info}"));
                    self.dynamic(id, *kind, data);
                }
                ConstructPlan::None => self.other(id),
            }
        }
    }

    fn replace(&mut self, span: Span, text: String) {
        self.edits.push(Edit {
            start: span.start,
            end: span.end,
            text,
            order: 0,
            line_after: true,
        });
    }

    fn insert(&mut self, at: usize, text: String, order: i64) {
        self.edits.push(Edit {
            start: at,
            end: at,
            text,
            order,
            line_after: true,
        });
    }

    fn clause_expr(&self, id: ConstructId, kind: ClauseKind) -> Option<&'a str> {
        let d = &self.unit.construct(id).directive;
        d.clauses
            .iter()
            .find(|c| c.kind == kind)
            .and_then(|c| match &c.args {
                ClauseArgs::Expr(e) => Some(e.text.as_str()),
                ClauseArgs::Exprs(es) => es.first().map(|e| e.text.as_str()),
                _ => None,
            })
    }

    /// `acc_async_sync`, `acc_async_noval` or the queue expression.
    fn async_arg(&self, id: ConstructId) -> String {
        let d = &self.unit.construct(id).directive;
        match d.clauses.iter().find(|c| c.kind == ClauseKind::Async) {
            None => "acc_async_sync".into(),
            Some(c) => match &c.args {
                ClauseArgs::Expr(e) => format!("({})", e.text),
                _ => "acc_async_noval".into(),
            },
        }
    }

    /// `acc_rt_wait` for a `wait` clause, if any.
    fn wait_clause(&self, id: ConstructId, line: usize) -> String {
        let d = &self.unit.construct(id).directive;
        let Some(c) = d.clauses.iter().find(|c| c.kind == ClauseKind::Wait) else {
            return String::new();
        };
        match &c.args {
            ClauseArgs::Wait(Some(w)) if !w.queues.is_empty() => {
                let qs: Vec<&str> = w.queues.iter().map(|q| q.text.as_str()).collect();
                format!(
                    "{{ const int __acc_q[] = {{{}}}; acc_rt_wait({}, {line}, __acc_q, {}, acc_async_sync); }} ",
                    qs.join(", "),
                    self.file,
                    qs.len()
                )
            }
            _ => format!("acc_rt_wait({}, {line}, 0, 0, acc_async_sync); ", self.file),
        }
    }

    /// The condition under which the device path runs (`if`, `self`).
    fn condition(&self, id: ConstructId) -> Option<String> {
        let d = &self.unit.construct(id).directive;
        let mut conds = Vec::new();
        for c in &d.clauses {
            match (c.kind, &c.args) {
                (ClauseKind::If, ClauseArgs::Expr(e)) => conds.push(format!("({})", e.text)),
                (ClauseKind::SelfClause, ClauseArgs::Expr(e))
                    if d.kind != DirectiveKind::Update =>
                {
                    conds.push(format!("!({})", e.text))
                }
                (ClauseKind::SelfClause, ClauseArgs::None) if d.kind != DirectiveKind::Update => {
                    conds.push("0".into())
                }
                _ => {}
            }
        }
        (!conds.is_empty()).then(|| conds.join(" && "))
    }

    /// `{ACTION, flags, host, bytes, "text"}` of a data item.
    fn data_entry(&mut self, d: &DataItem) -> Option<DataEntry> {
        let action = match d.action {
            Action::Copy => "ACC_RT_COPY",
            Action::Copyin => "ACC_RT_COPYIN",
            Action::Copyout => "ACC_RT_COPYOUT",
            Action::Create => "ACC_RT_CREATE",
            Action::NoCreate => "ACC_RT_NO_CREATE",
            Action::Present => "ACC_RT_PRESENT",
            Action::Deviceptr => return None,
            Action::Attach => "ACC_RT_ATTACH",
            Action::Detach => "ACC_RT_DETACH",
            Action::Delete => "ACC_RT_DELETE",
            Action::UpdateSelf => "ACC_RT_UPDATE_SELF",
            Action::UpdateDevice => "ACC_RT_UPDATE_DEVICE",
        };
        let mut flags = Vec::new();
        if d.zero {
            flags.push("ACC_RT_ZERO");
        }
        if d.finalize {
            flags.push("ACC_RT_FINALIZE");
        }
        if d.if_present {
            flags.push("ACC_RT_IF_PRESENT");
        }
        if d.implicit {
            flags.push("ACC_RT_IMPLICIT");
        }
        let flags = if flags.is_empty() {
            "0".to_string()
        } else {
            flags.join(" | ")
        };
        let name = self.unit.var(d.var).name.clone();
        let (addr, bytes, text) = match &d.item {
            None => (format!("&{name}"), format!("sizeof({name})"), name),
            Some(item) => {
                let (a, b) = self.item_extent(item, d.var)?;
                (a, b, item.text.clone())
            }
        };
        let (addr, bytes) = if matches!(d.action, Action::Attach | Action::Detach) {
            // The address of the pointer itself.
            (
                format!(
                    "&({})",
                    item_text(d.item.as_ref(), &self.unit.var(d.var).name)
                ),
                "sizeof(void *)".into(),
            )
        } else {
            (addr, bytes)
        };
        Some(DataEntry {
            action,
            flags,
            addr,
            bytes,
            text: c_string(&text),
        })
    }

    /// The start address and byte count of a list item.
    fn item_extent(&mut self, item: &VarItem, var: VarId) -> Option<(String, String)> {
        let mut prefix = item.base.name.clone();
        let mut iter = item.accessors.iter().peekable();
        while let Some(a) = iter.peek() {
            match a {
                Accessor::Member(id) => write!(prefix, ".{}", id.name).ok()?,
                Accessor::Arrow(id) => write!(prefix, "->{}", id.name).ok()?,
                Accessor::Index(e) => write!(prefix, "[{}]", e.text).ok()?,
                Accessor::Section { .. } => break,
            }
            iter.next();
        }
        let Some(Accessor::Section {
            lower,
            length,
            span,
        }) = iter.next()
        else {
            return Some((format!("&({prefix})"), format!("sizeof({prefix})")));
        };
        // Sections after the first over a pointer's target step into separate allocations
        // (`a[0:n][0:m]` with `T **a`): the extent is the row pointers' (see `jagged`).
        if let Some(j) = self.jagged(item, var) {
            return j.map(|rows| (rows.pointers, rows.pointer_bytes));
        }
        // Later sections must cover whole rows: the data stays contiguous.
        for rest in iter {
            match rest {
                Accessor::Section { lower, .. }
                    if lower.as_ref().is_none_or(|l| l.int_value() == Some(0)) => {}
                _ => {
                    self.diags.push(Diagnostic::error(
                        item.span,
                        format!("`{}` is not contiguous; only the first dimension of a subarray may be partial", item.text),
                    ));
                    return None;
                }
            }
        }
        let lo = lower
            .as_ref()
            .map_or("0".to_string(), |l| format!("({})", l.text));
        let len = match length {
            Some(l) => format!("({})", l.text),
            None => {
                let shape = self.unit.var(var).shape;
                if shape == acc_engine::facts::Shape::Pointer || item.accessors.len() > 1 {
                    self.diags.push(Diagnostic::error(
                        *span,
                        format!(
                            "the length of `{}` is unknown; write it, as in `{}[lo:len]`",
                            item.text, prefix
                        ),
                    ));
                    return None;
                }
                format!("(sizeof({prefix}) / sizeof(({prefix})[0]) - {lo})")
            }
        };
        Some((
            format!("&({prefix})[{lo}]"),
            format!("{len} * sizeof(({prefix})[0])"),
        ))
    }

    fn data_array(&mut self, data: &[DataItem], name: &str) -> (String, usize) {
        let entries = self.data_entries(data);
        if entries.is_empty() {
            return (format!("const acc_rt_data *{name} = 0;"), 0);
        }
        let full: Vec<String> = entries.iter().map(DataEntry::full).collect();
        (
            format!("const acc_rt_data {name}[] = {{{}}};", full.join(", ")),
            entries.len(),
        )
    }

    /// As [`Self::data_array`], in the compact form (`acc_rt_region_begin_v`):
    /// a static table `{name}i` and the values `{name}v`.
    fn data_array_compact(&mut self, data: &[DataItem], name: &str) -> (String, usize) {
        let entries = self.data_entries(data);
        if entries.is_empty() {
            return (
                format!("const acc_rt_data_info *{name}i = 0; void *const *{name}v = 0;"),
                0,
            );
        }
        let info: Vec<String> = entries
            .iter()
            .map(|e| format!("{{{}, {}, {}}}", e.action, e.flags, e.text))
            .collect();
        let vals: Vec<String> = entries
            .iter()
            .map(|e| format!("(void *)({}), (void *)(size_t)({})", e.addr, e.bytes))
            .collect();
        (
            format!(
                "static const acc_rt_data_info {name}i[] = {{{}}}; void *const {name}v[] = {{{}}};",
                info.join(", "),
                vals.join(", ")
            ),
            entries.len(),
        )
    }

    /// A section of a jagged array (`a[lo:n][0:m]` where `a` points to pointers, or is an
    /// array of them): `Some(Some(rows))` when acc maps it (the row pointers, each row, and
    /// the device's row pointers attached to the device's rows; the runtime expands an item
    /// flagged `ACC_RT_ROWS`), `Some(None)` when it cannot (said in a diagnostic), `None` when
    /// the item is no such section.
    fn jagged(&mut self, item: &VarItem, var: VarId) -> Option<Option<JaggedRows>> {
        let sections: Vec<(
            Option<&acc_engine::directive::Expr>,
            Option<&acc_engine::directive::Expr>,
        )> = item
            .accessors
            .iter()
            .filter_map(|a| match a {
                Accessor::Section { lower, length, .. } => Some((lower.as_ref(), length.as_ref())),
                _ => None,
            })
            .collect();
        if sections.len() < 2 {
            return None;
        }
        let v = self.unit.var(var);
        let stars = v.decl_text[..v.decl_name.start].matches('*').count()
            + v.decl_text[v.decl_name.end..].matches('*').count();
        let levels = stars + usize::from(v.shape == acc_engine::facts::Shape::Array);
        if levels < 2 || stars == 0 {
            return None;
        }
        let name = item.base.name.clone();
        let fail = |this: &mut Self, why: &str| {
            this.diags.push(
                Diagnostic::error(
                    item.span,
                    format!(
                        "`{}` spans rows that are separate allocations (`{name}` points to pointers): {why}",
                        item.text
                    ),
                )
                .with_note(format!(
                    "map the row pointers and each row (`{name}[0:n]`, then `{name}[i][0:m]` for each i, with `enter data` in a loop), or keep the data in one allocation"
                )),
            );
            Some(None)
        };
        let plain = item.accessors.len() == 2 && sections.len() == 2;
        if !plain {
            return fail(
                self,
                "acc maps two levels, `a[lo:n][0:m]`, of a variable itself",
            );
        }
        let (lo1, len1) = sections[0];
        let (lo2, len2) = sections[1];
        if lo2.is_some_and(|l| l.int_value() != Some(0)) {
            return fail(
                self,
                "the rows' section must start at 0, where each row pointer points",
            );
        }
        let (Some(len1), Some(len2)) = (len1, len2) else {
            return fail(self, "give both lengths, as in `a[0:n][0:m]`");
        };
        let lo1 = lo1.map_or("0".to_string(), |l| format!("({})", l.text));
        Some(Some(JaggedRows {
            pointers: format!("&({name})[{lo1}]"),
            pointer_bytes: format!("({}) * sizeof(({name})[0])", len1.text),
            row_bytes: format!("({}) * sizeof(({name})[0][0])", len2.text),
            row_text: format!("{name}[i][0:{}]", len2.text),
        }))
    }

    fn data_entries(&mut self, data: &[DataItem]) -> Vec<DataEntry> {
        let mut entries: Vec<DataEntry> = Vec::new();
        for d in data {
            let Some(mut entry) = self.data_entry(d) else {
                continue;
            };
            let rows = d
                .item
                .as_ref()
                .and_then(|i| self.jagged(i, d.var))
                .flatten();
            if let Some(rows) = rows {
                // The row pointers, then the rows' descriptor: each row's bytes.
                entry.flags = if entry.flags == "0" {
                    "ACC_RT_ROWS".into()
                } else {
                    format!("{} | ACC_RT_ROWS", entry.flags)
                };
                let row = DataEntry {
                    action: entry.action,
                    flags: "0".into(),
                    addr: "0".into(),
                    bytes: rows.row_bytes,
                    text: c_string(&rows.row_text),
                };
                entries.push(entry);
                entries.push(row);
                continue;
            }
            // A section of a struct's pointer member (`s.p[0:n]`) also
            // attaches the member's device copy to it, when the struct is
            // on the device (OpenACC 2.6+); leaving detaches it first.
            let attach = d.item.as_ref().and_then(member_pointer).map(|p| {
                let entry = |action| DataEntry {
                    action,
                    flags: "ACC_RT_IF_PRESENT".into(),
                    addr: format!("&({p})"),
                    bytes: "sizeof(void *)".into(),
                    text: c_string(&p),
                };
                (entry("ACC_RT_ATTACH"), entry("ACC_RT_DETACH"))
            });
            match (attach, d.action) {
                (
                    Some((att, _)),
                    Action::Copy
                    | Action::Copyin
                    | Action::Create
                    | Action::Present
                    | Action::NoCreate,
                ) => {
                    entries.push(entry);
                    entries.push(att);
                }
                (Some((_, det)), Action::Copyout | Action::Delete) => {
                    entries.push(det);
                    entries.push(entry);
                }
                _ => entries.push(entry),
            }
        }
        entries
    }

    fn region(&mut self, id: ConstructId, data: &[DataItem]) {
        let c = self.unit.construct(id);
        let line = self.line(c.pragma_span);
        let n = self.fresh();
        let (array, count) = self.data_array(data, &format!("__acc_d{n}"));
        let cond = self.condition(id).unwrap_or_else(|| "1".into());
        let is_declare = c.directive.kind == DirectiveKind::Declare;
        let asy = self.async_arg(id);
        let wait = self.wait_clause(id, line);
        if c.directive.kind == DirectiveKind::HostData {
            self.host_data(id);
            return;
        }
        let open = format!(
            "{} {wait}{array} struct __acc_region __acc_r{n} __attribute__((cleanup(__acc_region_end))) = {{{}, {line}, __acc_d{n}, {count}, {asy}, {cond}}}; if (__acc_r{n}.active) acc_rt_region_begin({}, {line}, __acc_d{n}, {count}, {asy});",
            if is_declare { "" } else { "{" },
            self.file,
            self.file
        );
        let indent = self.indent_of(c.pragma_span);
        self.replace(c.pragma_span, one_statement_a_line(&open, &indent));
        if !is_declare {
            if let Some(body) = c.body {
                self.insert(
                    body.end,
                    " }".into(),
                    -(self.unit.ancestors(id).count() as i64),
                );
            }
        }
    }

    fn host_data(&mut self, id: ConstructId) {
        let c = self.unit.construct(id);
        let line = self.line(c.pragma_span);
        let if_present = c.directive.has(ClauseKind::IfPresent) as i32;
        let cond = self.condition(id).unwrap_or_else(|| "1".into());
        let mut open = String::from("{ ");
        let mut inner = String::from("{ ");
        for (ci, clause) in c.directive.clauses.iter().enumerate() {
            if clause.kind != ClauseKind::UseDevice {
                continue;
            }
            for (ii, item) in acc_engine::attrs::clause_items(&clause.args)
                .iter()
                .enumerate()
            {
                let Some(Some(v)) = c.clause_vars.get(ci).and_then(|x| x.get(ii)) else {
                    continue;
                };
                let var = self.unit.var(*v);
                if var.shape != acc_engine::facts::Shape::Pointer {
                    self.diags.push(Diagnostic::error(
                        item.span,
                        format!("`use_device({})` of a non-pointer is not supported yet; use a pointer to its data", item.text),
                    ));
                    continue;
                }
                let n = self.fresh();
                // `if(false)`: the host address, unchanged.
                let _ = write!(
                    open,
                    "void *__acc_ud{n} = ({cond}) ? acc_rt_use_device({}, {line}, (void *)({}), {}, {if_present}) : (void *)({}); ",
                    self.file,
                    var.name,
                    c_string(&item.text),
                    var.name
                );
                let _ = write!(
                    inner,
                    "{} = ({})__acc_ud{n}; ",
                    declare_as(self.unit, *v, &var.name),
                    declare_as(self.unit, *v, "")
                );
            }
        }
        self.replace(c.pragma_span, format!("{open}{inner}"));
        if let Some(body) = c.body {
            self.insert(
                body.end,
                " } }".into(),
                -(self.unit.ancestors(id).count() as i64),
            );
        }
    }

    fn dynamic(&mut self, id: ConstructId, kind: EffKind, data: &[DataItem]) {
        let c = self.unit.construct(id);
        let line = self.line(c.pragma_span);
        let n = self.fresh();
        let (array, count) = self.data_array(data, &format!("__acc_d{n}"));
        let asy = self.async_arg(id);
        let wait = self.wait_clause(id, line);
        let call = match kind {
            EffKind::EnterData => "acc_rt_enter_data",
            EffKind::ExitData => "acc_rt_exit_data",
            EffKind::Update => "acc_rt_update",
            _ => {
                // File-scope `declare`: the data lives as long as the
                // program, entered before `main` runs.
                let text = format!(
                    "__attribute__((constructor)) static void __acc_declare{n}(void) {{ {array} acc_rt_enter_data({}, {line}, __acc_d{n}, {count}, acc_async_sync); }}",
                    self.file
                );
                let indent = self.indent_of(c.pragma_span);
                self.replace(c.pragma_span, one_statement_a_line(&text, &indent));
                return;
            }
        };
        let body = format!(
            "{wait}{array} {call}({}, {line}, __acc_d{n}, {count}, {asy});",
            self.file
        );
        let text = match self.condition(id) {
            Some(cond) => format!("if ({cond}) {{ {body} }}"),
            None => format!("{{ {body} }}"),
        };
        let indent = self.indent_of(c.pragma_span);
        self.replace(c.pragma_span, one_statement_a_line(&text, &indent));
    }

    fn other(&mut self, id: ConstructId) {
        let c = self.unit.construct(id);
        let line = self.line(c.pragma_span);
        let d = &c.directive;
        let text = match d.kind {
            DirectiveKind::Wait => {
                let asy = self.async_arg(id);
                match &d.arg {
                    Some(acc_engine::directive::DirectiveArg::Wait(w)) if !w.queues.is_empty() => {
                        let qs: Vec<&str> = w.queues.iter().map(|q| q.text.as_str()).collect();
                        format!(
                            "{{ const int __acc_q[] = {{{}}}; acc_rt_wait({}, {line}, __acc_q, {}, {asy}); }}",
                            qs.join(", "),
                            self.file,
                            qs.len()
                        )
                    }
                    _ => format!("acc_rt_wait({}, {line}, 0, 0, {asy});", self.file),
                }
            }
            DirectiveKind::Init | DirectiveKind::Shutdown => {
                let f = if d.kind == DirectiveKind::Init {
                    "acc_init"
                } else {
                    "acc_shutdown"
                };
                format!("{f}({});", self.device_type(id))
            }
            DirectiveKind::Set => {
                let mut s = String::new();
                if let Some(n) = self.clause_expr(id, ClauseKind::DeviceNum) {
                    let _ = write!(s, "acc_set_device_num(({n}), {});", self.device_type(id));
                } else if d.has(ClauseKind::DeviceType) {
                    let _ = write!(s, "acc_set_device_type({});", self.device_type(id));
                }
                if let Some(q) = self.clause_expr(id, ClauseKind::DefaultAsync) {
                    let _ = write!(s, " acc_set_default_async({q});");
                }
                s
            }
            DirectiveKind::Atomic => {
                // Outside a kernel only the host runs it, but other host
                // threads may too.
                if let Some(body) = c.body {
                    self.insert(body.end, " acc_rt_atomic_end(); }".into(), 0);
                }
                "{ acc_rt_atomic_begin();".into()
            }
            DirectiveKind::Loop => {
                // An orphaned loop (in a `routine`): on the CPU devices it
                // runs inside its caller's chunk, sequentially.
                String::new()
            }
            _ => String::new(),
        };
        // `init`, `shutdown` and `set` take an `if` clause.
        let text = match self.condition(id) {
            Some(cond)
                if matches!(
                    d.kind,
                    DirectiveKind::Init | DirectiveKind::Shutdown | DirectiveKind::Set
                ) =>
            {
                format!("if ({cond}) {{ {text} }}")
            }
            _ => text,
        };
        self.replace(c.pragma_span, text);
    }

    fn device_type(&self, id: ConstructId) -> String {
        let d = &self.unit.construct(id).directive;
        let names = d.clauses.iter().find_map(|c| match &c.args {
            ClauseArgs::DeviceTypes(ids) if c.kind == ClauseKind::DeviceType => Some(ids),
            _ => None,
        });
        match names.and_then(|n| n.first()).map(|i| i.name.as_str()) {
            Some("host") => "acc_device_host".into(),
            Some("nvidia") => "acc_device_nvidia".into(),
            Some("host_discrete") => "acc_device_host_discrete".into(),
            Some("default") => "acc_device_default".into(),
            _ => "acc_get_device_type()".into(),
        }
    }

    /// Outlines a compute construct.
    fn kernel(&mut self, id: ConstructId, k: &KernelPlan) {
        let c = self.unit.construct(id);
        let Some(body) = c.body else { return };
        let line = self.line(c.pragma_span);
        let n = self.fresh();
        let fname = format!("__acc_kernel{n}");

        // Host side: data, arguments, reductions, launch.
        let (data_array, data_count) = self.data_array_compact(&k.data, &format!("__acc_d{n}"));
        let mut args = Vec::new();
        // The CUDA version's parameters, one per argument.
        let mut cuda_params = Vec::new();
        let mut cuda_reds = Vec::new();
        let mut cuda_slot_bytes = Vec::new();
        let mut cuda_blocks = false;
        let mut offsets: Vec<String> = Vec::new();
        let mut decls = String::new();
        let mut value_decls = String::new();
        let mut sections: Vec<(VarId, VarItem, bool)> = Vec::new();
        for (i, p) in k.params.iter().enumerate() {
            let var = self.unit.var(p.var);
            let name = &var.name;
            let text = c_string(name);
            match p.pass {
                Pass::Mapped => {
                    match self.probe(id, p.var) {
                        // Only part of the array is mapped: find the device
                        // copy through that part, then step back to element 0.
                        Some(probe) => {
                            let j = k.params.len() + offsets.len();
                            args.push(arg("ACC_RT_ARG_MAPPED", format!("({probe})"), "0", &text));
                            cuda_params.push(CudaParam::Pointer);
                            offsets.push(format!("(size_t)((char *)({probe}) - (char *)&{name})"));
                            let address = format!("(char *)*(void **)__acc_args[{i}] - *(const size_t *)__acc_args[{j}]");
                            decls.push_str(&self.pointer_decl(
                                declare_as_unbound(self.unit, p.var, "(*\0)"),
                                &format!("__acc_p_{name}"),
                                &address,
                            ));
                        }
                        None => {
                            args.push(arg("ACC_RT_ARG_MAPPED", format!("&{name}"), "0", &text));
                            cuda_params.push(CudaParam::Pointer);
                            let address = format!("*(void **)__acc_args[{i}]");
                            decls.push_str(&self.pointer_decl(
                                declare_as_unbound(self.unit, p.var, "(*\0)"),
                                &format!("__acc_p_{name}"),
                                &address,
                            ));
                        }
                    }
                }
                Pass::TranslatedPointer if self.probe(id, p.var).is_some() => {
                    // The pointer's target is mapped from an offset: look
                    // up that part, then step back to where it points.
                    let probe = self.probe(id, p.var).unwrap_or_default();
                    let j = k.params.len() + offsets.len();
                    args.push(arg("ACC_RT_ARG_POINTER", format!("({probe})"), "0", &text));
                    cuda_params.push(CudaParam::Pointer);
                    offsets.push(format!("(size_t)((char *)({probe}) - (char *)({name}))"));
                    let address = format!(
                        "(char *)*(void **)__acc_args[{i}] - *(const size_t *)__acc_args[{j}]"
                    );
                    decls.push_str(&self.pointer_decl(
                        declare_as(self.unit, p.var, "\0"),
                        name,
                        &address,
                    ));
                }
                Pass::TranslatedPointer | Pass::Deviceptr => {
                    let kind = if p.pass == Pass::Deviceptr {
                        "ACC_RT_ARG_DEVICEPTR"
                    } else {
                        "ACC_RT_ARG_POINTER"
                    };
                    args.push(arg(kind, name.clone(), "0", &text));
                    cuda_params.push(CudaParam::Pointer);
                    let address = format!("*(void **)__acc_args[{i}]");
                    decls.push_str(&self.pointer_decl(
                        declare_as(self.unit, p.var, "\0"),
                        name,
                        &address,
                    ));
                }
                Pass::Value => {
                    args.push(arg(
                        "ACC_RT_ARG_VALUE",
                        format!("&{name}"),
                        &format!("sizeof({name})"),
                        &text,
                    ));
                    cuda_params.push(CudaParam::Value {
                        decl: declare_as(self.unit, p.var, "v"),
                    });
                    if let Some((item, true)) = self.private_section(id, p.var) {
                        // Declared below, as the gang's copy of the section.
                        sections.push((p.var, item, true));
                        continue;
                    }
                    if var.shape == acc_engine::facts::Shape::Array {
                        let _ = writeln!(
                            decls,
                            "  {}; __builtin_memcpy((void *)&{name}, __acc_args[{i}], sizeof({name})); (void){name};",
                            declare_as(self.unit, p.var, name)
                        );
                    } else {
                        // First: a variable-length array's type may name it.
                        let _ = writeln!(
                            value_decls,
                            "  {} = *({})__acc_args[{i}]; (void){name};",
                            declare_as(self.unit, p.var, name),
                            declare_as(self.unit, p.var, "(*)")
                        );
                    }
                }
            }
        }
        decls.insert_str(0, &value_decls);
        // The function's own types (and enumerators) that the kernel's declarations and body
        // may name: ahead of everything in the host kernel; around the CUDA kernel and its
        // parameters' structs, which name them too.
        // A typedef the kernel repeats, or whose only use in the host function was the
        // construct, is used as far as the C compiler can tell.
        let (mut local_types, mut typedefs_used) = (String::new(), String::new());
        for t in self.unit.local_types_at(c.pragma_span) {
            let _ = writeln!(local_types, "  {}", t.text);
            for name in &t.typedef_names {
                let _ = write!(typedefs_used, "(void)sizeof({name}); ");
            }
        }
        for &v in &k.private {
            if let Some((item, false)) = self.private_section(id, v) {
                sections.push((v, item, false));
                continue;
            }
            let name = &self.unit.var(v).name;
            let _ = writeln!(decls, "  {}; (void){name};", declare_as(self.unit, v, name));
        }
        // Each gang's copy of a private section lives in storage the runtime makes for the
        // launch; the copy's size and the section's offset from the pointer travel as values.
        let mut section_plans = Vec::new();
        for (v, item, first) in std::mem::take(&mut sections) {
            let var = self.unit.var(v);
            let name = var.name.clone();
            let sections_in_item = item
                .accessors
                .iter()
                .filter(|a| matches!(a, Accessor::Section { .. }))
                .count();
            if var.shape != acc_engine::facts::Shape::Pointer || sections_in_item != 1 {
                self.diags.push(Diagnostic::error(
                    item.span,
                    format!(
                        "`{}`: acc gives each gang its copy of a section of a pointer's target (`p[lo:n]`); privatize the whole array here",
                        item.text
                    ),
                ));
                continue;
            }
            let Some((start, bytes)) = self.item_extent(&item, v) else {
                continue;
            };
            let jb = k.params.len() + offsets.len();
            offsets.push(format!("(size_t)({bytes})"));
            let jl = k.params.len() + offsets.len();
            offsets.push(format!("(size_t)((char *)({start}) - (char *)({name}))"));
            section_plans.push((v, name, first, start, bytes, jb, jl, item.text.clone()));
        }
        let mut reds = Vec::new();
        let mut red_store = String::new();
        self.renames.clear();
        for (j, r) in k.reductions.iter().enumerate() {
            let var = self.unit.var(r.var);
            let name = &var.name;
            let array = matches!(
                var.shape,
                acc_engine::facts::Shape::Array | acc_engine::facts::Shape::Pointer
            );
            let ty = if array { var.elem_scalar } else { var.scalar };
            if ty.is_none() && !array {
                // A struct or `long double`: the runtime combines with
                // functions generated here.
                // On a GPU each block reduces into its slot on one thread.
                cuda_blocks = true;
                cuda_slot_bytes.push(format!(
                    "sizeof({})",
                    declare_as(self.unit, r.var, "").trim()
                ));
                match custom_reduction(self.unit, r.var, r.op, &format!("{n}_{j}")) {
                    Ok(funcs) => {
                        self.kernels.push_str(&funcs);
                        let _ = writeln!(
                            self.prototypes,
                            "static void __acc_rinit{n}_{j}(void *, const void *);\nstatic void __acc_rcomb{n}_{j}(void *, const void *);"
                        );
                        reds.push([
                            "0".into(),
                            "ACC_RT_TYPE_CUSTOM".into(),
                            format!("&{name}"),
                            c_string(name),
                            "1".into(),
                            format!("sizeof({name})"),
                            format!("__acc_rinit{n}_{j}"),
                            format!("__acc_rcomb{n}_{j}"),
                        ]);
                        red_slot(self.unit, r.var, j, &mut decls, &mut red_store);
                    }
                    Err(why) => self.diags.push(Diagnostic::error(
                        var.decl_span,
                        format!("reduction on `{name}`: {why}"),
                    )),
                }
                continue;
            }
            let Some(ty) = ty.and_then(red_type) else {
                self.diags.push(Diagnostic::error(
                    var.decl_span,
                    format!(
                        "reduction on `{name}`: only integer, floating and complex scalars, and arrays of them, are supported yet"
                    ),
                ));
                continue;
            };
            if !array {
                // A 16-byte private copy does not fit the block tree's shared buffer: each
                // block is then one chunk, reduced by its first thread.
                if var.scalar == Some(ScalarType::C64) {
                    cuda_blocks = true;
                }
                cuda_slot_bytes.push(format!(
                    "sizeof({})",
                    declare_as(self.unit, r.var, "").trim()
                ));
                cuda_reds.push(CudaReduction {
                    op: r.op,
                    ty: declare_as(self.unit, r.var, "").trim().to_string(),
                    var: name.clone(),
                    slot: j,
                });
                // Count 0, a scalar: its CUDA kernel sets the slots to the identity itself.
                reds.push([
                    red_op(r.op).into(),
                    ty.into(),
                    format!("&{name}"),
                    c_string(name),
                    "0".into(),
                    "0".into(),
                    "0".into(),
                    "0".into(),
                ]);
                red_slot(self.unit, r.var, j, &mut decls, &mut red_store);
                continue;
            }
            cuda_blocks = true;
            // An array (or a section of one, or of a pointer's target): each
            // gang reduces into its own copy of the elements, which the
            // runtime combines element by element.
            let base = if var.shape == acc_engine::facts::Shape::Pointer {
                name.clone()
            } else {
                format!("&{name}")
            };
            let elem = var.decl_text[..var.decl_name.start]
                .trim()
                .trim_end_matches('*')
                .trim()
                .to_string();
            let (start, count) = match r
                .item
                .as_ref()
                .and_then(|i| i.sections().next().map(|s| (i, s)))
            {
                Some((item, (lower, length, span))) => {
                    let Some(length) = length else {
                        self.diags.push(Diagnostic::error(
                            span,
                            format!("give the length of the reduction section `{}`", item.text),
                        ));
                        continue;
                    };
                    let lo = lower.map_or("0".to_string(), |l| format!("({})", l.text));
                    (format!("&({name})[{lo}]"), format!("({})", length.text))
                }
                // An element of a pointer's target, `p[i]`: the section `p[i:1]`.
                None if var.shape == acc_engine::facts::Shape::Pointer
                    && r.item.as_ref().is_some_and(|i| {
                        matches!(
                            i.accessors.as_slice(),
                            [acc_engine::directive::Accessor::Index(_)]
                        )
                    }) =>
                {
                    let Some(acc_engine::directive::Accessor::Index(e)) =
                        r.item.as_ref().and_then(|i| i.accessors.first())
                    else {
                        continue;
                    };
                    (format!("&({name})[({})]", e.text), "1".to_string())
                }
                None if var.shape == acc_engine::facts::Shape::Pointer => {
                    self.diags.push(Diagnostic::error(
                        var.decl_span,
                        format!("a reduction on the pointer `{name}` needs a section, as in `{name}[0:n]`"),
                    ));
                    continue;
                }
                None => (
                    format!("&{name}"),
                    format!("(sizeof({name}) / sizeof({elem}))"),
                ),
            };
            reds.push([
                red_op(r.op).into(),
                ty.into(),
                format!("({start})"),
                c_string(r.item.as_ref().map_or(name, |i| &i.text)),
                count.clone(),
                "0".into(),
                "0".into(),
                "0".into(),
            ]);
            // The CUDA version finds each block's slot from its size.
            cuda_slot_bytes.push(format!(
                "*(const size_t *)__acc_args[{}]",
                k.params.len() + offsets.len()
            ));
            offsets.push(format!("(size_t)({count}) * sizeof(({name})[0])"));
            let joff = k.params.len() + offsets.len();
            offsets.push(format!("(size_t)((char *)({start}) - (char *)({base}))"));
            if var.shape == acc_engine::facts::Shape::Pointer {
                let _ = writeln!(
                    decls,
                    "  {} = ({})((char *)__acc_slot[{j}] - *(const size_t *)__acc_args[{joff}]); (void){name};",
                    declare_as(self.unit, r.var, name),
                    declare_as(self.unit, r.var, "")
                );
            } else {
                let _ = writeln!(
                    decls,
                    "  {} = ({})((char *)__acc_slot[{j}] - *(const size_t *)__acc_args[{joff}]); (void)__acc_r_{name};",
                    declare_as(self.unit, r.var, &format!("(*__acc_r_{name})")),
                    declare_as(self.unit, r.var, "(*)")
                );
                self.renames.push((r.var, format!("(*__acc_r_{name})")));
            }
        }

        // The offsets of partly mapped arrays travel as values after the
        // parameters; the host computes them where the launch is.
        let mut offset_decls: String = offsets
            .iter()
            .enumerate()
            .map(|(j, o)| format!("const size_t __acc_off{n}_{j} = {o}; "))
            .collect();
        for j in 0..offsets.len() {
            args.push(arg(
                "ACC_RT_ARG_VALUE",
                format!("&__acc_off{n}_{j}"),
                "sizeof(size_t)",
                "\"offset\"",
            ));
            cuda_params.push(CudaParam::Value {
                decl: "size_t v".into(),
            });
        }
        let mut section_decls = String::new();
        for (m, (v, name, first, start, bytes, jb, jl, text)) in section_plans.iter().enumerate() {
            let i = args.len();
            let kind = if *first {
                "ACC_RT_ARG_FIRSTPRIVATE"
            } else {
                "ACC_RT_ARG_PRIVATE"
            };
            let _ = write!(
                section_decls,
                "const size_t __acc_sec{n}_{m}[2] = {{(size_t)({start}), (size_t)({bytes})}}; "
            );
            args.push(arg(
                kind,
                format!("(void *)__acc_sec{n}_{m}"),
                "0",
                &c_string(text),
            ));
            cuda_params.push(CudaParam::Pointer);
            let (ptr, ty) = (
                declare_as(self.unit, *v, name),
                declare_as(self.unit, *v, ""),
            );
            let b = format!("*(const size_t *)__acc_args[{jb}]");
            let l = format!("*(const size_t *)__acc_args[{jl}]");
            let storage = format!("(char *)*(void **)__acc_args[{i}]");
            let copy = |gang: &str| {
                format!("  {ptr} = ({ty})({storage} + ((size_t)({gang}) + 1) * {b} - {l}); (void){name};\n")
            };
            let _ = write!(decls, "#ifdef __CUDACC__\n{}", copy("blockIdx.x"));
            if *first {
                let _ = writeln!(
                    decls,
                    "  {{ const char *__acc_s = {storage}; char *__acc_d = (char *){name} + {l}; \
                     for (size_t __acc_k = (size_t)threadIdx.y * blockDim.x + threadIdx.x; __acc_k < {b}; __acc_k += (size_t)blockDim.x * blockDim.y) __acc_d[__acc_k] = __acc_s[__acc_k]; \
                     __syncthreads(); }}"
                );
            }
            let _ = write!(decls, "#else\n{}", copy("__acc_chunk->index"));
            if *first {
                let _ = writeln!(
                    decls,
                    "  __builtin_memcpy((char *){name} + {l}, {storage}, {b});"
                );
            }
            decls.push_str("#endif\n");
        }
        offset_decls.push_str(&section_decls);
        let has_private_sections = !section_plans.is_empty();
        // The file-scope variables routines use: each kernel sets the CUDA module's device
        // pointer to the device copy (`crate::cuda::support`), found by its host address.
        let mut bind_globals = String::new();
        for g in &self.routine_globals {
            let i = args.len();
            args.push(arg(
                "ACC_RT_ARG_POINTER",
                format!("&{g}"),
                "0",
                &c_string(g),
            ));
            cuda_params.push(CudaParam::Pointer);
            let _ = writeln!(
                bind_globals,
                "  __acc_gp_{g} = (decltype(__acc_gp_{g}))*(void *const *)__acc_args[{i}];"
            );
        }
        // A `kernels` region runs each statement of its block as its own
        // kernel, in order: a loop nest with gang partitioning on many
        // gangs, anything else on one.
        // A loop without a directive proven independent runs on many gangs.
        let plain_gang = |s: Span| {
            k.plain_loops
                .iter()
                .any(|(i, verdict)| verdict.is_ok() && c.plain_loops[*i].0.start == s.start)
        };
        let parts: Vec<(Span, String)> = if k.kind == EffKind::Kernels
            && !c.directive.kind.is_combined()
            && !c.statements.is_empty()
        {
            c.statements
                .iter()
                .map(|&s| {
                    let gang = plain_gang(s)
                        || k.loops.iter().any(|l| {
                            l.partition.gang.is_some()
                                && self.unit.construct(l.construct).pragma_span.start == s.start
                        });
                    (
                        s,
                        if gang {
                            "INT64_MAX".to_string()
                        } else {
                            "1".to_string()
                        },
                    )
                })
                .collect()
        } else if k.kind == EffKind::Kernels && plain_gang(body) {
            vec![(body, "INT64_MAX".to_string())]
        } else {
            vec![(body, self.iterations(id, k))]
        };
        let num = |kind| {
            self.clause_expr(id, kind)
                .map_or("0".to_string(), |e| format!("(int32_t)({e})"))
        };
        let num_gangs = if k.kind == EffKind::Serial {
            "1".to_string()
        } else {
            num(ClauseKind::NumGangs)
        };
        let nw = num(ClauseKind::NumWorkers);
        let vl = num(ClauseKind::VectorLength);
        let asy = self.async_arg(id);
        let wait = self.wait_clause(id, line);
        // The compact forms of acc_rt.h: constant tables and one value a
        // slot, cheap for the host compiler (see `acc_rt_launch_v`).
        let args_decl = if args.is_empty() {
            format!("const acc_rt_arg_info *__acc_ai{n} = 0; void *const *__acc_av{n} = 0;")
        } else {
            let info: Vec<String> = args
                .iter()
                .map(|[kind, _, bytes, text]| format!("{{{kind}, {bytes}, {text}}}"))
                .collect();
            let vals: Vec<String> = args
                .iter()
                .map(|[_, addr, _, _]| format!("(void *){addr}"))
                .collect();
            // A static table, unless an array passed by value may be a
            // VLA (whose `sizeof` is not a constant); a local table costs
            // the host compiler a store a field.
            let by_value_array = k.params.iter().any(|p| {
                p.pass == Pass::Value
                    && self.unit.var(p.var).shape == acc_engine::facts::Shape::Array
            });
            format!(
                "{}const acc_rt_arg_info __acc_ai{n}[] = {{{}}}; void *const __acc_av{n}[] = {{{}}};",
                if by_value_array { "" } else { "static " },
                info.join(", "),
                vals.join(", ")
            )
        };
        let reds_decl = if reds.is_empty() {
            format!("const acc_rt_reduction_info *__acc_ri{n} = 0; void *const *__acc_rv{n} = 0;")
        } else {
            let info: Vec<String> = reds
                .iter()
                .map(|[op, ty, _, text, _, size, init, comb]| {
                    format!("{{{op}, {ty}, {text}, {size}, {init}, {comb}}}")
                })
                .collect();
            let vals: Vec<String> = reds
                .iter()
                .map(|[_, _, var, _, count, ..]| {
                    format!("(void *){var}, (void *)(size_t)({count})")
                })
                .collect();
            format!(
                "static const acc_rt_reduction_info __acc_ri{n}[] = {{{}}}; void *const __acc_rv{n}[] = {{{}}};",
                info.join(", "),
                vals.join(", ")
            )
        };
        let construct_name = c.directive.kind.name();
        let mut launches = String::new();
        for (pi, (span, iterations)) in parts.iter().enumerate() {
            let fname = format!("{fname}_{pi}");
            // In `kernels`, `gang(num: e)`, `worker(num: e)` and
            // `vector(length: e)` on the part's loop size its launch.
            let part_loop = (k.kind == EffKind::Kernels)
                .then(|| {
                    k.loops
                        .iter()
                        .find(|l| self.unit.construct(l.construct).pragma_span.start == span.start)
                })
                .flatten()
                .map(|l| &self.unit.construct(l.construct).directive);
            let level_arg = |kind: ClauseKind| {
                part_loop.and_then(|d| {
                    d.clauses
                        .iter()
                        .filter(|c| c.kind == kind)
                        .find_map(|c| match &c.args {
                            ClauseArgs::Gang(args) => args
                                .iter()
                                .find(|a| a.kind == acc_engine::directive::GangArgKind::Num)
                                .map(|a| format!("(int32_t)({})", a.value.text)),
                            ClauseArgs::Worker(Some(e)) | ClauseArgs::Vector(Some(e)) => {
                                Some(format!("(int32_t)({})", e.text))
                            }
                            _ => None,
                        })
                })
            };
            let num_gangs = level_arg(ClauseKind::Gang).unwrap_or_else(|| num_gangs.clone());
            let nw = level_arg(ClauseKind::Worker).unwrap_or_else(|| nw.clone());
            let vl = level_arg(ClauseKind::Vector).unwrap_or_else(|| vl.clone());
            // Lanes where it is exact (and the kernel would spread threads over the gang loop).
            let threads_mode = iterations != "1" && !cuda_blocks && k.gang_partitioned;
            // Once-per-gang effects the region's threads cannot leave to one of them: then a
            // CUDA block is one thread, so that every thread is a gang.
            let mut thread_gangs = threads_mode && self.once_per_gang(id, k, *span).1;
            if thread_gangs {
                self.info.push(format!(
                    "{line}: CUDA: one thread a gang (an atomic or a reduction update in gang-redundant code beside a gang loop)"
                ));
            }
            self.lanes = if threads_mode && !thread_gangs {
                self.lanes_plan(id, k, *span)
            } else {
                None
            };
            // A gang's copy of a private section is shared by the gang's threads: a block must
            // be a gang.
            if threads_mode && self.lanes.is_none() && !thread_gangs && has_private_sections {
                thread_gangs = true;
                self.info.push(format!(
                    "{line}: CUDA: one thread a gang (each gang's copy of a private section)"
                ));
            }
            let lanes = self.lanes.is_some();
            let rows = self.lanes.as_ref().is_some_and(|l| !l.rows.is_empty());
            if rows {
                self.info.push(format!(
                    "{line}: CUDA: a block a gang iteration, its worker loops over the block's rows and their vector loops over each row's lanes"
                ));
            } else if lanes {
                self.info.push(format!(
                    "{line}: CUDA: a block a gang iteration, its worker/vector loops spread over the block's threads"
                ));
            }
            let kernel_body = self.kernel_body(id, k, *span);
            self.lanes = None;
            self.cuda_kernels.push(CudaKernel {
                entry: fname.clone(),
                file: self.file.trim_matches('"').to_string(),
                line: self.line(*span),
                params: cuda_params.clone(),
                slot_bytes: cuda_slot_bytes.clone(),
                reductions: cuda_reds.clone(),
                types: local_types.clone(),
                decls: format!("{decls}{bind_globals}"),
                body: kernel_body.clone(),
                store: red_store.clone(),
                mode: if iterations == "1" {
                    CudaMode::Single
                } else if rows {
                    CudaMode::Rows
                } else if lanes {
                    CudaMode::Lanes
                } else if cuda_blocks || !k.gang_partitioned {
                    // Redundant gangs: each block's first thread runs the region.
                    CudaMode::Blocks
                } else {
                    CudaMode::Threads
                },
            });
            // acc_rt_kernel.cuda_lanes: 1 lanes, 2 rows, 3 one thread a gang (the launch shape
            // must suit them).
            let lanes_code = if thread_gangs {
                3
            } else if rows {
                2
            } else {
                i32::from(lanes)
            };
            let cuda = format!("__acc_cuda_module, \"{fname}\", {lanes_code}");
            let _ = write!(
                launches,
                "static const acc_rt_kernel __acc_k{n}_{pi} = {{\"{construct_name} at line {line}\", {f}, {line}, {fname}, {cuda}}}; \
                 acc_rt_launch_v(&__acc_k{n}_{pi}, {iterations}, {num_gangs}, {nw}, {vl}, {asy}, __acc_ai{n}, __acc_av{n}, {nargs}, __acc_ri{n}, __acc_rv{n}, {nreds}); ",
                f = self.file,
                nargs = args.len(),
                nreds = reds.len(),
            );
            let _ = writeln!(
                self.prototypes,
                "static void {fname}(const acc_rt_chunk *);"
            );
            let mut text = String::new();
            let _ = writeln!(
                text,
                "\n/* {construct_name} at {}:{line} */",
                self.file.trim_matches('"')
            );
            let _ = writeln!(
                text,
                "static void {fname}(const acc_rt_chunk *__acc_chunk) {{"
            );
            // The names the CUDA version gives the arguments and reduction
            // slots, so both read the same declarations.
            let _ = writeln!(
                text,
                "  void *const *const __acc_args = __acc_chunk->args; (void)__acc_args;\n  \
                 void *const *const __acc_slot = __acc_chunk->red; (void)__acc_slot;"
            );
            text.push_str(&local_types);
            if !typedefs_used.is_empty() {
                let _ = writeln!(text, "  {typedefs_used}");
            }
            text.push_str(&decls);
            let _ = writeln!(text, "#line {} {}", self.line(*span), self.file);
            text.push_str(&kernel_body);
            text.push('\n');
            text.push_str(&red_store);
            text.push_str("}\n");
            self.kernels.push_str(&text);
        }
        // The host's own variables that only the kernel's private copies
        // use are, on the host, set and never read; say so to the C compiler.
        let unused: String = k
            .private
            .iter()
            .map(|&v| format!("(void){}; ", self.unit.var(v).name))
            .collect::<String>()
            + &typedefs_used;
        let launch = format!(
            "{wait}{unused}{data_array} acc_rt_region_begin_v({f}, {line}, __acc_d{n}i, __acc_d{n}v, {data_count}, {asy}); \
             {offset_decls}{args_decl} {reds_decl} {launches}\
             acc_rt_region_end_v({f}, {line}, __acc_d{n}i, __acc_d{n}v, {data_count}, {asy});",
            f = self.file,
        );
        let indent = self.indent_of(c.pragma_span);
        let launch = one_statement_a_line(&launch, &indent);
        let host_version = self.host_version(body);
        let replacement = match self.condition(id) {
            Some(cond) => format!(
                "if ({cond}) {{ {launch} }} else {{\n#line {} {}\n{host_version}\n}}",
                self.line(body),
                self.file
            ),
            None => format!("{{ {launch} }}"),
        };
        // A directive that ends a `#if` branch whose statement follows the `#endif`
        // (`#ifdef _OPENMP … #else #pragma acc … #endif` then the loop): the launch goes where
        // the directive is, inside the branch, and the lines between (`#endif`, the other
        // branch) stay; the statement goes.
        let between = &self.src[c.pragma_span.end..body.start];
        if between.lines().any(|l| l.trim_start().starts_with('#')) {
            self.replace(c.pragma_span, replacement);
            self.replace(body, String::new());
        } else {
            self.replace(Span::new(c.pragma_span.start, body.end), replacement);
        }
    }

    /// For an array mapped only in part (by the construct or an enclosing
    /// data region, as `a[lo:len]`), an address inside the mapped part.
    /// The section of `var` in a `private` or `firstprivate` clause of compute construct
    /// `id` (`private(c[0:n])`), and whether it is `firstprivate`.
    fn private_section(&self, id: ConstructId, var: VarId) -> Option<(VarItem, bool)> {
        let c = self.unit.construct(id);
        for (ci, clause) in c.directive.clauses.iter().enumerate() {
            if !matches!(clause.kind, ClauseKind::Private | ClauseKind::Firstprivate) {
                continue;
            }
            for (ii, item) in clause.items().iter().enumerate() {
                let named = c
                    .clause_vars
                    .get(ci)
                    .and_then(|v| v.get(ii))
                    .copied()
                    .flatten();
                if named == Some(var) && item.is_subarray() {
                    return Some((item.clone(), clause.kind == ClauseKind::Firstprivate));
                }
            }
        }
        None
    }

    /// The declaration of a kernel's pointer `name` of type `ty` (`\0` where the name goes)
    /// at `address`, for both the host and CUDA (see [`crate::vla`]).
    fn pointer_decl(&self, ty: String, name: &str, address: &str) -> String {
        crate::vla::pointer_decl(&ty, name, address, |w| {
            self.unit.vars.iter().any(|v| v.name == w)
        })
    }

    fn probe(&mut self, id: ConstructId, var: VarId) -> Option<String> {
        if !matches!(
            self.unit.var(var).shape,
            acc_engine::facts::Shape::Array | acc_engine::facts::Shape::Pointer
        ) {
            return None;
        }
        let scopes = std::iter::once(id).chain(self.unit.ancestors(id));
        let mut found = None;
        for c in scopes {
            let data = match &self.plans[c.0 as usize] {
                ConstructPlan::Kernel(k) => &k.data,
                ConstructPlan::Region { data, .. } => data,
                _ => continue,
            };
            if let Some(item) = data
                .iter()
                .find(|d| d.var == var)
                .and_then(|d| d.item.clone())
            {
                found = Some(item);
                break;
            }
        }
        let item = found.filter(|i| i.is_subarray())?;
        self.item_extent(&item, var).map(|(addr, _)| addr)
    }

    /// The launch's iteration count: the outer loop's trip count when the
    /// host can compute it (a combined construct), "as many gangs as the
    /// device likes" for other gang-partitioned regions, and when nothing
    /// is gang-partitioned, one gang — or, for a `parallel` with
    /// `num_gangs(n)`, `n` gangs, each running the region redundantly, as
    /// OpenACC's gang-redundant mode says (the body then has no gang loop to
    /// share out, so each chunk runs all of it).
    fn iterations(&self, id: ConstructId, k: &KernelPlan) -> String {
        if !k.gang_partitioned || k.kind == EffKind::Serial {
            return match self.clause_expr(id, ClauseKind::NumGangs) {
                Some(e) if k.kind == EffKind::Parallel => format!("(long long)({e})"),
                _ => "1".into(),
            };
        }
        let c = self.unit.construct(id);
        if c.directive.kind.is_combined() {
            let headers: Option<Vec<&LoopHeader>> =
                c.loops.iter().map(|l| l.header.as_ref()).collect();
            if let Some(hs) = headers.filter(|h| !h.is_empty()) {
                let trips: Vec<String> = hs
                    .iter()
                    .map(|h| {
                        format!(
                            "__acc_trips((long long)({}), (long long)({}), (long long)({}), {})",
                            h.lower,
                            h.upper,
                            h.step,
                            cmp_code(h.cmp)
                        )
                    })
                    .collect();
                return trips.join(" * ");
            }
        }
        "INT64_MAX".into()
    }

    /// The statement of a compute construct as the host runs it when the
    /// `if` clause is false: the same code without the directives.
    fn host_version(&self, body: Span) -> String {
        let mut edits = Vec::new();
        for c in &self.unit.constructs {
            if body.contains(c.pragma_span) {
                edits.push(Edit::remove(c.pragma_span));
            }
        }
        apply_in(self.src, body, edits)
    }

    /// The kernel's statement: references to mapped variables through
    /// their device pointers, gang loops split across chunks, the loop
    /// directives and atomics lowered.
    fn kernel_body(&mut self, id: ConstructId, k: &KernelPlan, body: Span) -> String {
        let mut edits: Vec<Edit> = Vec::new();
        let mapped: Vec<VarId> = k
            .params
            .iter()
            .filter(|p| p.pass == Pass::Mapped)
            .map(|p| p.var)
            .collect();
        // Loop privates shadow the kernel's names inside their loops.
        let shadowed = |v: VarId, at: Span| {
            k.loops.iter().any(|l| {
                l.private.contains(&v)
                    && self
                        .unit
                        .construct(l.construct)
                        .body
                        .is_some_and(|b| b.contains(at))
            })
        };
        let mut ref_edits = Vec::new();
        for r in self.unit.refs_in(body).iter().filter(|r| !r.implied) {
            let renamed = self
                .renames
                .iter()
                .find(|x| x.0 == r.var)
                .map(|x| x.1.clone());
            if (renamed.is_some() || mapped.contains(&r.var)) && !shadowed(r.var, r.span) {
                ref_edits.push(Edit {
                    start: r.span.start,
                    end: r.span.end,
                    text: renamed
                        .unwrap_or_else(|| format!("(*__acc_p_{})", self.unit.var(r.var).name)),
                    order: 0,
                    line_after: false,
                });
            }
        }
        let depth_of = |c: ConstructId| self.unit.ancestors(c).count() as i64;
        // Nested directives.
        for cid in self.unit.construct_ids() {
            let nested = self.unit.construct(cid);
            let inner_of_this = cid == id
                || (body.contains(nested.pragma_span) && self.unit.ancestors(cid).any(|a| a == id));
            if !inner_of_this {
                continue;
            }
            let kind = nested.directive.kind;
            let is_loop = kind.is_loop();
            if cid != id {
                match kind {
                    DirectiveKind::Atomic => {
                        let location = self.atomic_update(nested, &ref_edits, &mut edits);
                        self.seen_atomic(nested, location);
                        if location.is_some() {
                            continue;
                        }
                        edits.push(Edit {
                            start: nested.pragma_span.start,
                            end: nested.pragma_span.end,
                            text: "{ acc_rt_atomic_begin();".into(),
                            order: 0,
                            line_after: false,
                        });
                        if let Some(b) = nested.body {
                            edits.push(Edit {
                                start: b.end,
                                end: b.end,
                                text: " acc_rt_atomic_end(); }".into(),
                                order: -depth_of(cid),
                                line_after: false,
                            });
                        }
                        continue;
                    }
                    _ if !is_loop => {
                        edits.push(Edit::remove(nested.pragma_span));
                        continue;
                    }
                    _ => {}
                }
            }
            if !is_loop {
                continue;
            }
            let Some(lp) = k.loops.iter().find(|l| l.construct == cid) else {
                continue;
            };
            // The loop's own private copies.
            // A variable declared inside the construct is already one copy per thread, and
            // a chunk runs the loop's iterations in turn: a second copy would only shadow it.
            let mut open = String::new();
            for &v in lp
                .private
                .iter()
                .filter(|&&v| !body.contains(self.unit.var(v).decl_span))
            {
                let name = &self.unit.var(v).name;
                let _ = write!(open, "{}; (void){name}; ", declare_as(self.unit, v, name));
            }
            let close_after = nested.body.map_or(body.end, |b| b.end);
            // Only the outermost gang loop is split across chunks (gang
            // dimensions below it run within the chunk).
            let outer_gang = self
                .unit
                .ancestors(cid)
                .take_while(|&a| a != id)
                .chain((cid != id).then_some(id))
                .any(|a| {
                    k.loops
                        .iter()
                        .any(|l| l.construct == a && l.partition.gang.is_some())
                });
            if lp.partition.gang.is_some() && !outer_gang {
                match self.gang_loop(cid, lp.depth, &ref_edits, &mut open) {
                    Some((header_span, header_text, closers)) => {
                        // The loop directive goes; the header is replaced.
                        if cid != id {
                            edits.push(Edit::remove(nested.pragma_span));
                        }
                        ref_edits.retain(|e| {
                            !(header_span.start <= e.start && e.end <= header_span.end)
                        });
                        edits.push(Edit {
                            start: header_span.start,
                            end: header_span.end,
                            text: format!("{{ {open}{header_text}"),
                            order: 0,
                            line_after: false,
                        });
                        edits.push(Edit {
                            start: close_after,
                            end: close_after,
                            text: format!("{closers} }}"),
                            order: -depth_of(cid) * 2,
                            line_after: false,
                        });
                        continue;
                    }
                    None => continue,
                }
            }
            // Spread over a CUDA block's threads in a lanes kernel (in order here).
            let level = self.lanes.as_ref().and_then(|l| {
                if l.rows.contains(&cid) {
                    Some(SpreadLevel::Rows)
                } else if l.row_spread.contains(&cid) {
                    Some(SpreadLevel::RowLanes)
                } else {
                    l.spread.contains(&cid).then_some(SpreadLevel::Block)
                }
            });
            if let Some(level) = level {
                if self.spread_loop(cid, lp.depth, level, &open, &mut ref_edits, &mut edits) {
                    continue;
                }
            }
            // Sequential within the chunk (seq, worker, vector levels).
            if cid != id {
                edits.push(Edit {
                    start: nested.pragma_span.start,
                    end: nested.pragma_span.end,
                    text: format!("{{ {open}"),
                    order: 0,
                    line_after: false,
                });
                edits.push(Edit {
                    start: close_after,
                    end: close_after,
                    text: " }".into(),
                    order: -depth_of(cid) * 2,
                    line_after: false,
                });
            } else if !open.is_empty() {
                edits.push(Edit {
                    start: body.start,
                    end: body.start,
                    text: format!("{{ {open}"),
                    order: 0,
                    line_after: false,
                });
                edits.push(Edit {
                    start: body.end,
                    end: body.end,
                    text: " }".into(),
                    order: -1000,
                    line_after: false,
                });
            }
        }
        // `kernels` loops without a directive that the dependence test
        // proved independent (the outermost one of this part).
        let c = self.unit.construct(id);
        for (i, verdict) in &k.plain_loops {
            let (stmt, facts) = &c.plain_loops[*i];
            if verdict.is_err() || !body.contains(*stmt) {
                continue;
            }
            let mut open = String::new();
            if let Some((header_span, header_text, closers)) = self.gang_loop_of(
                std::slice::from_ref(facts),
                c.directive.name_span,
                1,
                &ref_edits,
                &mut open,
                "__ACC_",
                None,
            ) {
                ref_edits.retain(|e| !(header_span.start <= e.start && e.end <= header_span.end));
                edits.push(Edit {
                    start: header_span.start,
                    end: header_span.end,
                    text: format!("{{ {open}{header_text}"),
                    order: 0,
                    line_after: false,
                });
                edits.push(Edit {
                    start: stmt.end,
                    end: stmt.end,
                    text: format!("{closers} }}"),
                    order: -1000,
                    line_after: false,
                });
            }
        }
        for s in self.once_per_gang(id, k, body).0 {
            enclose(&mut edits, s, "__ACC_REDUNDANT");
        }
        for &s in self.lanes.iter().flat_map(|l| &l.single) {
            enclose(&mut edits, s, "__ACC_VSINGLE");
        }
        for &s in self.lanes.iter().flat_map(|l| &l.row_single) {
            enclose(&mut edits, s, "__ACC_XSINGLE");
        }
        edits.extend(ref_edits);
        apply_in(self.src, body, edits)
    }

    /// Whether the kernel's CUDA version can run in lanes mode ([`Lanes`]), and how. Every
    /// outermost gang loop of `body` (none of them worker or vector itself) must contain
    /// worker or vector loops, whose reductions are on scalars declared inside the gang loop;
    /// the code around them (vector-single code, which every thread of a block runs) may
    /// call no function of unknown effect, and each of its writes of data other threads see
    /// must stand in a statement of the gang loop's body that contains no such loop (that
    /// statement then runs on one thread). Anything else keeps the threads mode, which is
    /// always exact.
    fn lanes_plan(&self, id: ConstructId, k: &KernelPlan, body: Span) -> Option<Lanes> {
        let inside =
            |c: ConstructId, outer: ConstructId| self.unit.ancestors(c).any(|a| a == outer);
        let in_body = |c: ConstructId| c == id || body.contains(self.unit.construct(c).pragma_span);
        let threads = |l: &LoopPlan| !l.partition.seq && (l.partition.worker || l.partition.vector);
        let gangs: Vec<&LoopPlan> = k
            .loops
            .iter()
            .filter(|l| l.partition.gang.is_some() && in_body(l.construct))
            .filter(|l| {
                !k.loops
                    .iter()
                    .any(|o| o.partition.gang.is_some() && inside(l.construct, o.construct))
            })
            .collect();
        if gangs.is_empty() {
            return None;
        }
        let mut lanes = Lanes {
            spread: Vec::new(),
            single: Vec::new(),
            rows: Vec::new(),
            row_spread: Vec::new(),
            row_single: Vec::new(),
        };
        for g in gangs {
            if g.partition.worker || g.partition.vector {
                return None;
            }
            let gc = self.unit.construct(g.construct);
            let deps = gc.loops.first()?.deps.as_ref()?;
            let innermost = gc.loops.get(g.depth.max(1) - 1)?;
            let gbody = gc.body?;
            // The outermost worker/vector loops inside this gang loop.
            let spread =
                self.outermost_inside(k, g.construct, |l| threads(l) && l.partition.gang.is_none());
            // Reductions across the lanes: builtin scalars private to the gang iteration.
            if spread.is_empty() || !self.lane_reductions(&spread, gbody) {
                return None;
            }
            let spans: Vec<Span> = spread
                .iter()
                .map(|l| self.statement_of(l.construct))
                .collect();
            let outside = |s: Span| !spans.iter().any(|v| v.contains(s));
            if deps.early_exit.is_some() || deps.calls.iter().any(|(_, s)| outside(*s)) {
                return None;
            }
            // Each thread has its own copy of a private or firstprivate variable: every thread
            // must write it. Shared data (and gang reductions, counted once a gang) gets one
            // writer.
            let mut writes: Vec<Span> = deps
                .accesses
                .iter()
                .filter(|a| a.write && !per_thread(k, a.var))
                .map(|a| a.span)
                .chain(
                    deps.scalar_writes
                        .iter()
                        .filter(|w| !per_thread(k, w.0))
                        .map(|w| w.1),
                )
                .filter(|s| outside(*s))
                .collect();
            writes.extend(self.atomics_in(gbody).filter(|s| outside(*s)));
            for s in self.single_statements(innermost, &spans, writes)? {
                if !lanes.single.contains(&s) {
                    lanes.single.push(s);
                }
            }
            lanes.spread.extend(spread.iter().map(|l| l.construct));
            for w in spread
                .iter()
                .filter(|l| l.partition.worker && !l.partition.vector)
            {
                if let Some((xs, single)) = self.row_plan(k, w, body) {
                    lanes.rows.push(w.construct);
                    lanes.row_spread.extend(xs);
                    lanes.row_single.extend(single);
                }
            }
        }
        Some(lanes)
    }

    /// Whether a worker loop `w` that [`Self::lanes_plan`] spreads can go over the block's
    /// rows instead, its outermost vector loops over each row's lanes (`CudaMode::Rows`), and
    /// which of its statements then run on a row's first lane. The rules are the lanes rules
    /// one level down: the vector loops' reductions are on builtin scalars declared inside
    /// the worker loop (every lane of the row gets the result); the worker-single code around
    /// them (which every lane of the row runs) calls no function of unknown effect and writes
    /// no variable declared in the construct outside the worker loop (a copy each thread has)
    /// but the worker loop's reduction variables and private copies; each of its writes of
    /// shared data, and each update of a
    /// reduction variable (counted once a row: the other lanes keep the identity), stands in
    /// a statement of the worker loop's body that contains no vector loop. Otherwise the
    /// worker loop stays spread over all the block's threads, its vector loops in order.
    fn row_plan(
        &self,
        k: &KernelPlan,
        w: &LoopPlan,
        body: Span,
    ) -> Option<(Vec<ConstructId>, Vec<Span>)> {
        let vector = |l: &LoopPlan| !l.partition.seq && l.partition.vector;
        let wc = self.unit.construct(w.construct);
        let wbody = wc.body?;
        let deps = wc.loops.first()?.deps.as_ref()?;
        let innermost = wc.loops.get(w.depth.max(1) - 1)?;
        let xs = self.outermost_inside(k, w.construct, vector);
        if xs.is_empty() || !self.lane_reductions(&xs, wbody) {
            return None;
        }
        let worker_reductions: Vec<VarId> =
            reduction_items(wc)?.into_iter().map(|(_, v)| v).collect();
        let spans: Vec<Span> = xs.iter().map(|l| self.statement_of(l.construct)).collect();
        let outside = |s: Span| !spans.iter().any(|v| v.contains(s));
        if deps.early_exit.is_some() || deps.calls.iter().any(|(_, s)| outside(*s)) {
            return None;
        }
        // A variable declared in the construct is a copy each thread has: one lane's write
        // would not reach the others. Variables declared outside it are shared data.
        let mut writes = Vec::new();
        for &(v, at) in deps.scalar_writes.iter().filter(|w| outside(w.1)) {
            let local = body.contains(self.unit.var(v).decl_span);
            if worker_reductions.contains(&v) || !local {
                writes.push(at);
            } else if !per_thread(k, v) {
                return None;
            }
        }
        writes.extend(
            deps.accesses
                .iter()
                .filter(|a| a.write && !per_thread(k, a.var) && outside(a.span))
                .map(|a| a.span),
        );
        writes.extend(self.atomics_in(wbody).filter(|s| outside(*s)));
        let single = self.single_statements(innermost, &spans, writes)?;
        Some((xs.iter().map(|l| l.construct).collect(), single))
    }

    /// A construct's statement: its directive through the end of its body.
    fn statement_of(&self, c: ConstructId) -> Span {
        let x = self.unit.construct(c);
        Span::new(
            x.pragma_span.start,
            x.body.map_or(x.pragma_span.end, |b| b.end),
        )
    }

    /// The loops of `k` inside `outer` that `pick` takes and that are inside no other loop it
    /// takes there.
    fn outermost_inside<'k>(
        &self,
        k: &'k KernelPlan,
        outer: ConstructId,
        pick: impl Fn(&LoopPlan) -> bool,
    ) -> Vec<&'k LoopPlan> {
        let inside =
            |c: ConstructId, outer: ConstructId| self.unit.ancestors(c).any(|a| a == outer);
        k.loops
            .iter()
            .filter(|l| pick(l) && inside(l.construct, outer))
            .filter(|l| {
                !k.loops.iter().any(|o| {
                    pick(o) && inside(l.construct, o.construct) && inside(o.construct, outer)
                })
            })
            .collect()
    }

    /// Whether the reductions of `loops` can be combined across a block's (or a row's)
    /// threads: builtin scalars with an identity there, declared inside `scope` (so that each
    /// iteration of the loop around has its own).
    fn lane_reductions(&self, loops: &[&LoopPlan], scope: Span) -> bool {
        loops.iter().all(|l| {
            reduction_items(self.unit.construct(l.construct)).is_some_and(|items| {
                items.iter().all(|&(op, v)| {
                    let var = self.unit.var(v);
                    scope.contains(var.decl_span)
                        && var.scalar.is_some_and(|t| lane_identity(op, t).is_some())
                })
            })
        })
    }

    /// The directives of the `atomic` constructs in `span`.
    fn atomics_in(&self, span: Span) -> impl Iterator<Item = Span> + '_ {
        self.unit
            .constructs
            .iter()
            .filter(|c| c.directive.kind == DirectiveKind::Atomic)
            .map(|c| c.pragma_span)
            .filter(move |s| span.contains(*s))
    }

    /// The statements of a loop body (`innermost`'s) that hold `writes`, which one thread
    /// then runs while the others wait at a barrier; `None` when one cannot: a declaration
    /// (its names must stay in scope), a statement holding a spread loop (`spread`: every
    /// thread must run it), or one with a `continue` (it would leave the others behind at the
    /// next barrier).
    fn single_statements(
        &self,
        innermost: &acc_engine::facts::LoopFacts,
        spread: &[Span],
        writes: Vec<Span>,
    ) -> Option<Vec<Span>> {
        let mut single: Vec<Span> = Vec::new();
        for at in writes {
            let s = *innermost.body_statements.iter().find(|s| s.contains(at))?;
            if innermost.body_declarations.contains(&s)
                || spread.iter().any(|v| s.contains(*v))
                || has_word(&self.src[s.range()], "continue")
            {
                return None;
            }
            if !single.contains(&s) {
                single.push(s);
            }
        }
        Some(single)
    }

    /// The edits that spread a worker/vector loop of a lanes kernel over the block's threads:
    /// its header, its reductions across the lanes, the barrier after it.
    #[allow(clippy::too_many_arguments)]
    fn spread_loop(
        &mut self,
        cid: ConstructId,
        depth: usize,
        level: SpreadLevel,
        privates: &str,
        ref_edits: &mut Vec<Edit>,
        edits: &mut Vec<Edit>,
    ) -> bool {
        let c = self.unit.construct(cid);
        let Some(body) = c.body else { return false };
        let (prefix, reduce) = match level {
            SpreadLevel::Block => ("__ACC_V", "__acc_block_reduce"),
            SpreadLevel::Rows => ("__ACC_W", "__acc_block_reduce"),
            SpreadLevel::RowLanes => ("__ACC_X", "__acc_row_reduce"),
        };
        let mut open = privates.to_string();
        let Some((header_span, header_text, closers)) = self.gang_loop_of(
            &c.loops,
            c.directive.name_span,
            depth,
            ref_edits,
            &mut open,
            prefix,
            None,
        ) else {
            return false;
        };
        let (mut red_open, mut red_close) = (String::new(), String::new());
        for (ci, clause) in c.directive.clauses.iter().enumerate() {
            let ClauseArgs::Reduction { op, items, .. } = &clause.args else {
                continue;
            };
            for ii in 0..items.len() {
                let Some(Some(v)) = c.clause_vars.get(ci).and_then(|x| x.get(ii)) else {
                    continue;
                };
                let var = self.unit.var(*v);
                let (Some(scalar), name) = (var.scalar, &var.name) else {
                    continue;
                };
                let Some(identity) = lane_identity(*op, scalar) else {
                    continue;
                };
                let saved = format!("__acc_vo_{name}");
                let ty = declare_as(self.unit, *v, "");
                let f = acc_engine::cuda::functor(*op);
                let _ = write!(
                    red_open,
                    "{prefix}RED_BEGIN({} = {name}, {} = {identity}) ",
                    declare_as(self.unit, *v, &saved),
                    declare_as(self.unit, *v, name)
                );
                red_close.insert_str(
                    0,
                    &format!(
                        " {prefix}RED_END(({saved} = {f}()({saved}, {reduce}<{ty}>({name}, {f}()))), {name} = {saved})"
                    ),
                );
            }
        }
        edits.push(Edit::remove(c.pragma_span));
        ref_edits.retain(|e| !(header_span.start <= e.start && e.end <= header_span.end));
        edits.push(Edit {
            start: header_span.start,
            end: header_span.end,
            text: format!("{red_open}{{ {open}{header_text}"),
            order: 0,
            line_after: false,
        });
        let depth_of = self.unit.ancestors(cid).count() as i64;
        edits.push(Edit {
            start: body.end,
            end: body.end,
            text: format!("{closers} }} {prefix}SYNC{red_close}"),
            order: -depth_of * 2,
            line_after: false,
        });
        true
    }

    /// An atomic construct whose statement [`crate::atomic`] reads as one access of one
    /// location, written as one macro call: `__ACC_ATOMIC_READ(v, x)`, `__ACC_ATOMIC_WRITE(x,
    /// e)`, `__ACC_ATOMIC(x, op=, name, e)` (`x = e op x` as `__ACC_ATOMIC_R(x, op, rname, e)`)
    /// and for a capture `__ACC_CAPTURE(v, x, op=, name, e, new)` (`__ACC_CAPTURE_R`; an
    /// exchange is `op` `=`). The host build takes its lock around them; the CUDA module
    /// updates the one location with compare-and-swap (C's own arithmetic on the value it
    /// read) or reads or writes it whole, not under a device-wide lock. Returns the variable
    /// the location belongs to (`hist` of `hist[i]`); `None` for other statements, which keep
    /// the lock everywhere.
    fn atomic_update(
        &self,
        c: &acc_engine::facts::Construct,
        ref_edits: &[Edit],
        edits: &mut Vec<Edit>,
    ) -> Option<VarId> {
        use crate::atomic::{read_access, AtomicAccess, AtomicKindOf, UpdateOp};
        use acc_engine::directive::{AtomicKind, DirectiveArg};
        let kind = match c.directive.arg {
            Some(DirectiveArg::Atomic(AtomicKind::Read, _)) => AtomicKindOf::Read,
            Some(DirectiveArg::Atomic(AtomicKind::Write, _)) => AtomicKindOf::Write,
            Some(DirectiveArg::Atomic(AtomicKind::Capture, _)) => AtomicKindOf::Capture,
            Some(DirectiveArg::Atomic(AtomicKind::Update, _)) | None => AtomicKindOf::Update,
            _ => return None,
        };
        let body = c.body?;
        let text = &self.src[body.range()];
        let access = read_access(kind, text)?;
        let x = match &access {
            AtomicAccess::Read { x, .. }
            | AtomicAccess::Write { x, .. }
            | AtomicAccess::Update { x, .. } => x.clone(),
        };
        let location = self
            .unit
            .refs_in(Span::new(body.start + x.start, body.start + x.end))
            .first()
            .map(|r| r.var)?;
        // A piece of the statement as the kernel spells it (mapped variables renamed).
        let piece = |r: std::ops::Range<usize>| {
            let span = Span::new(body.start + r.start, body.start + r.end);
            let inner: Vec<Edit> = ref_edits
                .iter()
                .filter(|e| span.start <= e.start && e.end <= span.end)
                .cloned()
                .collect();
            format!("({})", apply_in(self.src, span, inner))
        };
        let call = match access {
            AtomicAccess::Read { v, x } => {
                format!("__ACC_ATOMIC_READ({}, {});", piece(v), piece(x))
            }
            AtomicAccess::Write { x, e } => {
                format!("__ACC_ATOMIC_WRITE({}, {});", piece(x), piece(e))
            }
            AtomicAccess::Update { x, op, e, capture } => {
                let e = e.map_or_else(|| "1".to_string(), &piece);
                let name = op.functor_name();
                let (suffix, op) = match op {
                    UpdateOp::Forward(b) => ("", format!("{b}=")),
                    UpdateOp::Reversed(b) => ("_R", b.to_string()),
                    UpdateOp::Set => ("", "=".to_string()),
                };
                let x = piece(x);
                match capture {
                    None => format!("__ACC_ATOMIC{suffix}({x}, {op}, {name}, {e});"),
                    Some((v, fresh)) => format!(
                        "__ACC_CAPTURE{suffix}({}, {x}, {op}, {name}, {e}, {});",
                        piece(v),
                        i32::from(fresh)
                    ),
                }
            }
        };
        edits.push(Edit::remove(c.pragma_span));
        // The whole statement: before the renames inside it, which are skipped.
        edits.push(Edit {
            start: body.start,
            end: body.end,
            text: call,
            order: -1,
            line_after: false,
        });
        Some(location)
    }

    /// Records how an `atomic` construct's CUDA version updates its location (`location`:
    /// compare-and-swap on that variable's; `None`: the device lock), for
    /// [`Self::warn_mixed_atomics`].
    fn seen_atomic(&mut self, c: &acc_engine::facts::Construct, location: Option<VarId>) {
        if self
            .atomics
            .iter()
            .any(|a| a.directive == c.directive.name_span)
        {
            return;
        }
        let vars = c
            .body
            .map(|b| self.unit.refs_in(b).iter().map(|r| r.var).collect())
            .unwrap_or_default();
        self.atomics.push(AtomicSeen {
            directive: c.directive.name_span,
            line: self.line(c.pragma_span),
            location,
            vars,
        });
    }

    /// Warns of an `atomic` that takes the device lock on a GPU while another compare-and-swaps
    /// a location of the same variable: the lock does not exclude the compare-and-swap.
    fn warn_mixed_atomics(&mut self) {
        let mut warnings = Vec::new();
        for locked in self.atomics.iter().filter(|a| a.location.is_none()) {
            let other = self
                .atomics
                .iter()
                .find(|a| a.location.is_some_and(|v| locked.vars.contains(&v)));
            if let Some(other) = other {
                let name = &self.unit.var(other.location.expect("found by it")).name;
                warnings.push(
                    Diagnostic::warning(
                        locked.directive,
                        format!(
                            "on a GPU this `atomic` takes the device's lock (acc does not read its \
                             statement as one of OpenACC's forms), which does not exclude the \
                             compare-and-swap on `{name}` of the `atomic` at line {}",
                            other.line
                        ),
                    )
                    .with_note(
                        "write the statement as `x binop= expr`, `x = x binop expr`, `x++` or \
                         another of the forms in OpenACC 3.3 2.12, without a macro standing for it",
                    ),
                );
            }
        }
        self.diags.extend(warnings);
    }

    /// The gang-redundant code of a `parallel` region that must run once per gang: an atomic,
    /// a use of a reduction variable, outside every gang loop. Returns the region's top-level
    /// statements that hold such code and no gang loop (the CUDA module runs them on a block's
    /// first thread, `__ACC_REDUNDANT_BEGIN/END`; declarations are never among them, their
    /// names must stay in scope), and whether such code also stands in a statement that holds
    /// a gang loop (say a sequential loop around one): the barrier after a first-thread
    /// statement needs every thread, so that kernel's CUDA blocks are one thread each, every
    /// thread a gang. Other gang-redundant code may run on every thread of a block: it only
    /// sets the region's locals (which every thread needs) or races between gangs anyway.
    fn once_per_gang(&self, id: ConstructId, k: &KernelPlan, body: Span) -> (Vec<Span>, bool) {
        let c = self.unit.construct(id);
        if k.kind != EffKind::Parallel || !k.gang_partitioned || c.body != Some(body) {
            return (Vec::new(), false);
        }
        let gang_loops: Vec<Span> = k
            .loops
            .iter()
            .filter(|l| l.partition.gang.is_some())
            .map(|l| self.statement_of(l.construct))
            .collect();
        let in_gang_loop = |s: Span| gang_loops.iter().any(|g| g.contains(s));
        let once_per_gang_code =
            |s: Span| {
                self.atomics_in(s).any(|a| !in_gang_loop(a))
                    || self.unit.refs_in(s).iter().any(|r| {
                        k.reductions.iter().any(|g| g.var == r.var) && !in_gang_loop(r.span)
                    })
            };
        let (mut single, mut beside) = (Vec::new(), false);
        for s in region_statements(c) {
            if !once_per_gang_code(s) {
                continue;
            }
            if gang_loops.iter().any(|g| s.contains(*g)) {
                beside = true;
            } else if !c.declarations.contains(&s) {
                single.push(s);
            }
        }
        (single, beside)
    }

    /// A gang loop's new header: its iterations (the `collapse`d nest's)
    /// split by chunk. Returns the span to replace (outer `for` through the
    /// innermost header), the text, and what closes it after the body.
    fn gang_loop(
        &mut self,
        cid: ConstructId,
        depth: usize,
        ref_edits: &[Edit],
        open: &mut String,
    ) -> Option<(Span, String, String)> {
        let c = self.unit.construct(cid);
        // `tile(a, b, ...)`: the sizes, innermost last (`*`: 32, acc's choice).
        let tile: Option<Vec<String>> = c.directive.clauses.iter().find_map(|cl| match &cl.args {
            ClauseArgs::Exprs(sizes) if cl.kind == ClauseKind::Tile && sizes.len() > 1 => Some(
                sizes
                    .iter()
                    .rev()
                    .map(|e| {
                        if e.is_star() {
                            "32".to_string()
                        } else {
                            format!("({})", e.text)
                        }
                    })
                    .collect(),
            ),
            _ => None,
        });
        self.gang_loop_of(
            &c.loops,
            c.directive.name_span,
            depth,
            ref_edits,
            open,
            "__ACC_",
            tile.as_deref(),
        )
    }

    /// As [`Self::gang_loop`], for loop facts of any origin (a loop
    /// construct's, or a `kernels` loop without a directive).
    /// `prefix` names the partitioning macros: `__ACC_` for gang loops, `__ACC_V` for the
    /// worker/vector loops of a lanes kernel. `tile`: the sizes of a `tile` clause, outermost
    /// loop first, one per loop of the nest.
    #[allow(clippy::too_many_arguments)]
    fn gang_loop_of(
        &mut self,
        loops: &[acc_engine::facts::LoopFacts],
        directive_span: Span,
        depth: usize,
        ref_edits: &[Edit],
        open: &mut String,
        prefix: &str,
        tile: Option<&[String]>,
    ) -> Option<(Span, String, String)> {
        let headers: Option<Vec<LoopHeader>> =
            loops.iter().take(depth).map(|l| l.header.clone()).collect();
        let Some(headers) = headers.filter(|h| h.len() == depth.max(1)) else {
            let span = loops.first().map_or(directive_span, |l| l.span);
            self.diags.push(
                Diagnostic::error(span, "this loop is not in the canonical form a partitioned loop needs")
                    .with_note("write `for (i = lower; i < upper; i += step)` (or <=, >, >=, != and ++/--) with an integer `i`")
                    .with_secondary(directive_span, "partitioned by this directive"),
            );
            return None;
        };
        for l in loops.iter().take(depth) {
            if let Some(v) = l.control {
                if self.unit.var(v).scalar.is_some_and(|s| !s.is_integer()) {
                    self.diags.push(Diagnostic::error(
                        l.span,
                        format!("the control variable `{}` of a partitioned loop must have an integer type", self.unit.var(v).name),
                    ));
                    return None;
                }
            }
        }
        let n = self.fresh();
        let rewrite = |span: Span| {
            let inner: Vec<Edit> = ref_edits
                .iter()
                .filter(|e| span.start <= e.start && e.end <= span.end)
                .map(|e| Edit {
                    start: e.start,
                    end: e.end,
                    text: e.text.clone(),
                    order: 0,
                    line_after: false,
                })
                .collect();
            apply_in(self.src, span, inner)
        };
        let mut trips = Vec::new();
        for (i, h) in headers.iter().enumerate() {
            let step = match h.step_span {
                Some((s, neg)) => format!("{}({})", if neg { "-" } else { "" }, rewrite(s)),
                None => h.step.clone(),
            };
            let lower = rewrite(h.lower_span);
            let upper = rewrite(h.upper_span);
            let _ = write!(
                open,
                "const long long __acc_lb{n}_{i} = (long long)({lower}), __acc_st{n}_{i} = (long long)({step}); \
                 const long long __acc_n{n}_{i} = __acc_trips(__acc_lb{n}_{i}, (long long)({upper}), __acc_st{n}_{i}, {}); ",
                cmp_code(h.cmp)
            );
            trips.push(format!("__acc_n{n}_{i}"));
        }
        // Tiles: the partitioned iterations are whole tiles where the partition is contiguous
        // (a host chunk runs its tiles one after the other, each a small nest that stays in
        // cache); where iterations are dealt out (CUDA) a tile is one iteration.
        let tile = tile.filter(|t| t.len() == headers.len());
        if let Some(sizes) = tile {
            for (i, size) in sizes.iter().enumerate() {
                let _ = write!(
                    open,
                    "const long long __acc_ts{n}_{i} = {prefix}STEP == 1 ? (long long){size} : 1; \
                     const long long __acc_nt{n}_{i} = (__acc_n{n}_{i} + __acc_ts{n}_{i} - 1) / __acc_ts{n}_{i}; "
                );
                trips[i] = format!("__acc_nt{n}_{i}");
            }
        }
        // Iterations that differ in work (a triangular nest) are dealt out in balanced blocks
        // on the host; only a gang loop's partition is a host chunk's.
        let balanced = prefix == "__ACC_"
            && tile.is_none()
            && headers.len() == 1
            && loops.first().is_some_and(|l| l.uneven_trips);
        let _ = write!(open, "const long long __acc_t{n} = {}; ", trips.join(" * "));
        if !balanced {
            let _ = write!(
                open,
                "const long long __acc_lo{n} = {prefix}FIRST(__acc_t{n}); \
                 const long long __acc_hi{n} = {prefix}END(__acc_t{n}); "
            );
        }
        // One loop variable's value from its index `idx` (declared, or assigned through the
        // edits that rename it).
        let assign = |h: &LoopHeader, i: usize, idx: &str| {
            let value = format!("__acc_lb{n}_{i} + {idx} * __acc_st{n}_{i}");
            match &h.var_type {
                Some(t) => format!("{t} {v} = ({t})({value}); (void){v}; ", v = h.var),
                None => {
                    let target = match ref_edits.iter().find(|e| {
                        self.src[e.start..e.end] == h.var
                            && h.header_span.contains(Span::new(e.start, e.end))
                    }) {
                        Some(e) => e.text.clone(),
                        None => h.var.clone(),
                    };
                    format!("{target} = {value}; ")
                }
            }
        };
        let mut header;
        let mut closers = " }".to_string();
        if tile.is_some() {
            // Each iteration is a tile: its coordinates from the flat index (innermost
            // fastest), then a loop per level over the tile's part of that loop.
            header = format!("for (long long __acc_it{n} = __acc_lo{n}; __acc_it{n} < __acc_hi{n}; __acc_it{n} += {prefix}STEP) {{ ");
            let d = headers.len() - 1;
            let mut rest = format!("__acc_it{n}");
            let mut coords = Vec::new();
            for i in (0..=d).rev() {
                let c = if i == 0 {
                    rest.clone()
                } else {
                    format!("({rest} % __acc_nt{n}_{i})")
                };
                coords.push(format!("const long long __acc_tc{n}_{i} = {c}; "));
                if i > 0 {
                    rest = format!("({rest} / __acc_nt{n}_{i})");
                }
            }
            coords.reverse();
            header.push_str(&coords.concat());
            for (i, h) in headers.iter().enumerate() {
                let _ = write!(
                    header,
                    "for (long long __acc_e{n}_{i} = __acc_tc{n}_{i} * __acc_ts{n}_{i}, \
                     __acc_ee{n}_{i} = __acc_e{n}_{i} + __acc_ts{n}_{i} < __acc_n{n}_{i} ? __acc_e{n}_{i} + __acc_ts{n}_{i} : __acc_n{n}_{i}; \
                     __acc_e{n}_{i} < __acc_ee{n}_{i}; __acc_e{n}_{i}++) {{ "
                );
                header.push_str(&assign(h, i, &format!("__acc_e{n}_{i}")));
            }
            closers = " }".repeat(headers.len() + 1);
        } else if balanced {
            header = format!(
                "for (long long __acc_rd{n} = 0; __acc_rd{n} < __ACC_ROUNDS(__acc_t{n}); __acc_rd{n}++) {{ \
                 const long long __acc_bk{n} = __ACC_BLOCK(__acc_t{n}, __acc_rd{n}); \
                 for (long long __acc_it{n} = __ACC_BFIRST(__acc_t{n}, __acc_bk{n}); __acc_it{n} < __ACC_BEND(__acc_t{n}, __acc_bk{n}); __acc_it{n} += __ACC_STEP) {{ "
            );
            header.push_str(&assign(&headers[0], 0, &format!("__acc_it{n}")));
            closers = " } }".to_string();
        } else if headers.len() == 1 {
            header = format!("for (long long __acc_it{n} = __acc_lo{n}; __acc_it{n} < __acc_hi{n}; __acc_it{n} += {prefix}STEP) {{ ");
            header.push_str(&assign(&headers[0], 0, &format!("__acc_it{n}")));
        } else {
            // A collapsed nest: where the partition is contiguous (`STEP` 1: a host chunk, a
            // vector loop run in order) each run of the innermost loop's iterations inside the
            // chunk is a plain inner loop, the outer indices recovered once per run, so the C
            // compiler can vectorize it; where iterations are dealt out (a CUDA grid-stride
            // loop) each run is one iteration, as a flat loop with a division is.
            let d = headers.len() - 1;
            header = format!(
                "for (long long __acc_it{n} = __acc_lo{n}; __acc_it{n} < __acc_hi{n}; ) {{ \
                 const long long __acc_row{n} = __acc_it{n} / __acc_n{n}_{d}, __acc_col{n} = __acc_it{n} % __acc_n{n}_{d}; \
                 const long long __acc_run{n} = {prefix}STEP == 1 ? (__acc_n{n}_{d} - __acc_col{n} < __acc_hi{n} - __acc_it{n} ? __acc_n{n}_{d} - __acc_col{n} : __acc_hi{n} - __acc_it{n}) : 1; \
                 __acc_it{n} += {prefix}STEP == 1 ? __acc_run{n} : {prefix}STEP; "
            );
            // The outer loops' variables from the run's row, innermost fastest.
            let mut rest = format!("__acc_row{n}");
            let mut assigns = Vec::new();
            for i in (0..d).rev() {
                let idx = if i == 0 {
                    rest.clone()
                } else {
                    format!("({rest} % __acc_n{n}_{i})")
                };
                assigns.push(assign(&headers[i], i, &idx));
                if i > 0 {
                    rest = format!("({rest} / __acc_n{n}_{i})");
                }
            }
            assigns.reverse();
            header.push_str(&assigns.concat());
            let _ = write!(
                header,
                "for (long long __acc_k{n} = __acc_col{n}; __acc_k{n} < __acc_col{n} + __acc_run{n}; __acc_k{n}++) {{ "
            );
            header.push_str(&assign(&headers[d], d, &format!("__acc_k{n}")));
            closers = " } }".to_string();
        }
        // Braces of the intermediate loop bodies that the replaced span
        // swallows: reopen them so the original closing braces match.
        let first = headers.first()?;
        let last = headers.last()?;
        let span = Span::new(first.header_span.start, last.header_span.end);
        let swallowed = self.src[span.range()].matches('{').count()
            - self.src[span.range()].matches('}').count();
        header.push_str(&"{".repeat(swallowed));
        Some((span, header, closers))
    }
}

/// The init and combine functions of a reduction on a struct (member by
/// member, arrays element by element) or a `long double`. Private copies
/// of `+` and `^` start at 0 and of `*` at 1; the other operators are
/// idempotent, so a copy starts as the original value, which needs no
/// knowledge of the type's limits.
fn custom_reduction(unit: &Unit, v: VarId, op: ReductionOp, tag: &str) -> Result<String, String> {
    let var = unit.var(v);
    let ty = declare_as(unit, v, "");
    // (type text of the leaf, expression of the leaf given a base pointer, element count)
    let mut leaves: Vec<(String, String, Option<String>)> = Vec::new();
    if var.fields.is_empty() {
        if !var.decl_text.contains("long double") {
            return Err("only arithmetic types, arrays and structs of them are supported".into());
        }
        leaves.push(("long double".into(), "(*{b})".into(), None));
    } else {
        for f in &var.fields {
            if f.type_text.contains('*')
                || f.type_text.contains("struct")
                || f.type_text.contains("union")
            {
                return Err(format!("member `{}` is not arithmetic", f.name));
            }
            if f.dims.is_empty() {
                leaves.push((f.type_text.clone(), format!("{{b}}->{}", f.name), None));
            } else {
                leaves.push((
                    f.type_text.clone(),
                    format!("(({} *){{b}}->{})[__acc_k]", f.type_text, f.name),
                    Some(format!(
                        "sizeof({{b}}->{}) / sizeof({})",
                        f.name, f.type_text
                    )),
                ));
            }
        }
    }
    let init_leaf = |l: &str, o: &str| match op {
        ReductionOp::Add | ReductionOp::BitXor => format!("{l} = 0;"),
        ReductionOp::Mul => format!("{l} = 1;"),
        _ => format!("{l} = {o};"),
    };
    let comb_leaf = |a: &str, p: &str| match op {
        ReductionOp::Add => format!("{a} += {p};"),
        ReductionOp::Mul => format!("{a} *= {p};"),
        ReductionOp::Max => format!("if ({p} > {a}) {a} = {p};"),
        ReductionOp::Min => format!("if ({p} < {a}) {a} = {p};"),
        ReductionOp::BitAnd => format!("{a} &= {p};"),
        ReductionOp::BitOr => format!("{a} |= {p};"),
        ReductionOp::BitXor => format!("{a} ^= {p};"),
        ReductionOp::LogAnd => format!("{a} = {a} && {p};"),
        ReductionOp::LogOr => format!("{a} = {a} || {p};"),
    };
    let mut init = String::new();
    let mut comb = String::new();
    for (_, expr, count) in &leaves {
        let at = |b: &str| expr.replace("{b}", b);
        let (i, c) = (
            init_leaf(&at("__acc_c"), &at("__acc_o")),
            comb_leaf(&at("__acc_a"), &at("__acc_p")),
        );
        match count {
            Some(n) => {
                let (ni, nc) = (n.replace("{b}", "__acc_c"), n.replace("{b}", "__acc_a"));
                let _ = write!(
                    init,
                    " for (size_t __acc_k = 0; __acc_k < {ni}; __acc_k++) {{ {i} }}"
                );
                let _ = write!(
                    comb,
                    " for (size_t __acc_k = 0; __acc_k < {nc}; __acc_k++) {{ {c} }}"
                );
            }
            None => {
                let _ = write!(init, " {i}");
                let _ = write!(comb, " {c}");
            }
        }
    }
    Ok(format!(
        "\nstatic void __acc_rinit{tag}(void *__acc_cv, const void *__acc_ov) {{ {ty} *__acc_c = __acc_cv; const {ty} *__acc_o = __acc_ov; (void)__acc_o;{init} }}\n\
         static void __acc_rcomb{tag}(void *__acc_av, const void *__acc_pv) {{ {ty} *__acc_a = __acc_av; const {ty} *__acc_p = __acc_pv;{comb} }}\n"
    ))
}

/// A scalar reduction's gang-private copy: loaded from its runtime slot at
/// the kernel's start, stored back at its end.
fn red_slot(unit: &Unit, v: VarId, j: usize, decls: &mut String, store: &mut String) {
    let name = &unit.var(v).name;
    let _ = writeln!(
        decls,
        "  {} = *({})__acc_slot[{j}];",
        declare_as(unit, v, name),
        declare_as(unit, v, "(*)")
    );
    let _ = writeln!(
        store,
        "  *({})__acc_slot[{j}] = {name};",
        declare_as(unit, v, "(*)")
    );
}

/// Generated statements one to a line (after `; `), indented like the
/// directive they replace, so `--keep` output reads as code.
fn one_statement_a_line(code: &str, indent: &str) -> String {
    let mut out = String::with_capacity(code.len() + 64);
    let mut in_string = false;
    let mut prev = '\0';
    for ch in code.chars() {
        if ch == '"' && prev != '\\' {
            in_string = !in_string;
        }
        if ch == ' ' && prev == ';' && !in_string {
            out.push('\n');
            out.push_str(indent);
            out.push_str("  ");
        } else {
            out.push(ch);
        }
        prev = ch;
    }
    out
}

/// The pointer member whose target a list item names (`s.p` of
/// `s.p[0:n]`), if it names one.
fn member_pointer(item: &VarItem) -> Option<String> {
    let section = item
        .accessors
        .iter()
        .position(|a| matches!(a, Accessor::Section { .. }))?;
    if section == 0
        || !matches!(
            item.accessors[section - 1],
            Accessor::Member(_) | Accessor::Arrow(_)
        )
    {
        return None;
    }
    let mut text = item.base.name.clone();
    for a in &item.accessors[..section] {
        match a {
            Accessor::Member(id) => text = format!("{text}.{}", id.name),
            Accessor::Arrow(id) => text = format!("{text}->{}", id.name),
            Accessor::Index(e) => text = format!("{text}[{}]", e.text),
            Accessor::Section { .. } => {}
        }
    }
    Some(text)
}

fn item_text(item: Option<&VarItem>, name: &str) -> String {
    item.map_or_else(|| name.to_string(), |i| i.text.clone())
}

/// Applies edits to the whole file, resynchronising line numbers after
/// each replaced region.
pub(crate) fn apply(src: &str, mut edits: Vec<Edit>, file: &str) -> String {
    edits.sort_by_key(|e| (e.start, e.order, e.end));
    let mut out = String::with_capacity(src.len() * 2);
    let mut pos = 0;
    for e in edits {
        if e.start < pos {
            continue;
        }
        out.push_str(&src[pos..e.start]);
        out.push_str(&e.text);
        pos = e.end;
        if e.line_after {
            // Continue on a new line numbered as the original text is.
            let line = line_of(src, pos);
            let col_start = src[..pos].rfind('\n').map_or(0, |i| i + 1);
            let _ = write!(
                out,
                "\n#line {line} {file}\n{}",
                " ".repeat(pos - col_start)
            );
        }
    }
    out.push_str(&src[pos..]);
    out
}

/// Applies edits inside `span` and returns its new text.
fn apply_in(src: &str, span: Span, mut edits: Vec<Edit>) -> String {
    edits.sort_by_key(|e| (e.start, e.order, e.end));
    let mut out = String::new();
    let mut pos = span.start;
    for e in edits {
        if e.start < pos || e.end > span.end {
            continue;
        }
        out.push_str(&src[pos..e.start]);
        out.push_str(&e.text);
        pos = e.end;
    }
    out.push_str(&src[pos..span.end]);
    out
}
