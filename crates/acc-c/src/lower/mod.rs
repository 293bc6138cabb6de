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
//!
//! This module owns the entry points, the options, the `Lowerer`'s state and the helpers
//! every part shares (`c_string`, `declare_as`, the clauses' values); the work is spread over
//! modules by concern, each an `impl Lowerer` block or plain functions:
//! - `data`: data constructs and executable directives → runtime calls; `clause_checks`: the
//!   C compiler's view of their clause expressions, where they were written;
//! - `host`: a compute construct's host side (arguments, descriptors, launches, the kernel
//!   function's frame), with `frame` (what it gathers), `privates` and `reduction`; `parts`:
//!   the kernels a construct's launch makes (a `kernels` region's statements, their
//!   reductions and dimensions);
//! - `races`: warnings about races and lost updates the program asked for;
//! - `body`: the kernel body; `chunk`: a partitioned loop nest's new header;
//! - `spread`: GPU spreading plans (lanes, rows, once per gang);
//! - `atomic`: atomics in kernels (`atomic::read` reads their statements);
//! - `module`: the CUDA module and the file's assembly; `prelude`: the text every file starts
//!   with; `edit`: edits and their application; `writer`: the C writer.
//!
//! They call each other downwards only: host → parts, privates, reduction, body, spread,
//! chunk, data, frame, writer; body → spread, chunk, atomic; spread → chunk, reduction; privates →
//! data, frame, writer; everything → edit. None of them uses `crate::split`, which consumes
//! [`Lowered`]. Lowering must not decide OpenACC semantics (acc-engine's plans do) and must
//! not parse the source again: the tree comes in the [`crate::Analysis`].

use std::fmt::Write;

use acc_engine::attrs::EffKind;
use acc_engine::cuda::{CudaKernel, CudaParam, CudaReduction, Mode as CudaMode};
use acc_engine::directive::{
    Accessor, ClauseArgs, ClauseKind, DirectiveKind, ReductionOp, VarItem,
};
use acc_engine::facts::{Cmp, ConstructId, LoopHeader, ScalarType, Unit, VarId};
use acc_engine::plan::{Action, ConstructPlan, DataItem, KernelPlan, LoopPlan, Pass};
use acc_engine::{Diagnostic, Span};

use crate::syntax::NodeKind as _;
use crate::types::TypeEnv;

mod atomic;
mod body;
mod bounds;
mod chunk;
mod clause_checks;
mod data;
mod edit;
mod frame;
mod header_choice;
mod host;
mod macro_scope;
mod module;
mod parts;
mod pointer_items;
mod prelude;
mod privates;
mod races;
mod reduction;
mod spread;
mod writer;

use self::atomic::AtomicSeen;
pub(crate) use self::edit::{apply, Edit};
use self::module::declared_globals;
pub(crate) use self::prelude::FEATURE_TEST_MACROS;
use self::spread::Lanes;
pub(crate) use self::writer::CWriter;

/// Options of the lowering.
#[derive(Clone, Debug, Default)]
pub struct LowerOptions {
    /// The name used in messages and `#line` directives (the user's path).
    pub file_name: String,
    /// Read the headers' facts even where the file itself does not seem to need them: a
    /// header of the program's own may define a macro that expands to a directive
    /// ([`crate::preprocess::program_headers_may_hold_directives`]).
    pub read_headers: bool,
    /// Put the program's own headers that hold directives into the file at their
    /// `#include` and apply them there ([`crate::inline`]), as `acc cc` does; else they are
    /// reported and left as plain C (`acc translate`, `acc check`).
    pub inline_headers: bool,
    /// Options for NVRTC when it compiles the file's CUDA module (`--fmad=false` for
    /// `-ffp-contract=off`): written on the module's first line, where the runtime reads them
    /// (`acc_rt.h`), so that every compile of the module, linked ones included, uses them.
    pub nvrtc_options: Vec<String>,
    /// Take every pointer as `restrict` in the dependence test (nvc's `-Msafeptr`).
    pub pointers_do_not_alias: bool,
}

