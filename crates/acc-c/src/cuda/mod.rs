//! What a file's CUDA module needs of the file itself: its macros, types
//! and `routine` functions, taken from the top level of the source as
//! written (acc-engine's `cuda` module emits the kernels around them).
//!
//! NVRTC has no system headers, so only the file's own declarations come
//! along; `acc_engine::cuda::PRELUDE` supplies the common C types and
//! limits. Declarations inside `#if` blocks are taken as they stand,
//! without the condition (the host compiler has already chosen; a kernel
//! that depends on the other branch fails to compile with NVRTC's message),
//! except macros, defined as the preprocessor left them where it read the
//! file (`text::as_preprocessed`).
//!
//! Layout: this module chooses what the module holds (support, header items, routines,
//! implicit routines, what a file gives and takes); `globals` the file-scope variables
//! routines use; `flexible` the types with flexible array members, which it leaves out when
//! unused; `nested_tags` the types a structure defines inside it, which C++ would scope to
//! it; `text` and `tokens` write it as NVRTC must read it.

use crate::syntax::derived;
use crate::syntax::NodeKind;
use tree_sitter::Node;

mod flexible;
mod globals;
mod nested_tags;
mod parameters;
pub use flexible::without_unnamed_flexible_types;
use globals::pointer_declaration;
pub use globals::{routine_globals, RoutineGlobal};
pub use parameters::kernel_void_pointer_conversions_cast;
mod text;
mod tokens;
pub use text::{
    as_preprocessed, ascii_module, cxx_keywords_renamed, cxx_types, enums_as_integers,
    long_double_constants, standard_typedefs_left_to_the_file,
};
pub use tokens::{
    c_tokens_as_c_means_them, case_ranges_expanded, statement_expressions_as_lambdas,
};

/// The function a `routine` directive names: `routine(name)`, or the function after an
/// unnamed one (whether written `#pragma acc`, `_Pragma`, or through a macro).
fn routine_function(c: &acc_engine::facts::Construct) -> Option<String> {
    use acc_engine::directive::{DirectiveArg, DirectiveKind};
    if c.directive.kind != DirectiveKind::Routine {
        return None;
    }
    match &c.directive.arg {
        Some(DirectiveArg::RoutineName(id)) => Some(id.name.clone()),
        _ => c.function.as_ref().map(|(name, _)| name.clone()),
    }
}

/// A directive's level of parallelism: 3 `gang`, 2 `worker`, 1 `vector`, 0 none (`seq`).
pub fn level_of(d: &acc_engine::directive::Directive) -> u8 {
    use acc_engine::directive::ClauseKind;
    [ClauseKind::Gang, ClauseKind::Worker, ClauseKind::Vector]
        .iter()
        .position(|&k| d.has(k))
        .map_or(0, |i| 3 - i as u8)
}

