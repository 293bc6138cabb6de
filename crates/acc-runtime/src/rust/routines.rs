//! `#[acc::routine]` functions in the CUDA form of Rust kernels: the descriptors the macros emit
//! and the module source with the routines a module's kernels call, assembled once.
//!
//! A proc macro sees one item, so a kernel's macro cannot read the body of a routine it calls.
//! The routine's macro therefore emits, next to `fn foo`, a hidden `struct foo {}` (types and
//! functions live in different namespaces, so both may be named `foo`, and `use m::foo`
//! imports both) whose `foo::__acc_routine()` returns the routine's [`CudaRoutine`]. The caller's
//! C text calls each routine through an alias (`__acc_call_3foo`), and its expansion records a
//! [`RoutineCall`] per callee, found by the path the user wrote:
//!
//! ```ignore
//! routine: {
//!     use util::foo as __acc_callee;                   // imports the struct too, if any
//!     use ::acc::__private::not_a_routine::*;           // a glob: shadowed by the line above
//!     __acc_callee::__acc_routine
//! },
//! ```
//!
//! so a function that is not a routine resolves to [`NotARoutine`] instead of failing to
//! compile. [`assemble`] walks the calls from a module, and writes each routine reached once:
//! prototypes first (routines may call each other, and themselves), then the definitions, each
//! with `#define`s that bind its aliases to the callees' names, then the kernels' aliases.

use super::CudaModule;
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write;
use std::sync::OnceLock;

/// The CUDA form of an `#[acc::routine]` function: the parts of a `__device__` function, or why
/// there is none.
#[derive(Debug)]
pub struct CudaRoutine {
    /// The Rust function; empty for [`NotARoutine`].
    pub function: &'static str,
    pub file: &'static str,
    pub line: u32,
    /// The Rust parameter and result types, as [`RoutineCall`] writes them.
    pub signature: &'static [&'static str],
    pub rust_ret: &'static str,
    /// The C return type.
    pub ret: &'static str,
    /// The C parameter list.
    pub params: &'static str,
    /// Per Rust parameter, its C type (empty for a slice): a caller's C text names the type of
    /// an argument that only the signature decides `<alias>_a<k>`, and of the result
    /// `<alias>_r`.
    pub param_types: &'static [&'static str],
    /// `{ ... }`, calling routines through the aliases of `calls`.
    pub body: &'static str,
    pub calls: &'static [RoutineCall],
    /// Why the routine has no CUDA form: where and why.
    pub missing: &'static [(&'static str, u32, &'static str)],
}

impl CudaRoutine {
    fn is_routine(&self) -> bool {
        !self.function.is_empty()
    }
}

/// A call in some CUDA text: the callee (a routine, or [`NotARoutine`]), the path as written,
/// the alias the text calls, where the call is, and the types the translation assumed for the
/// arguments and the result (`f32`, `&[f64]`, `&mut [u8]`; `_`: the signature's).
#[derive(Debug)]
pub struct RoutineCall {
    pub routine: fn() -> &'static CudaRoutine,
    pub name: &'static str,
    pub alias: &'static str,
    pub file: &'static str,
    pub line: u32,
    pub args: &'static [&'static str],
    pub ret: &'static str,
}

impl RoutineCall {
    /// Whether the routine's signature is the one the translation assumed. Rust code that
    /// compiles always agrees (the translation takes types only from the code around the call,
    /// as rustc does), so this guards the translation, not the user's code: rustc reports an
    /// ill-typed call itself, and a generated compile-time check would say it twice.
    fn agrees(&self, r: &CudaRoutine) -> bool {
        let same = |assumed: &str, real: &str| {
            // A `&mut` slice also passes for a `&` one.
            let shared = matches!(
                (assumed.strip_prefix("&mut "), real.strip_prefix('&')),
                (Some(a), Some(b)) if a == b
            );
            assumed == "_" || assumed == real || shared
        };
        self.args.len() == r.signature.len()
            && self.args.iter().zip(r.signature).all(|(a, s)| same(a, s))
            && same(self.ret, r.rust_ret)
    }
}

/// What a call of a function that is not an `#[acc::routine]` finds (see the module docs).
pub struct NotARoutine {}

impl NotARoutine {
    pub fn __acc_routine() -> &'static CudaRoutine {
        static NONE: CudaRoutine = CudaRoutine {
            function: "",
            file: "",
            line: 0,
            signature: &[],
            rust_ret: "",
            ret: "",
            params: "",
            param_types: &[],
            body: "",
            calls: &[],
            missing: &[],
        };
        &NONE
    }
}

/// The fallback a caller's expansion glob-imports next to its import of the callee.
pub mod not_a_routine {
    pub use super::NotARoutine as __acc_callee;
}