/// The NVRTC options that the host compiler's `flags` ask of the device code too: GCC's and
/// clang's `-ffp-contract=off` (the last `-ffp-contract=` wins) keeps NVRTC from fusing
/// `a * b + c` into one rounding (`--fmad=false`), so that a kernel's floating-point results
/// are the host's. Without it NVRTC fuses, as nvc and GCC's offloading do by default.
pub fn nvrtc_options_for<S: AsRef<str>>(flags: &[S]) -> Vec<String> {
    let contract = flags
        .iter()
        .filter_map(|f| f.as_ref().strip_prefix("-ffp-contract="))
        .next_back();
    match contract {
        Some("off") => vec!["--fmad=false".to_string()],
        _ => Vec::new(),
    }
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
    /// The file's routine library: its `routine` functions as CUDA, without kernels, for
    /// the runtime to link into other files' kernels that call them.
    pub cuda_library: Option<String>,
    /// The pieces `host_c` is made of, for [`Lowered::split`].
    pub(crate) parts: Parts,
    /// The program's headers put into the file (`LowerOptions::inline_headers`): the C
    /// compiler searches their directories for their own quoted includes, and a dependency
    /// file names them.
    pub inlined_headers: Vec<String>,
}

/// The pieces of a lowered file, for [`Lowered::split`] (`crate::split`), which rewrites the
/// user's part and puts them together again as two units.
#[derive(Clone, Debug, Default)]
pub(crate) struct Parts {
    /// What the file starts with (`prelude::prelude`).
    pub(crate) prelude: String,
    /// The edits of the user's text (offsets into the source).
    pub(crate) edits: Vec<Edit>,
    /// `static void NAME(ARGS);` lines.
    pub(crate) prototypes: String,
    /// Where the edited user text is in `host_c`.
    pub(crate) user: std::ops::Range<usize>,
    /// The kernels' and reduction helpers' definitions.
    pub(crate) kernels: String,
    /// The file name as a C string literal.
    pub(crate) file: String,
    /// Where the source's bytes are in the program's files.
    pub(crate) lines: crate::line_map::LineMap,
    /// The definition of `__acc_cuda_module` that kernel descriptors name
    /// (empty when there are no kernels).
    pub(crate) cuda_decl: String,
    /// The file's syntax trees, from its one parse (see [`crate::Analysis::trees`]).
    pub(crate) trees: Vec<tree_sitter::Tree>,
}

/// Lowers one file. `None` when there are errors (in the diagnostics).
pub fn lower_file(
    src: &str,
    headers: TypeEnv,
    opts: &LowerOptions,
) -> (Option<Lowered>, Vec<Diagnostic>) {
    let items = headers.header_items.clone();
    let globals = headers.header_globals.clone();
    lower_analysis(
        src,
        crate::analyze_for(src, headers, None),
        opts,
        &items,
        &globals,
    )
}