/// The names of the file's `routine` functions, as its directives give them.
pub fn routine_names(unit: &acc_engine::facts::Unit) -> Vec<String> {
    let mut names = Vec::new();
    for name in unit.constructs.iter().filter_map(routine_function) {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// The functions the unit's `routine` directives give the `gang` level: their gang loops are
/// shared among the gangs that call them (OpenACC 3.3 2.15.1).
pub fn gang_routines(unit: &acc_engine::facts::Unit) -> Vec<String> {
    routine_levels(unit)
        .into_iter()
        .filter(|&(_, level)| level == 3)
        .map(|(name, _)| name)
        .collect()
}

/// The level ([`level_of`]) each of the unit's `routine` directives gives its function.
pub fn routine_levels(unit: &acc_engine::facts::Unit) -> Vec<(String, u8)> {
    unit.constructs
        .iter()
        .filter_map(|c| routine_function(c).map(|name| (name, level_of(&c.directive))))
        .collect()
}

/// Which of a file's `routine` functions other files' kernels may call on a GPU, and which
/// it calls without defining them: what the runtime links a module with (relocatable device
/// code, as nvc's `-gpu=rdc`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoutineLinkage {
    /// Routines the file defines without `static`, in the order it defines them.
    pub provides: Vec<String>,
    /// Routines the file declares (a prototype), does not define and calls in device code:
    /// another file must define them.
    pub needs: Vec<String>,
}

/// The [`RoutineLinkage`] of a file's `routines` ([`routine_names`]), from its top-level
/// items (those of `#if` blocks included, as [`support`] takes them).
pub fn routine_linkage(
    src: &str,
    trees: &[tree_sitter::Tree],
    routines: &[String],
    compute: &[std::ops::Range<usize>],
) -> RoutineLinkage {
    let mut defined: Vec<(String, bool)> = Vec::new();
    let mut declared: Vec<String> = Vec::new();
    if routines.is_empty() {
        return RoutineLinkage::default();
    }
    // The device code: the compute constructs and the routines the file defines. A routine
    // it declares and no device code calls needs no device code of another file (a header
    // declaring every routine of a library, some of which plain C defines).
    let mut device = compute.to_vec();
    for n in items(trees) {
        let Some(name) = function_name(n, src).filter(|f| routines.contains(f)) else {
            continue;
        };
        if n.node_kind() == "function_definition" {
            device.push(n.byte_range());
            if !defined.iter().any(|(d, _)| *d == name) {
                defined.push((name, crate::syntax::has_storage_class(n, src, &["static"])));
            }
        } else if !declared.contains(&name) {
            declared.push(name);
        }
    }
    let called: Vec<String> = calls_within(trees, src, &device)
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    RoutineLinkage {
        needs: declared
            .into_iter()
            .filter(|d| !defined.iter().any(|(f, _)| f == d) && called.contains(d))
            .collect(),
        provides: defined
            .into_iter()
            .filter(|(_, local)| !local)
            .map(|(f, _)| f)
            .collect(),
    }
}

/// The file's top-level items.
fn items(trees: &[tree_sitter::Tree]) -> Vec<Node<'_>> {
    let mut items: Vec<Node> = Vec::new();
    for t in trees {
        collect(t.root_node(), &mut items);
    }
    items
}

/// The name of the function whose definition holds byte `at` of the file.
pub fn enclosing_function(trees: &[tree_sitter::Tree], src: &str, at: usize) -> Option<String> {
    items(trees)
        .into_iter()
        .filter(|n| n.node_kind() == "function_definition")
        .find(|n| n.start_byte() <= at && at < n.end_byte())
        .and_then(|n| function_name(n, src))
}

/// The name of the function whose body (not its parameters) holds byte `at` of the file.
pub fn function_whose_body_holds(
    trees: &[tree_sitter::Tree],
    src: &str,
    at: usize,
) -> Option<String> {
    items(trees)
        .into_iter()
        .filter(|n| n.node_kind() == "function_definition")
        .find(|n| {
            n.child_by_field_name("body")
                .is_some_and(|b| b.start_byte() <= at && at < b.end_byte())
        })
        .and_then(|n| function_name(n, src))
}

/// The functions of the file that an implicit `routine seq` applies to (OpenACC 3.3 2.15.1):
/// those it defines, without a `routine` directive of their own, that a compute construct
/// (`compute`: the constructs' spans) or a routine calls, and the functions those call in turn.
/// One that reads a file-scope variable no `declare` directive gives a device copy is a
/// routine too: the file then has no CUDA version, and `--info` and the launch on a GPU say
/// why (the module could not compile with the call anyway).
pub fn implicit_routines(
    src: &str,
    trees: &[tree_sitter::Tree],
    compute: &[std::ops::Range<usize>],
    explicit: &[String],
) -> Vec<String> {
    device_calls(src, trees, compute, explicit).1
}

