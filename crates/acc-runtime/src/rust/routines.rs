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

use super::types::{self, CTypes};
use super::{CudaModule, CudaType};
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
    /// The user types its text names.
    pub types: &'static [CudaType],
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
    /// Routines say `true` (see acc-macros' `require_routines`).
    pub const __ACC_IS_ROUTINE: bool = false;

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
            types: &[],
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
        if m.calls.is_empty() && m.types.is_empty() {
            return Ok(Cow::Borrowed(m.source));
        }
        let mut order = Vec::new();
        let mut index = HashMap::new();
        reach(m.calls, &[], &mut order, &mut index, &mut problems);
        if !problems.is_empty() {
            return Err(problems);
        }
        write_module(m, &order, &index)
            .map(Cow::Owned)
            .ok_or_else(|| {
                vec![(
                    "",
                    0,
                    format!(
                        "a type the CUDA form of `{}` uses has no C declaration: implement \
                     `DeviceCopy` with `#[derive(acc::DeviceCopy)]`",
                        m.function
                    ),
                )]
            })
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
    decls: &mut CTypes,
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
            names.push((
                format!("{}_r", c.alias),
                types::resolve(r.ret, r.types, decls),
            ));
        }
        for (k, t) in r.param_types.iter().enumerate() {
            if !t.is_empty() {
                names.push((
                    format!("{}_a{k}", c.alias),
                    types::resolve(t, r.types, decls),
                ));
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

/// The module with its user types and routines; `None` when a type has no C form.
fn write_module(
    m: &CudaModule,
    order: &[&'static CudaRoutine],
    index: &HashMap<*const CudaRoutine, usize>,
) -> Option<String> {
    let (head, kernels) = m.source.split_at(m.kernels_at);
    let mut decls = CTypes::default();
    let mut body = String::new();
    if !order.is_empty() {
        body.push_str("\n/* #[acc::routine] functions (acc-macros), declared before any use. */\n");
    }
    for (k, r) in order.iter().enumerate() {
        types::aliases(&mut body, r.types, &mut decls, true)?;
        let _ = writeln!(
            body,
            "static __device__ {} {}({});",
            r.ret,
            c_name(k, r),
            r.params
        );
        types::aliases(&mut body, r.types, &mut decls, false)?;
    }
    for (k, r) in order.iter().enumerate() {
        let _ = writeln!(body, "\n/* {}:{}: {} */", r.file, r.line, r.function);
        types::aliases(&mut body, r.types, &mut decls, true)?;
        aliases(&mut body, r.calls, index, order, &mut decls, true);
        let _ = write!(
            body,
            "static __device__ {} {}({}) {}",
            r.ret,
            c_name(k, r),
            r.params,
            r.body
        );
        aliases(&mut body, r.calls, index, order, &mut decls, false);
        types::aliases(&mut body, r.types, &mut decls, false)?;
    }
    body.push('\n');
    types::aliases(&mut body, m.types, &mut decls, true)?;
    aliases(&mut body, m.calls, index, order, &mut decls, true);
    let mut out = String::from(head);
    if !decls.text().is_empty() {
        out.push_str("\n/* Rust types (#[derive(acc::DeviceCopy)]). */\n");
        out.push_str(decls.text());
    }
    out.push_str(&body);
    out.push_str(kernels);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn call(
        routine: fn() -> &'static CudaRoutine,
        name: &'static str,
        alias: &'static str,
        line: u32,
        args: &'static [&'static str],
        ret: &'static str,
    ) -> RoutineCall {
        RoutineCall {
            routine,
            name,
            alias,
            file: "k.rs",
            line,
            args,
            ret,
        }
    }

    const fn routine(
        function: &'static str,
        signature: &'static [&'static str],
        body: &'static str,
        calls: &'static [RoutineCall],
        missing: &'static [(&'static str, u32, &'static str)],
    ) -> CudaRoutine {
        CudaRoutine {
            function,
            file: "r.rs",
            line: 10,
            signature,
            rust_ret: "f32",
            ret: "float",
            params: "const float v_",
            param_types: &["float"],
            body,
            calls,
            types: &[],
            missing,
        }
    }

    const fn module(calls: &'static [RoutineCall]) -> CudaModule {
        CudaModule {
            function: "k",
            source: "HEAD\nKERNELS\n",
            entries: &[],
            missing: &[],
            calls,
            types: &[],
            kernels_at: 5,
            assembled: Assembled::new(),
        }
    }

    /// `f` calls itself and `g`.
    static F: CudaRoutine = routine(
        "f",
        &["f32"],
        "{ return __acc_call_1f(__acc_call_1g(v_)); }\n",
        &[
            call(|| &F, "f", "__acc_call_1f", 11, &["f32"], "f32"),
            call(|| &G, "g", "__acc_call_1g", 11, &["_"], "_"),
        ],
        &[],
    );
    static G: CudaRoutine = routine("g", &["f32"], "{ return v_; }\n", &[], &[]);

    #[test]
    fn routines_are_declared_then_defined_once_each_before_the_kernels() {
        // Two calls of `f` (one through a path) and one of `g`.
        static M: CudaModule = module(&[
            call(|| &F, "f", "__acc_call_1f", 3, &["f32"], "f32"),
            call(|| &G, "g", "__acc_call_1g", 4, &["f32"], "_"),
            call(|| &F, "m::f", "__acc_call_1m_1f", 5, &["_"], "_"),
        ]);
        let want = "HEAD\n
/* #[acc::routine] functions (acc-macros), declared before any use. */
static __device__ float __acc_rt0_f(const float v_);
static __device__ float __acc_rt1_g(const float v_);

/* r.rs:10: f */
#define __acc_call_1f __acc_rt0_f
#define __acc_call_1f_r float
#define __acc_call_1f_a0 float
#define __acc_call_1g __acc_rt1_g
#define __acc_call_1g_r float
#define __acc_call_1g_a0 float
static __device__ float __acc_rt0_f(const float v_) { return __acc_call_1f(__acc_call_1g(v_)); }
#undef __acc_call_1f
#undef __acc_call_1f_r
#undef __acc_call_1f_a0
#undef __acc_call_1g
#undef __acc_call_1g_r
#undef __acc_call_1g_a0

/* r.rs:10: g */
static __device__ float __acc_rt1_g(const float v_) { return v_; }

#define __acc_call_1f __acc_rt0_f
#define __acc_call_1f_r float
#define __acc_call_1f_a0 float
#define __acc_call_1g __acc_rt1_g
#define __acc_call_1g_r float
#define __acc_call_1g_a0 float
#define __acc_call_1m_1f __acc_rt0_f
#define __acc_call_1m_1f_r float
#define __acc_call_1m_1f_a0 float
KERNELS\n";
        assert!(M.complete(), "{}", M.reasons());
        assert_eq!(M.cuda_source(), Some(want));
        // Computed once: the same text, at the same address (the JIT cache's key).
        assert!(std::ptr::eq(
            M.cuda_source().unwrap(),
            M.cuda_source().unwrap()
        ));
    }

    #[test]
    fn a_module_without_calls_is_its_source() {
        static M: CudaModule = module(&[]);
        assert!(std::ptr::eq(M.cuda_source().unwrap(), M.source));
    }

    #[test]
    fn a_function_that_is_not_a_routine_is_a_reason() {
        static M: CudaModule = module(&[call(
            NotARoutine::__acc_routine,
            "helper",
            "__acc_call_6helper",
            7,
            &["f32"],
            "f32",
        )]);
        assert!(!M.complete());
        assert_eq!(M.cuda_source(), None);
        assert_eq!(
            M.reasons(),
            "k.rs:7: `helper` is not an `#[acc::routine]` function, so device code cannot call \
             it; mark it `#[acc::routine(seq)]`"
        );
    }

    #[test]
    fn a_routine_without_a_form_is_a_reason_for_every_caller() {
        static BAD: CudaRoutine =
            routine("bad", &["f32"], "", &[], &[("r.rs", 20, "`v.tanh()`: why")]);
        static VIA: CudaRoutine = routine(
            "via",
            &["f32"],
            "{}",
            &[call(|| &BAD, "bad", "__acc_call_3bad", 31, &["f32"], "f32")],
            &[],
        );
        static M: CudaModule = module(&[
            call(|| &BAD, "bad", "__acc_call_3bad", 8, &["f32"], "f32"),
            call(
                || &VIA,
                "util::via",
                "__acc_call_4util_3via",
                9,
                &["f32"],
                "f32",
            ),
        ]);
        assert_eq!(
            M.reasons(),
            "k.rs:8: the routine `bad` has no CUDA form: r.rs:20: `v.tanh()`: why\n\
             k.rs:9: the routine `util::via` calls `bad` (k.rs:31), which has no CUDA form: \
             r.rs:20: `v.tanh()`: why"
        );
    }

    #[test]
    fn the_assumed_signature_must_be_the_routines() {
        let r = routine("r", &["f32", "&[f64]", "&mut [u8]"], "", &[], &[]);
        let agrees = |args: &'static [&'static str], ret: &'static str| {
            call(|| &G, "r", "__acc_call_1r", 1, args, ret).agrees(&r)
        };
        assert!(agrees(&["f32", "&[f64]", "&mut [u8]"], "f32"));
        // The signature's own types, and a `&mut` slice passed for a `&` one.
        assert!(agrees(&["_", "&mut [f64]", "&mut [u8]"], "_"));
        assert!(!agrees(&["f64", "&[f64]", "&mut [u8]"], "f32"));
        assert!(!agrees(&["f32", "&[f64]", "&[u8]"], "f32"));
        assert!(!agrees(&["f32", "&[f32]", "&mut [u8]"], "f32"));
        assert!(!agrees(&["f32", "&[f64]", "&mut [u8]"], "f64"));
        assert!(!agrees(&["f32", "&[f64]"], "f32"));
        static M: CudaModule = module(&[call(|| &G, "g", "__acc_call_1g", 6, &["f64"], "f32")]);
        assert_eq!(
            M.reasons(),
            "k.rs:6: the CUDA form of the call of `g` at k.rs:6 assumed `fn(f64) -> f32`, but \
             the routine is `fn(f32) -> f32`; this is a bug in acc's translation, please report \
             it (and give the arguments' types explicitly to work around it)"
        );
    }
}