/// As [`lower_file`], asking for header facts only when the file itself
/// does not say enough: when a variable that a construct uses has a type
/// name the file does not define. Running the preprocessor and reading
/// every header costs more than the rest of `acc cc` together, and most
/// files do not need it.
///
/// With [`LowerOptions::inline_headers`], the headers put in make a new text, which the
/// lowering and the diagnostics are about: it is returned too (`None`: the file's own).
pub fn lower_file_lazy(
    src: &str,
    headers: &mut dyn FnMut() -> Result<TypeEnv, String>,
    opts: &LowerOptions,
) -> Result<LazyLowering, String> {
    let mut analysis = crate::analyze_for(src, TypeEnv::default(), None);
    let mut again = Some(TypeEnv::default());
    let unknown_type = analysis
        .diags
        .iter()
        .any(|d| d.message.starts_with(crate::sema::UNKNOWN_TYPE));
    // A header of the program's own may declare what a directive names (a global in an
    // `update`, a type, a macro a CUDA version needs): read the headers through the
    // preprocessor then too.
    let has_directives = !analysis.unit.constructs.is_empty();
    // The CUDA module carries the file's declarations of the `#if` arm the compiler sees:
    // which one that is may take the headers' macros and the command line's.
    let undecided = has_directives && !analysis.unit.undecided_declarations.is_empty();
    let mut header_items = Vec::new();
    let mut header_globals = Default::default();
    if unknown_type
        || undecided
        || opts.read_headers
        || (has_directives && crate::preprocess::includes_program_header(src))
    {
        let mut env = headers()?;
        header_items = env.header_items.clone();
        header_globals = env.header_globals.clone();
        if opts.inline_headers {
            let mut called = header_choice::headers_of_called_functions(src, &analysis, &env);
            for chain in header_choice::headers_included_in_constructs(src, &analysis, &env) {
                if !called.contains(&chain) {
                    called.push(chain);
                }
            }
            if let Some(inlined) = crate::inline::headers_into_file(
                src,
                &opts.file_name,
                &env.header_directives,
                &called,
                &env.program_headers,
                &mut read_header,
            ) {
                // The directives of the headers put in are the file's now; the others stay
                // reported at their `#include`, which moved.
                env.header_directives.retain(|d| !inlined.put_in(d));
                for d in &mut env.header_directives {
                    d.include_line = inlined.line_in_text(d.include_line);
                }
                let headers = inlined.headers();
                header_items.retain(|i| !headers.contains(&i.header));
                let text = inlined.text;
                let again = crate::may_expand_to_pragma(&text, &env).then(|| env.clone());
                let analysis = crate::analyze_for(&text, env, None);
                let (analysis, expanded) =
                    crate::with_code_macros_analysed(&text, analysis, again, None);
                let text = expanded.unwrap_or(text);
                let (mut lowered, diags) =
                    lower_analysis(&text, analysis, opts, &header_items, &header_globals);
                if let Some(l) = &mut lowered {
                    l.inlined_headers = headers;
                }
                return Ok(LazyLowering {
                    lowered,
                    diags,
                    text: Some(text),
                });
            }
        }
        // The same tree, analysed again with the headers' facts.
        let trees = std::mem::take(&mut analysis.trees);
        again = crate::may_expand_to_pragma(src, &env).then(|| env.clone());
        analysis = crate::analyze_parsed(src, trees, env, None);
    }
    let (analysis, expanded) = crate::with_code_macros_analysed(src, analysis, again, None);
    let text = expanded.as_deref().unwrap_or(src);
    let (lowered, diags) = lower_analysis(text, analysis, opts, &header_items, &header_globals);
    Ok(LazyLowering {
        lowered,
        diags,
        text: expanded,
    })
}

/// The statements of the unit's compute constructs, as byte ranges.
fn compute_bodies(unit: &acc_engine::facts::Unit) -> Vec<std::ops::Range<usize>> {
    unit.constructs
        .iter()
        .filter(|c| c.directive.kind.is_compute())
        .filter_map(|c| c.body.map(|b| b.start..b.end))
        .collect()
}

/// What [`lower_file_lazy`] gives.
pub struct LazyLowering {
    /// The lowered file; `None` when there are errors (in the diagnostics).
    pub lowered: Option<Lowered>,
    pub diags: Vec<Diagnostic>,
    /// The text the lowering and the diagnostics are about (what [`Lowered::split`] takes)
    /// when acc put headers into the file; `None` when it is the file's own.
    pub text: Option<String>,
}

/// A header's text, as the file's is read (any bytes; line ends as `crate::text::prepare`
/// makes them).
fn read_header(path: &std::path::Path) -> Option<String> {
    let bytes = std::fs::read(path).ok()?;
    Some(crate::text::prepare(crate::text::decode(bytes)).0)
}