/// What device code calls: the functions compute constructs (`compute`) and routines call,
/// and those the file's functions among them call in turn, whether the file defines them or
/// not (a header's); and the file's functions among them without a `routine` directive (the
/// implicit routines).
pub fn device_calls(
    src: &str,
    trees: &[tree_sitter::Tree],
    compute: &[std::ops::Range<usize>],
    explicit: &[String],
) -> (Vec<String>, Vec<String>) {
    let items = items(trees);
    let definitions: Vec<(String, Node)> = items
        .iter()
        .filter(|n| n.node_kind() == "function_definition")
        .filter_map(|n| function_name(*n, src).map(|f| (f, *n)))
        .collect();
    let called = |n: Node, out: &mut Vec<String>| {
        let mut calls = Vec::new();
        collect_calls(n, src, &mut calls);
        for c in calls {
            if !out.contains(&c) {
                out.push(c);
            }
        }
    };
    let mut wanted: Vec<String> = Vec::new();
    for (name, _) in calls_within(trees, src, compute) {
        if !wanted.contains(&name) {
            wanted.push(name);
        }
    }
    for (_, def) in definitions.iter().filter(|(f, _)| explicit.contains(f)) {
        called(*def, &mut wanted);
    }
    let mut implicit: Vec<String> = Vec::new();
    let mut i = 0;
    while i < wanted.len() {
        let name = wanted[i].clone();
        i += 1;
        if explicit.contains(&name) || implicit.contains(&name) {
            continue;
        }
        let Some((_, def)) = definitions.iter().find(|(f, _)| *f == name) else {
            continue;
        };
        implicit.push(name);
        called(*def, &mut wanted);
    }
    (wanted, implicit)
}

/// Functions a CUDA kernel may call without a `routine` directive: the math library, and what
/// CUDA's device runtime and acc's module provide.
fn device_callable(name: &str) -> bool {
    crate::deps::is_pure(name)
        || name.starts_with("__builtin_")
        || name.starts_with("acc_")
        || matches!(
            name,
            "printf"
                | "malloc"
                | "free"
                | "memcpy"
                | "memset"
                | "assert"
                // The prelude's `__trap()`: the kernel stops, and the launch reports it.
                | "abort"
                | "_Pragma"
                | "sizeof"
                // GNU C's `typeof`, which reads like a call (`sizeof(__typeof__(v))`).
                | "typeof"
                | "__typeof__"
                | "__typeof"
                // <math.h>'s classification macros, which CUDA has as functions.
                | "isnan"
                | "isinf"
                | "isfinite"
                | "isnormal"
                | "signbit"
                | "fpclassify"
                | "isgreater"
                | "isgreaterequal"
                | "isless"
                | "islessequal"
                | "islessgreater"
                | "isunordered"
                // <math.h>'s functions with side effects or of no one precision, which CUDA has.
                | "frexp"
                | "frexpf"
                | "modf"
                | "modff"
                | "remquo"
                | "remquof"
                | "nan"
                | "nanf"
                | "exp10"
                | "exp10f"
                | "scalbln"
                | "scalblnf"
                | "sincos"
                | "sincosf"
                | "j0"
                | "j0f"
                | "j1"
                | "j1f"
                | "jn"
                | "jnf"
                | "y0"
                | "y0f"
                | "y1"
                | "y1f"
                | "yn"
                | "ynf"
                | "lgamma"
                | "lgammaf"
                // <iso646.h>'s operator spellings, which read like calls (`not(x)`).
                | "and"
                | "or"
                | "not"
                | "not_eq"
                | "bitand"
                | "bitor"
                | "compl"
                | "xor"
                // Keywords and <stdint.h>'s constant macros, which read like calls.
                | "_Static_assert"
                | "static_assert"
                | "_Alignof"
                | "alignof"
                | "offsetof"
                | "INT8_C"
                | "INT16_C"
                | "INT32_C"
                | "INT64_C"
                | "UINT8_C"
                | "UINT16_C"
                | "UINT32_C"
                | "UINT64_C"
                | "INTMAX_C"
                | "UINTMAX_C"
                // <complex.h>, as the module's prelude defines it.
                | "creal"
                | "crealf"
                | "cimag"
                | "cimagf"
                | "conj"
                | "conjf"
                | "cabs"
                | "cabsf"
                | "carg"
                | "cargf"
                | "cexp"
                | "cexpf"
                | "clog"
                | "clogf"
                | "csqrt"
                | "csqrtf"
                | "cpow"
                | "cpowf"
                | "csin"
                | "csinf"
                | "ccos"
                | "ccosf"
                | "cproj"
                | "cprojf"
        )
}