/// Why a module has no CUDA form: where and why.
pub(super) type Problem = (&'static str, u32, String);

/// A module's source with its routines, computed once.
#[derive(Debug, Default)]
pub struct Assembled(OnceLock<Result<Cow<'static, str>, Vec<Problem>>>);

impl Assembled {
    pub const fn new() -> Self {
        Assembled(OnceLock::new())
    }
}

/// The module's source, with the routines its kernels call, or every reason it has none.
pub(super) fn assemble(m: &'static CudaModule) -> &'static Result<Cow<'static, str>, Vec<Problem>> {
    m.assembled.0.get_or_init(|| {
        let mut problems: Vec<Problem> = m
            .missing
            .iter()
            .map(|&(file, line, why)| (file, line, why.to_string()))
            .collect();
        if !problems.is_empty() {
            return Err(problems);
        }
        if m.calls.is_empty() {
            return Ok(Cow::Borrowed(m.source));
        }
        let mut order = Vec::new();
        let mut index = HashMap::new();
        reach(m.calls, &[], &mut order, &mut index, &mut problems);
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(Cow::Owned(write_module(m, &order, &index)))
    })
}

/// Adds the routines `calls` reach to `order`, each once (keyed by address), or the reasons
/// one has no CUDA form; `via` is the chain of routine calls that led here, for messages.
fn reach(
    calls: &'static [RoutineCall],
    via: &[&'static RoutineCall],
    order: &mut Vec<&'static CudaRoutine>,
    index: &mut HashMap<*const CudaRoutine, usize>,
    problems: &mut Vec<Problem>,
) {
    for call in calls {
        let r = (call.routine)();
        // A problem is reported at the module's own call, naming the calls that lead to it.
        let (file, line) = via
            .first()
            .map_or((call.file, call.line), |c| (c.file, c.line));
        let callee = match via.split_first() {
            None => format!("`{}`", call.name),
            Some((first, rest)) => {
                let mut s = format!("the routine `{}`", first.name);
                for c in rest {
                    let _ = write!(s, " → `{}` ({}:{})", c.name, c.file, c.line);
                }
                let _ = write!(
                    s,
                    " calls `{}` ({}:{}), which",
                    call.name, call.file, call.line
                );
                s
            }
        };
        if !r.is_routine() {
            problems.push((
                file,
                line,
                format!(
                    "{callee} is not an `#[acc::routine]` function, so device code cannot call \
                     it; mark it `#[acc::routine(seq)]`"
                ),
            ));
            continue;
        }
        if !r.missing.is_empty() {
            let why: Vec<String> = r
                .missing
                .iter()
                .map(|(f, l, w)| format!("{f}:{l}: {w}"))
                .collect();
            let callee = if via.is_empty() {
                format!("the routine {callee}")
            } else {
                callee
            };
            problems.push((
                file,
                line,
                format!("{callee} has no CUDA form: {}", why.join("; ")),
            ));
            continue;
        }
        if !call.agrees(r) {
            problems.push((
                file,
                line,
                format!(
                    "the CUDA form of the call of `{}` at {}:{} assumed `fn({}) -> {}`, but \
                     the routine is `fn({}) -> {}`; this is a bug in acc's translation, please \
                     report it (and give the arguments' types explicitly to work around it)",
                    call.name,
                    call.file,
                    call.line,
                    call.args.join(", "),
                    call.ret,
                    r.signature.join(", "),
                    r.rust_ret
                ),
            ));
            continue;
        }
        let key = r as *const CudaRoutine;
        if index.contains_key(&key) {
            continue;
        }
        index.insert(key, order.len());
        order.push(r);
        let mut deeper = via.to_vec();
        deeper.push(call);
        reach(r.calls, &deeper, order, index, problems);
    }
}

/// The C name of routine `k` of the module.
fn c_name(k: usize, r: &CudaRoutine) -> String {
    format!("__acc_rt{k}_{}", r.function)
}

fn aliases(
    out: &mut String,
    calls: &[RoutineCall],
    index: &HashMap<*const CudaRoutine, usize>,
    order: &[&CudaRoutine],
    define: bool,
) {
    let mut seen = Vec::new();
    for c in calls {
        if seen.contains(&c.alias) {
            continue;
        }
        seen.push(c.alias);
        let r = (c.routine)();
        let mut names = vec![(c.alias.to_string(), String::new())];
        if r.ret != "void" {
            names.push((format!("{}_r", c.alias), r.ret.to_string()));
        }
        for (k, t) in r.param_types.iter().enumerate() {
            if !t.is_empty() {
                names.push((format!("{}_a{k}", c.alias), t.to_string()));
            }
        }
        for (name, ty) in names {
            if !define {
                let _ = writeln!(out, "#undef {name}");
            } else if ty.is_empty() {
                let k = index[&(r as *const CudaRoutine)];
                let _ = writeln!(out, "#define {name} {}", c_name(k, order[k]));
            } else {
                let _ = writeln!(out, "#define {name} {ty}");
            }
        }
    }
}

fn write_module(
    m: &CudaModule,
    order: &[&'static CudaRoutine],
    index: &HashMap<*const CudaRoutine, usize>,
) -> String {
    let (head, kernels) = m.source.split_at(m.kernels_at);
    let mut out = String::from(head);
    out.push_str("\n/* #[acc::routine] functions (acc-macros), declared before any use. */\n");
    for (k, r) in order.iter().enumerate() {
        let _ = writeln!(
            out,
            "static __device__ {} {}({});",
            r.ret,
            c_name(k, r),
            r.params
        );
    }
    for (k, r) in order.iter().enumerate() {
        let _ = writeln!(out, "\n/* {}:{}: {} */", r.file, r.line, r.function);
        aliases(&mut out, r.calls, index, order, true);
        let _ = write!(
            out,
            "static __device__ {} {}({}) {}",
            r.ret,
            c_name(k, r),
            r.params,
            r.body
        );
        aliases(&mut out, r.calls, index, order, false);
    }
    out.push('\n');
    aliases(&mut out, m.calls, index, order, true);
    out.push_str(kernels);
    out
}