fn lower_analysis(
    src: &str,
    mut analysis: crate::Analysis,
    opts: &LowerOptions,
    header_items: &[crate::types::HeaderItem],
    header_globals: &std::collections::HashMap<String, crate::types::HeaderGlobal>,
) -> (Option<Lowered>, Vec<Diagnostic>) {
    let mut diags = analysis.diags;
    if diags.iter().any(|d| d.is_error()) {
        return (None, diags);
    }
    analysis.unit.pointers_do_not_alias = opts.pointers_do_not_alias;
    let plans = acc_engine::plan::plan(&analysis.unit, &analysis.attrs);
    let mut lw = Lowerer {
        src,
        view: analysis.view.as_deref().unwrap_or(src),
        trees: &analysis.trees,
        unit: &analysis.unit,
        plans: &plans,
        lines: crate::line_map::LineMap::new(src, &opts.file_name),
        edits: Vec::new(),
        kernels: String::new(),
        changed_macros: macro_scope::changed_macros(src),
        macro_lines: macro_scope::macro_lines(src),
        restoring_kernels: Vec::new(),
        prototypes: String::new(),
        diags: Vec::new(),
        info: Vec::new(),
        counter: 0,
        renames: Vec::new(),
        lanes: None,
        routine_globals: Vec::new(),
        library_globals: Vec::new(),
        library_pointers: String::new(),
        macros: &analysis.macros,
        early_feature_macros: &analysis.early_feature_macros,
        cuda_kernels: Vec::new(),
        atomics: Vec::new(),
        host_only: Vec::new(),
        module_refusal: None,
        nvrtc_options: &opts.nvrtc_options,
        bounds: Default::default(),
    };
    // The `declare`d file-scope variables: routines reach them through the runtime on the CPU
    // devices, and through device pointers in the CUDA module.
    let declared = declared_globals(lw.unit);
    let mut routines = crate::cuda::routine_names(lw.unit);
    let compute = compute_bodies(lw.unit);
    let implicit = crate::cuda::implicit_routines(src, &analysis.trees, &compute, &routines);
    routines.extend(implicit);
    lw.warn_calls_without_device_version(&compute, &routines);
    lw.warn_orphaned_loops(&routines);
    lw.check_routine_call_levels();
    lw.warn_device_vlas(&compute, &routines);
    let bound = crate::cuda::routine_globals(src, &analysis.trees, &routines, header_globals);
    lw.bind_routine_globals(&bound, &declared);
    // A library (routines other files' kernels may call) reaches them by names of its own.
    if !crate::cuda::routine_linkage(src, &analysis.trees, &routines, &compute)
        .provides
        .is_empty()
    {
        lw.library_globals = lw.routine_globals.clone();
        // The names the library reaches them by are the file's own (a hash of its name and
        // text), so that libraries linked together never share one.
        let hash = crate::split::fnv(&[lw.lines.main_file().as_bytes(), &[0], src.as_bytes()]);
        lw.library_pointers = format!("__acc_lg_{hash:016x}_");
    }
    // Other compilers' pragmas between a loop directive and its loop (warned): left out of
    // the host's text too, where a compiler that knows them would apply them to acc's code.
    for &p in &analysis.unit.left_out_pragmas {
        let text = lw.src[p.start..p.end].replace("*/", "* /");
        lw.replace(p, format!("/* acc: left out: {text} */"));
    }
    lw.run();
    lw.warn_mixed_atomics();
    lw.warn_shared_scalar_writes();
    lw.warn_shared_scratch_arrays();
    lw.warn_pointers_mapped_whole();
    lw.warn_lost_firstprivate_writes();
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
    let code = lw.cuda_module(&declared, &bound, &routines, header_items);
    diags.append(&mut lw.diags);
    let mut lowered = lw.assemble(code);
    lowered.parts.trees = analysis.trees;
    (Some(lowered), diags)
}