/// The functions that compute constructs (`compute`: their spans) and the file's routines
/// (`routines`: explicit and implicit) call, that the file neither defines nor gives a
/// `routine` directive, and that a GPU cannot call otherwise ([`device_callable`]): each with
/// the byte offset of its first call. `known` leaves out other names (macros, variables
/// holding function pointers).
pub fn calls_without_device_version(
    src: &str,
    trees: &[tree_sitter::Tree],
    compute: &[std::ops::Range<usize>],
    routines: &[String],
    known: &dyn Fn(&str) -> bool,
) -> Vec<(String, usize)> {
    let items = items(trees);
    let defined: Vec<String> = items
        .iter()
        .filter(|n| n.node_kind() == "function_definition")
        .filter_map(|n| function_name(*n, src))
        .collect();
    let mut calls = calls_within(trees, src, compute);
    for n in items
        .iter()
        .filter(|n| n.node_kind() == "function_definition")
    {
        if function_name(*n, src).is_some_and(|f| routines.contains(&f)) {
            call_sites(*n, src, &mut calls);
        }
    }
    let mut out: Vec<(String, usize)> = Vec::new();
    for (name, at) in calls {
        if defined.contains(&name)
            || routines.contains(&name)
            || device_callable(&name)
            || known(&name)
            || out.iter().any(|(n, _)| *n == name)
        {
            continue;
        }
        out.push((name, at));
    }
    out
}

/// The names of the functions `n` calls directly (`f(…)`), in order.
fn collect_calls(n: Node, src: &str, out: &mut Vec<String>) {
    let mut sites = Vec::new();
    call_sites(n, src, &mut sites);
    out.extend(sites.into_iter().map(|(name, _)| name));
}

/// The functions `n` calls directly, each with where its name stands, in order.
/// The calls in the `spans` of the file (compute constructs' statements), in order. A span may
/// cover sibling nodes (a `#pragma acc loop` line and its loop): the calls are those of the
/// smallest node around it that lie inside the span.
pub(crate) fn calls_within(
    trees: &[tree_sitter::Tree],
    src: &str,
    spans: &[std::ops::Range<usize>],
) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for root in trees.iter().map(|t| t.root_node()) {
        for span in spans {
            if let Some(n) = root.descendant_for_byte_range(span.start, span.end) {
                let mut calls = Vec::new();
                call_sites(n, src, &mut calls);
                out.extend(calls.into_iter().filter(|(_, at)| span.contains(at)));
            }
        }
    }
    out
}

fn call_sites(n: Node, src: &str, out: &mut Vec<(String, usize)>) {
    if n.node_kind() == "call_expression" {
        if let Some(f) = n
            .child_by_field_name("function")
            .filter(|f| f.node_kind() == "identifier")
        {
            out.push((src[f.byte_range()].to_string(), f.start_byte()));
        }
    }
    let mut cursor = n.walk();
    let children: Vec<Node> = n.children(&mut cursor).collect();
    for c in children {
        call_sites(c, src, out);
    }
}

/// A file as [`support`] reads it: its text, its syntax trees ([`crate::syntax::parse`]), and
/// the arms of `#if` chains the compiler will not see (`acc_engine::facts::Unit::dead_branches`).
#[derive(Clone, Copy)]
pub struct FileText<'a> {
    pub src: &'a str,
    pub trees: &'a [tree_sitter::Tree],
    pub dead: &'a [acc_engine::Span],
}

/// The file's macros, type declarations and `routine` functions (made
/// `__device__`), in source order, with `#line` markers.
///
/// A routine reaches a file-scope variable `g` (which a `declare` directive
/// gives a device copy) through a device pointer named `pointers` + `g` (`__acc_gp_g` in a
/// module, whose kernels set it from an argument as they start: `bound`, in order, see
/// [`routine_globals`]; a routine library's, which the runtime sets when it links the library,
/// a name of the file's own) and a macro `g` that reads through it, around the routines. An error (where, as a byte offset, and why) when a routine uses a variable that
/// `declared` (the names of `declare` directives) does not list: it has no
/// device copy to reach.
pub fn support(
    file: &FileText,
    lines: &crate::line_map::LineMap,
    declared: &[String],
    bound: &[RoutineGlobal],
    routines: &[String],
    pointers: &str,
) -> Result<String, (usize, String)> {
    // What the compiler will not see is none of the module's (a `typedef` of the other
    // precision under `#else`).
    let FileText { src, trees, dead } = *file;
    let mut items = items(trees);
    // Nor what preprocessed text (`acc cc -c x.i`) holds of the system headers: the C
    // library's declarations, which the module's prelude gives NVRTC as a `.c` file's
    // `#include`s do.
    items.retain(|n| {
        !dead
            .iter()
            .any(|d| d.start <= n.start_byte() && n.end_byte() <= d.end)
            && !lines.in_system_header(n.start_byte())
    });
    if let Some(RoutineGlobal { name: g, at, .. }) = bound
        .iter()
        .find(|g| !declared.contains(&g.name) && g.constant.is_none())
    {
        return Err((
            *at,
            format!(
                "the routine uses the file-scope variable `{g}`, which no `declare` directive \
                 gives a device copy (add `#pragma acc declare create({g})` or `copyin({g})`)"
            ),
        ));
    }
    let mut out = String::new();
    // A routine of a name the prelude takes for a macro (a file's own `fmax`, which C lets
    // the program's definition replace): the module's calls, the definition's name included,
    // go to the file's function under a name of its own.
    // (Only one the file defines: `routine(fmin) seq` names the library's, the prelude's.)
    let defined: Vec<String> = items
        .iter()
        .filter(|n| n.node_kind() == "function_definition")
        .filter_map(|n| function_name(*n, src))
        .collect();
    let mut own: Vec<&str> = acc_engine::cuda::prelude_macro_names()
        .filter(|m| routines.iter().any(|r| r == m) && defined.iter().any(|d| d == m))
        .collect();
    own.sort_unstable();
    own.dedup();
    for name in own {
        out.push_str(&format!(
            "#undef {name}\n#define {name} __acc_user_{name}\n"
        ));
    }
    let mut pointers_done = false;
    let (mut define, mut undef) = (String::new(), String::new());
    let declared_at = |g: &RoutineGlobal| globals::declaration_start(&items, src, &g.name);
    // A global's device pointer (`__device__ T (*__acc_gp_g)[N];`, and the macro `g` that
    // routines read it through), or its own copy when it is a constant.
    let device_global = |global: &RoutineGlobal,
                         out: &mut String,
                         define: &mut String,
                         undef: &mut String|
     -> Result<(), (usize, String)> {
        if !global.through_pointer(declared) {
            out.push_str(global.constant.as_deref().unwrap_or_default());
            out.push('\n');
            return Ok(());
        }
        let RoutineGlobal {
            name: g,
            at,
            header_declaration,
            ..
        } = global;
        let from_header = header_declaration.as_ref().map(|(text, name)| {
            format!(
                "{}(*{pointers}{g}){}",
                &text[..name.start],
                &text[name.end..]
            )
        });
        let Some(decl) = from_header.or_else(|| pointer_declaration(&items, src, g, pointers))
        else {
            return Err((*at, format!("cannot declare a device pointer to `{g}`")));
        };
        out.push_str(&format!("__device__ {decl};\n"));
        define.push_str(&format!("#define {g} (*{pointers}{g})\n"));
        undef.push_str(&format!("#undef {g}\n"));
        Ok(())
    };
    // A routine that calls one the file defines later, declared only in a header (XSBench's
    // `grid_search`): the module has no header prototypes, so the callee's goes first.
    let prototypes: Vec<(String, String)> = items
        .iter()
        .filter(|n| n.node_kind() == "function_definition")
        .filter_map(|n| {
            let name = function_name(*n, src).filter(|f| routines.contains(f))?;
            let body = n.child_by_field_name("body")?;
            let text = parameters::device_parameters(*n, src);
            let head = text[..text.len() - (n.end_byte() - body.start_byte())].trim_end();
            Some((
                name,
                format!("__device__ {};\n", without_acc_pragmas(head).trim()),
            ))
        })
        .collect();
    let mut prototyped: Vec<String> = Vec::new();
    for n in &items {
        let text = &src[n.byte_range()];
        let routine = matches!(n.node_kind(), "declaration" | "function_definition")
            && function_name(*n, src).is_some_and(|f| routines.contains(&f));
        if routine {
            if let Some(f) = function_name(*n, src) {
                if n.node_kind() == "function_definition" {
                    let mut calls = Vec::new();
                    collect_calls(*n, src, &mut calls);
                    for c in calls.iter().filter(|c| **c != f) {
                        if prototyped.contains(c) {
                            continue;
                        }
                        if let Some((_, proto)) = prototypes.iter().find(|(p, _)| p == c) {
                            out.push_str(proto);
                            prototyped.push(c.clone());
                        }
                    }
                }
                prototyped.push(f);
            }
        }
        if routine && !pointers_done {
            // Before the first routine: the device pointers of the globals the file does not
            // declare itself (a header's).
            pointers_done = true;
            for global in bound.iter().filter(|g| declared_at(g).is_none()) {
                device_global(global, &mut out, &mut define, &mut undef)?;
            }
        }
        // A macro a function defines in its body (`#define CELL(x, j) …` before the loop
        // that uses it) is defined from there on, kernels included.
        if n.node_kind() == "function_definition" && !routine {
            let mut nested = Vec::new();
            macros_within(*n, &mut nested);
            for m in nested {
                let place = lines.place(m.start_byte());
                out.push_str(&format!(
                    "#line {} \"{}\"\n{}\n",
                    place.line,
                    place.file.replace('\\', "\\\\"),
                    src[m.byte_range()].trim_end()
                ));
            }
        }
        let keep = match n.node_kind() {
            // A portable header's `#define __device__` (for compilers that are not CUDA's)
            // would take CUDA's own meaning away.
            "preproc_def" | "preproc_function_def"
                if n.child_by_field_name("name")
                    .is_some_and(|m| CUDA_RESERVED_MACROS.contains(&&src[m.byte_range()])) =>
            {
                None
            }
            "preproc_def" | "preproc_function_def" | "type_definition" => Some(text.to_string()),
            // `#pragma pack(1)` … `#pragma pack()` around a struct: the module's layout must be
            // the host's (NVRTC knows the pragma).
            "preproc_call" if is_pack_pragma(text) => Some(text.to_string()),
            "declaration" if is_type_only(*n) => Some(text.to_string()),
            // `struct S {…} SS[N];`: the type, which kernels name by its tag.
            "declaration" if !routine && defined_type(*n).is_some() => {
                defined_type(*n).map(|t| format!("{};", &src[t.byte_range()]))
            }
            "struct_specifier" | "union_specifier" | "enum_specifier" => Some(format!("{text};")),
            "declaration" | "function_definition" if routine => Some(format!(
                "__device__ {}",
                without_acc_pragmas(&parameters::device_parameters(*n, src))
            )),
            _ => None,
        };
        let keep = keep.map(|text| match routine {
            false => nested_tags::nested_tags_hoisted(&text).unwrap_or(text),
            true => text,
        });
        if let Some(text) = keep {
            let place = lines.place(n.start_byte());
            // The macros only around routines: elsewhere the names may mean something else
            // (a member, a parameter of a macro).
            if routine {
                out.push_str(&define);
            }
            let piece = format!(
                "#line {} \"{}\"\n{}\n",
                place.line,
                place.file.replace('\\', "\\\\"),
                text.trim_end()
            );
            match flexible::flexible_type_names(*n, src).filter(|_| !routine) {
                Some(names) => out.push_str(&flexible::marked(&names, &piece)),
                None => out.push_str(&piece),
            }
            if routine {
                out.push_str(&undef);
            }
        }
        // After the file's declaration of a global, whose types come before it (a routine
        // that uses it cannot come sooner): its device pointer.
        for global in bound
            .iter()
            .filter(|g| declared_at(g) == Some(n.start_byte()))
        {
            device_global(global, &mut out, &mut define, &mut undef)?;
        }
    }
    Ok(out)
}