struct Lowerer<'a> {
    src: &'a str,
    /// The file's syntax trees (its one parse).
    /// The text `trees` are the parse of (see [`crate::Analysis::view`]): `src`, or `src`
    /// with the `#if` chains that split braces resolved, offset for offset.
    view: &'a str,
    trees: &'a [tree_sitter::Tree],
    unit: &'a Unit,
    plans: &'a [ConstructPlan],
    /// Where each byte of `src` is in the program's files (the file's own `#line`
    /// directives say, as for the C compiler).
    lines: crate::line_map::LineMap,
    edits: Vec<Edit>,
    kernels: String,
    /// The macros the file `#undef`s or defines again (see `macro_scope`).
    changed_macros: Vec<String>,
    /// The file's `#define` and `#undef` lines (see `macro_scope`).
    macro_lines: Vec<macro_scope::MacroLine>,
    /// Kernel functions that bring back their construct's macros (see `macro_scope`).
    restoring_kernels: Vec<String>,
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
    /// Those of them the file's routine library reaches (none without a library): the
    /// `declare` directives name them to the runtime.
    library_globals: Vec<String>,
    /// The prefix of the names of the library's pointers to them (`__acc_lg_<hash>_`).
    library_pointers: String,
    /// The macros as the preprocessor left them (empty when the headers were not read).
    macros: &'a std::collections::HashMap<String, crate::macro_expand::MacroDef>,
    /// The feature-test macros the program's headers define early (see `prelude`).
    early_feature_macros: &'a [String],
    /// The CUDA versions of the kernels, for the file's CUDA module.
    cuda_kernels: Vec<CudaKernel>,
    /// What in a compute construct a GPU cannot run (a call of `strlen`, a variable-length
    /// array): why, and where. A kernel holding one gets no CUDA version (its launch on a GPU
    /// says so) rather than a module NVRTC refuses for every kernel of the file.
    host_only: Vec<(String, usize)>,
    /// What in a routine a GPU cannot run (a variable-length array): where and why. The file
    /// then has no CUDA module at all (every kernel may call the routine).
    module_refusal: Option<(usize, String)>,
    /// The `atomic` constructs met in kernels, and how their CUDA versions update.
    atomics: Vec<AtomicSeen>,
    /// [`LowerOptions::nvrtc_options`].
    nvrtc_options: &'a [String],
    /// Subarray bounds as locals of the constructs that map them (see `bounds`).
    bounds: bounds::BoundLocals,
}