/// The items of the program's headers a module needs: each that defines a name the module's
/// text uses, and then each that defines a name those items use, in the headers' order. Only
/// what is used comes along, so a header declaration NVRTC cannot compile (a `FILE *`, a
/// function of the host's libraries) does not cost the file its CUDA version.
pub fn header_support(items: &[crate::types::HeaderItem], module: &str) -> String {
    fn words(text: &str) -> impl Iterator<Item = &str> {
        text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
    }
    let mut used: std::collections::HashSet<&str> = words(module).collect();
    let mut taken = vec![false; items.len()];
    loop {
        let mut grew = false;
        for (i, item) in items.iter().enumerate() {
            if !taken[i] && item.names.iter().any(|n| used.contains(n.as_str())) {
                taken[i] = true;
                grew = true;
                used.extend(words(&item.text));
            }
        }
        if !grew {
            break;
        }
    }
    let mut out = String::new();
    for (item, _) in items.iter().zip(&taken).filter(|(item, &t)| {
        t && !item
            .names
            .iter()
            .any(|n| CUDA_RESERVED_MACROS.contains(&n.as_str()))
    }) {
        match nested_tags::nested_tags_hoisted(&item.text) {
            Some(text) => out.push_str(&text),
            None => out.push_str(&item.text),
        }
        out.push('\n');
    }
    out
}

/// The macro definitions inside `n` (a function's body), in source order.
fn macros_within<'t>(n: Node<'t>, out: &mut Vec<Node<'t>>) {
    let mut cursor = n.walk();
    let children: Vec<Node<'t>> = n.named_children(&mut cursor).collect();
    for c in children {
        match c.node_kind() {
            "preproc_def" | "preproc_function_def" => out.push(c),
            _ => macros_within(c, out),
        }
    }
}

/// Top-level items, looking inside `#if`/`#ifdef` blocks.
pub(crate) fn collect<'t>(node: Node<'t>, out: &mut Vec<Node<'t>>) {
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        match child.node_kind() {
            "preproc_if" | "preproc_ifdef" | "preproc_else" | "preproc_elif" => collect(child, out),
            _ => out.push(child),
        }
    }
}

/// CUDA's keywords that C code defines away for other compilers (`#ifndef __CUDACC__` /
/// `#define __device__`): the module keeps CUDA's meaning.
pub(crate) const CUDA_RESERVED_MACROS: &[&str] = &[
    "__device__",
    "__host__",
    "__global__",
    "__forceinline__",
    "__noinline__",
    "__shared__",
    "__constant__",
    "__managed__",
    "__launch_bounds__",
];

/// Whether `line` is a `#pragma pack` line.
fn is_pack_pragma(line: &str) -> bool {
    line.trim_start()
        .strip_prefix('#')
        .map(str::trim_start)
        .and_then(|l| l.strip_prefix("pragma"))
        .is_some_and(|l| {
            let l = l.trim_start();
            l.starts_with("pack") && !l[4..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
        })
}

/// `struct s { … };`, `enum e { … };` and the like: a declaration that
/// declares only a type.
fn is_type_only(n: Node) -> bool {
    n.child_by_field_name("declarator").is_none()
        && n.child_by_field_name("type").is_some_and(|t| {
            matches!(
                t.node_kind(),
                "struct_specifier" | "union_specifier" | "enum_specifier"
            ) && t.child_by_field_name("body").is_some()
        })
}

/// The tagged struct, union or enum type that a declaration of objects defines as it
/// declares them (`struct S {…} SS[N];`).
fn defined_type(n: Node) -> Option<Node> {
    let t = n.child_by_field_name("type")?;
    (matches!(
        t.node_kind(),
        "struct_specifier" | "union_specifier" | "enum_specifier"
    ) && t.child_by_field_name("body").is_some()
        && t.child_by_field_name("name").is_some())
    .then_some(t)
}

/// The name a function definition or prototype declares.
fn function_name(n: Node, src: &str) -> Option<String> {
    if !matches!(n.node_kind(), "function_definition" | "declaration") {
        return None;
    }
    match derived(n.child_by_field_name("declarator")?) {
        (Some("function_declarator"), Some(id)) => Some(src[id.byte_range()].to_string()),
        _ => None,
    }
}

/// A routine's text without its `#pragma acc` lines (its loops run in
/// order on the thread that calls it, as on the host).
fn without_acc_pragmas(text: &str) -> String {
    text.lines()
        .map(|l| {
            let t = l.trim_start();
            if t.starts_with("#pragma") && t["#pragma".len()..].trim_start().starts_with("acc") {
                ""
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests;