/// `s` as a C string literal whose bytes are exactly `s`'s (its raw bytes included, see
/// [`crate::text`]), whatever they are: printable ASCII
/// as itself, newlines and tabs as `\n` and `\t`, and every other byte (a carriage return from
/// a CRLF file, UTF-8 or Latin-1 text in a comment) as a three-digit octal escape, which no
/// following character can extend. `?` is escaped after a `?`, so no trigraph forms.
pub(crate) fn c_string(s: &str) -> String {
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
    // Only an array's own first extent (`double a[n][m]`); a pointer to an array
    // (`float (*vp)[ny][nz]`) keeps all of its target's.
    if !rest.trim_start().starts_with('[') {
        return s;
    }
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

/// Whether a loop of kernel `k` has its own copy of `v` where `at` is (its body), which
/// shadows the kernel's.
fn loop_private_at(unit: &Unit, k: &KernelPlan, v: VarId, at: Span) -> bool {
    k.loops.iter().any(|l| {
        l.private.contains(&v)
            && unit
                .construct(l.construct)
                .body
                .is_some_and(|b| b.contains(at))
    })
}

/// Whether `text` has `word` as a whole identifier.
fn has_word(text: &str, word: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| w == word)
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

    /// The line of `span`'s start in its file ([`Self::file_at`]).
    fn line(&self, span: Span) -> usize {
        self.lines.line(span.start)
    }

    /// `file:line` of `span`'s start, to begin an `--info` line with.
    fn at(&self, span: Span) -> String {
        let place = self.lines.place(span.start);
        format!("{}:{}", place.file, place.line)
    }

    /// The file `span` starts in, as a C string literal (the runtime's calls and `#line`
    /// markers name it).
    fn file_at(&self, span: Span) -> String {
        c_string(self.lines.place(span.start).file)
    }

    /// [`Self::file_at`] without the quotes, for a `#line` marker or a comment.
    fn file_escaped_at(&self, span: Span) -> String {
        let literal = self.file_at(span);
        literal[1..literal.len() - 1].to_string()
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
            self.start_bounds(id);
            match &self.plans[id.0 as usize] {
                ConstructPlan::Kernel(k) => {
                    let info = acc_engine::plan::Info {
                        unit: self.unit,
                        plan: &self.plans[id.0 as usize],
                    };
                    let mut text = format!("{}: {info}", self.at(c.pragma_span));
                    // A `kernels` region whose block's statements run as kernels of their own.
                    let parts = c
                        .body
                        .map_or_else(Vec::new, |b| self.kernel_parts(id, k, b));
                    if parts.len() > 1 {
                        text = text.replacen(
                            "region: one kernel",
                            &format!(
                                "region: {} kernels (one per statement of its block)",
                                parts.len()
                            ),
                            1,
                        );
                    } else if k.gang_partitioned && parts.first().is_some_and(|(_, n)| n == "1") {
                        text = text.replacen(
                            "region: one kernel",
                            "region: one kernel, on one gang (a loop reduces into a variable its block declares)",
                            1,
                        );
                    }
                    self.info.push(text);
                    self.kernel(id, k);
                }
                ConstructPlan::Region { data, .. } => {
                    let info = acc_engine::plan::Info {
                        unit: self.unit,
                        plan: &self.plans[id.0 as usize],
                    };
                    self.info
                        .push(format!("{}: {info}", self.at(c.pragma_span)));
                    self.region(id, data);
                }
                ConstructPlan::Dynamic { kind, data, .. } => {
                    let info = acc_engine::plan::Info {
                        unit: self.unit,
                        plan: &self.plans[id.0 as usize],
                    };
                    self.info
                        .push(format!("{}: {info}", self.at(c.pragma_span)));
                    self.dynamic(id, *kind, data);
                }
                ConstructPlan::None => self.other(id),
            }
        }
        let functions: Vec<Span> = self
            .unit
            .constructs
            .iter()
            .filter_map(|c| self.enclosing_function(c.pragma_span))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        for f in functions {
            let removals = self.register_removals(f);
            self.edits.extend(removals);
        }
    }

    /// Whether the variable named at `at` is written there: assigned (whole or a member or
    /// element of it), incremented or decremented, or its address taken.
    fn writes_at(&self, at: Span) -> bool {
        let Some(mut n) = self.node_at(at) else {
            return true;
        };
        while let Some(p) = n.parent() {
            let inner = match p.node_kind() {
                "parenthesized_expression" => true,
                "field_expression" | "subscript_expression" => {
                    p.child_by_field_name("argument") == Some(n)
                }
                _ => false,
            };
            if !inner {
                return match p.node_kind() {
                    "assignment_expression" => p.child_by_field_name("left") == Some(n),
                    "update_expression" => true,
                    "pointer_expression" => p
                        .child_by_field_name("operator")
                        .is_some_and(|o| &self.src[o.byte_range()] == "&"),
                    _ => false,
                };
            }
            n = p;
        }
        false
    }

    /// The smallest node of the file's trees that spans `at`.
    fn node_at(&self, at: Span) -> Option<tree_sitter::Node<'a>> {
        self.trees
            .iter()
            .find(|t| t.root_node().byte_range().contains(&at.start))?
            .root_node()
            .descendant_for_byte_range(at.start, at.end)
    }

    /// The span of the function definition that holds `at`.
    fn enclosing_function(&self, at: Span) -> Option<Span> {
        let mut n = self.node_at(at)?;
        loop {
            if n.node_kind() == "function_definition" {
                return Some(Span::new(n.start_byte(), n.end_byte()));
            }
            n = n.parent()?;
        }
    }

    /// Edits deleting the `register` storage classes in `span`. Generated code takes the
    /// address of variables a construct uses (a device copy's host address, a firstprivate
    /// value, a reduction's result), which C forbids for a `register` variable; the keyword
    /// asks for nothing else a compiler heeds, so the lowered code goes without it. Each edit
    /// comes last at its place, so one that rewrites the whole declaration wins.
    fn register_removals(&self, span: Span) -> Vec<Edit> {
        fn visit(n: tree_sitter::Node, src: &str, span: Span, out: &mut Vec<Edit>) {
            if n.end_byte() <= span.start || n.start_byte() >= span.end {
                return;
            }
            if n.node_kind() == "storage_class_specifier" && &src[n.byte_range()] == "register" {
                out.push(Edit {
                    start: n.start_byte(),
                    end: n.end_byte(),
                    text: String::new(),
                    order: i64::MAX,
                    line_after: false,
                });
                return;
            }
            let mut cursor = n.walk();
            for c in n.children(&mut cursor) {
                visit(c, src, span, out);
            }
        }
        let mut out = Vec::new();
        if self.src[span.start..span.end].contains("register") {
            for t in self.trees {
                visit(t.root_node(), self.src, span, &mut out);
            }
        }
        out
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
        self.unit.construct(id).directive.clause_expr(kind)
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

    /// `acc_rt_wait` for each `wait` clause (a directive may have several: it waits for
    /// them all).
    fn wait_clause(&self, id: ConstructId, line: usize) -> String {
        let file = self.file_at(self.unit.construct(id).pragma_span);
        let d = &self.unit.construct(id).directive;
        let mut out = String::new();
        for c in d.clauses.iter().filter(|c| c.kind == ClauseKind::Wait) {
            match &c.args {
                ClauseArgs::Wait(Some(w)) if !w.queues.is_empty() => {
                    let qs: Vec<&str> = w.queues.iter().map(|q| q.text.as_str()).collect();
                    let _ = write!(
                        out,
                        "{{ const int __acc_q[] = {{{}}}; acc_rt_wait({}, {line}, __acc_q, {}, acc_async_sync); }} ",
                        qs.join(", "),
                        file,
                        qs.len()
                    );
                }
                _ => {
                    let _ = write!(out, "acc_rt_wait({file}, {line}, 0, 0, acc_async_sync); ");
                }
            }
        }
        out
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
}

/// Lowers `src` as a file `f.c` with the default options, for the lowering's unit tests.
#[cfg(test)]
pub(crate) fn lower_test_file(src: &str) -> (Option<Lowered>, Vec<Diagnostic>) {
    let opts = LowerOptions {
        file_name: "f.c".into(),
        ..Default::default()
    };
    lower_file(src, Default::default(), &opts)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file that names a type it does not define is analysed again with the headers'
    /// facts, from the same tree: one parse.
    #[test]
    fn lazy_lowering_analyses_again_without_parsing_again() {
        let src = "void f(int n, vec_t *v) {\n#pragma acc parallel loop copy(v[0:n])\n  for (int i = 0; i < n; i++) v[i] = v[i];\n}\n";
        let mut asked = 0;
        let mut headers = || {
            asked += 1;
            Ok(TypeEnv::default())
        };
        let before = crate::syntax::PARSES.with(|n| n.get());
        let opts = LowerOptions {
            file_name: "t.c".into(),
            ..Default::default()
        };
        let _ = lower_file_lazy(src, &mut headers, &opts);
        assert_eq!(asked, 1, "the unknown type asks for the headers");
        assert_eq!(crate::syntax::PARSES.with(|n| n.get()) - before, 1);
    }
}
