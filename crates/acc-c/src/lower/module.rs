//! The file's assembly: the CUDA module of its kernels (with what the file and its headers
//! define that they use), the module's declaration in the host C, the `routine`s' file-scope
//! variables reached through the runtime, and the host file put together from the prelude,
//! the prototypes, the edited user text and the kernels ([`Parts`], for `crate::split`).
//!
//! It must not lower constructs; it takes what the other modules made.

use super::*;
use crate::cuda::RoutineGlobal;

/// The `declare`d file-scope variables' names.
pub(super) fn declared_globals(unit: &Unit) -> Vec<String> {
    unit.constructs
        .iter()
        .filter(|c| c.directive.kind == DirectiveKind::Declare)
        .flat_map(|c| c.clause_vars.iter().flatten().flatten())
        .filter(|&&v| unit.var(v).is_global)
        .map(|&v| unit.var(v).name.clone())
        .collect()
}

impl Lowerer<'_> {
    /// A `routine` reaches a `declare`d file-scope variable through the runtime on the CPU
    /// devices; every kernel passes the CUDA module the device copies of those `bound`.
    pub(super) fn bind_routine_globals(&mut self, bound: &[RoutineGlobal], declared: &[String]) {
        for g in bound.iter().filter(|g| declared.contains(&g.name)) {
            for at in &g.uses {
                self.edits.push(Edit {
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
        // A constant's module has its own copy: no device pointer for the kernels to set.
        self.routine_globals = bound
            .iter()
            .filter(|g| g.through_pointer(declared))
            .map(|g| g.name.clone())
            .collect();
    }

    /// Whether the program includes the C library's `<NAME.h>`: the file names it, or (when
    /// the program's headers were read) the macros it defines are defined, as where one of
    /// the program's own headers includes it (lattice-QCD's `struct_c_def.h`).
    fn includes_header(&self, name: &str) -> bool {
        if self.src.contains(&format!("<{name}.h>")) {
            return true;
        }
        let defines =
            |m: &str, body: &str| self.macros.get(m).is_some_and(|d| d.body.trim() == body);
        match name {
            // glibc's and musl's <complex.h>: `complex` is `_Complex`.
            "complex" => defines("complex", "_Complex"),
            // <tgmath.h>'s guard (glibc `_TGMATH_H`, musl `_TGMATH_H`).
            "tgmath" => self.macros.contains_key("_TGMATH_H"),
            _ => false,
        }
    }

    /// One CUDA module per file: the runtime compiles it once, on the first launch of any of
    /// its kernels on a GPU. `None` when no kernel has a CUDA version, or the file's routines
    /// cannot have one (said in `--info`). With it, the file's routine library, when the file
    /// defines routines other files' kernels may call ([`DeviceCode`]).
    pub(super) fn cuda_module(
        &mut self,
        declared: &[String],
        bound: &[RoutineGlobal],
        routines: &[String],
        header_items: &[crate::types::HeaderItem],
    ) -> DeviceCode {
        let compute = super::compute_bodies(self.unit);
        let linkage = crate::cuda::routine_linkage(self.src, self.trees, routines, &compute);
        if self.cuda_kernels.is_empty() && linkage.provides.is_empty() {
            return DeviceCode::default();
        }
        // The file's part of the text, its routines reaching `declare`d globals through
        // pointers whose names start with `pointers`.
        let support_with = |pointers: &str| {
            crate::cuda::support(
                &crate::cuda::FileText {
                    // The routines as the compiler sees them: a `#if` chain that splits a
                    // function's braces (its header under `#ifdef`/`#else`) resolved.
                    src: self.view,
                    trees: self.trees,
                    dead: &self.unit.dead_branches,
                },
                &self.lines,
                declared,
                bound,
                routines,
                pointers,
            )
            .map(|own| crate::cuda::as_preprocessed(&own, self.macros))
        };
        // A refusal `warn_device_vlas` met was said there already.
        let said = self.module_refusal.is_some();
        let support = match self
            .module_refusal
            .clone()
            .map_or_else(|| support_with("__acc_gp_"), Err)
        {
            Ok(support) => support,
            Err((at, why)) => {
                // The CPU devices run the file's kernels; a GPU cannot run any: said at build
                // time, before a launch on a GPU fails.
                let end = self.src[at..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .map_or(self.src.len(), |k| at + k);
                if !said {
                    self.diags.push(Diagnostic::warning(
                        acc_engine::span::Span::new(at, end.max(at + 1).min(self.src.len())),
                        format!(
                            "this file's kernels have no CUDA version: {why}; they run on the \
                             CPU devices, and their launch on a GPU fails"
                        ),
                    ));
                }
                let place = self.lines.place(at);
                let why = format!("{}:{}: no CUDA version: {why}", place.file, place.line);
                self.info.push(why.clone());
                return DeviceCode {
                    no_library: (!linkage.provides.is_empty()).then_some(why),
                    linkage,
                    ..DeviceCode::default()
                };
            }
        };
        // The text NVRTC compiles, `emit` wrapping the support: what the program's headers
        // define that the text uses goes ahead of the rest, and the names C++ reserves are
        // renamed where the file or those items declare them (`typedef int bool;`).
        let finish = |own: &str, emit: &dyn Fn(&str) -> String| {
            let own = &crate::cuda::without_unnamed_flexible_types(own, &emit(own));
            let headers = crate::cuda::header_support(header_items, &emit(own));
            let declarations = format!("{}\n{headers}", self.src);
            let own = headers + own;
            let text = crate::cuda::cxx_types(&emit(&own), self.includes_header("complex"));
            let text = crate::cuda::statement_expressions_as_lambdas(
                &crate::cuda::enums_as_integers(&crate::cuda::c_tokens_as_c_means_them(
                    &crate::cuda::case_ranges_expanded(&text),
                )),
            );
            let text = crate::cuda::standard_typedefs_left_to_the_file(&text, &declarations);
            // <tgmath.h>'s `sin(x)` of a float is `sinf`: C++'s overloads, which the prelude
            // then keeps (it gives <math.h>'s names their one C signature otherwise).
            let text = if self.includes_header("tgmath") {
                format!("#define __ACC_TGMATH 1\n{text}")
            } else {
                text
            };
            let text =
                crate::cuda::ascii_module(&crate::cuda::cxx_keywords_renamed(&text, &declarations));
            match self.nvrtc_options {
                [] => text,
                options => format!("// nvrtc-options: {}\n{text}", options.join(" ")),
            }
        };
        let kernels = (!self.cuda_kernels.is_empty()).then(|| {
            finish(&support, &|s| {
                acc_engine::cuda::emit_module(s, &self.cuda_kernels)
            })
        });
        // A library reaches the file-scope variables its routines use through pointers of
        // names of its own, which the runtime sets when it links the library (the module's are
        // set by the file's kernels, which another file's launch does not run). Only the
        // pointers' names differ from the module's support, which was made: so is this.
        let library = if linkage.provides.is_empty() {
            None
        } else if bound.is_empty() {
            Some(finish(&support, &acc_engine::cuda::emit_library))
        } else {
            support_with(&self.library_pointers)
                .ok()
                .map(|own| finish(&own, &acc_engine::cuda::emit_library))
        };
        DeviceCode {
            kernels,
            library,
            no_library: None,
            linkage,
        }
    }

    /// The host C of the file: the prelude, the CUDA module's declaration and the site table,
    /// the prototypes, the user's text with its edits, the kernels.
    pub(super) fn assemble(mut self, code: DeviceCode) -> Lowered {
        self.append_restoring_kernels();
        let cuda_c = code.kernels.clone();
        let cuda_decl = match &cuda_c {
            // ISO C only promises 4095-character literals; GCC and clang take
            // any length, and `-pedantic` users should not hear about ours.
            Some(module) => format!(
                "#pragma GCC diagnostic push\n#pragma GCC diagnostic ignored \"-Woverlength-strings\"\n\
                 static const char __acc_cuda_module[] = {};\n#pragma GCC diagnostic pop\n",
                c_string(module)
            ),
            // The kernels name no CUDA source: on a GPU the runtime says so.
            None if !self.cuda_kernels.is_empty() => "#define __acc_cuda_module 0\n".to_string(),
            None => String::new(),
        } + &self.device_code_registration(&code)
            + &crate::sites::table(self.unit, &self.lines);
        let prelude = super::prelude::prelude(self.macros, self.src, self.early_feature_macros);
        let mut w = CWriter::new();
        w.text(&prelude)
            .text(&cuda_decl)
            .text(&self.prototypes)
            .line_marker(1, &c_string(self.lines.main_file()));
        let user_start = w.as_str().len();
        w.text(&apply(self.src, self.edits.clone(), &self.lines));
        if !w.as_str().ends_with('\n') {
            w.end_line();
        }
        let user = user_start..w.as_str().len();
        w.text(&self.kernels);
        let out = w.finish();
        let parts = Parts {
            prelude,
            edits: self.edits,
            prototypes: self.prototypes,
            user,
            kernels: self.kernels,
            file: c_string(self.lines.main_file()),
            lines: self.lines,
            cuda_decl,
            trees: Vec::new(),
        };
        Lowered {
            host_c: out,
            info: self.info,
            cuda_c,
            cuda_library: code.library,
            parts,
            inlined_headers: Vec::new(),
        }
    }

    /// The file's routine library and what its code takes from other files, handed to the
    /// runtime as the program starts (`acc_rt_register_device_code`): where a kernel calls a
    /// routine another file defines, the runtime links their device code. Nothing for a file
    /// that neither defines routines nor calls another file's.
    fn device_code_registration(&self, code: &DeviceCode) -> String {
        let DeviceCode {
            kernels,
            library,
            no_library,
            linkage,
        } = code;
        if linkage.provides.is_empty() && linkage.needs.is_empty() {
            return String::new();
        }
        let mut out = String::new();
        if let Some(library) = library {
            out.push_str(&format!(
                "#pragma GCC diagnostic push\n#pragma GCC diagnostic ignored \"-Woverlength-strings\"\n\
                 static const char __acc_cuda_routines[] = {};\n#pragma GCC diagnostic pop\n",
                c_string(library)
            ));
        }
        out.push_str(&format!(
            "/* This file's device code for the runtime's linking of routines across files. */\n\
             __attribute__((constructor)) static void __acc_register_device_code(void) {{\n  \
             acc_rt_register_device_code({}, {}, {}, {}, {}, {});\n}}\n",
            c_string(self.lines.main_file()),
            if kernels.is_some() {
                "__acc_cuda_module"
            } else {
                "0"
            },
            if library.is_some() {
                "__acc_cuda_routines"
            } else {
                "0"
            },
            c_string(&linkage.provides.join(" ")),
            c_string(&linkage.needs.join(" ")),
            no_library.as_deref().map_or("0".to_string(), c_string),
        ));
        out
    }
}

/// A file's device code: the CUDA module of its kernels, its routine library, and the
/// routines it gives and takes (see `crate::cuda::RoutineLinkage`).
#[derive(Default)]
pub(super) struct DeviceCode {
    pub(super) kernels: Option<String>,
    pub(super) library: Option<String>,
    /// Why a file that defines routines has no library (`file:line: …`), for the runtime's
    /// message when another file's kernel calls one.
    pub(super) no_library: Option<String>,
    pub(super) linkage: crate::cuda::RoutineLinkage,
}

impl Lowerer<'_> {
    /// A variable-length array declared in code a GPU runs (a compute construct's statement, a
    /// routine's body): a GPU's kernels are C++, which has none, so the file's CUDA module
    /// cannot compile; the CPU devices run it. Said at build time, before a GPU launch fails.
    pub(super) fn warn_device_vlas(
        &mut self,
        compute: &[std::ops::Range<usize>],
        routines: &[String],
    ) {
        for v in self.unit.vars.iter().filter(|v| v.vla && !v.is_global) {
            let at = v.decl_span.start;
            let in_compute = compute.iter().any(|c| c.contains(&at));
            let in_routine = || {
                crate::cuda::function_whose_body_holds(self.trees, self.src, at)
                    .is_some_and(|f| routines.contains(&f))
            };
            if !in_compute && !in_routine() {
                continue;
            }
            let why = format!(
                "`{}` is a variable-length array, which a GPU's C++ has none of",
                v.name
            );
            if in_compute {
                self.host_only.push((why, at));
            } else if self.module_refusal.is_none() {
                self.module_refusal = Some((at, why));
            }
            self.diags.push(
                Diagnostic::warning(
                    v.decl_span,
                    format!(
                        "`{}` is a variable-length array in code a GPU runs: a GPU's kernels are \
                         C++, which has none, so {} no CUDA version (the CPU devices run it)",
                        v.name,
                        if in_compute {
                            "this kernel has"
                        } else {
                            "this file's kernels have"
                        }
                    ),
                )
                .with_note(
                    "give the array a constant size (its largest), or allocate it before the \
                     construct and map it",
                ),
            );
        }
    }

    /// Whether the kernel of `span` holds what a GPU cannot run (`host_only`: a call of
    /// `strlen`, a variable-length array): it then has no CUDA version (the launch on a GPU
    /// names it, `--info` says why), and the file's other kernels keep theirs.
    pub(super) fn host_only_kernel(&mut self, span: Span, construct_name: &str) -> bool {
        let Some((why, _)) = self
            .host_only
            .iter()
            .find(|(_, at)| span.start <= *at && *at < span.end)
        else {
            return false;
        };
        let place = self.lines.place(span.start);
        let info = format!(
            "{}:{}: {construct_name} has no CUDA version: {why}",
            place.file, place.line
        );
        self.info.push(info);
        true
    }

    /// A `loop` construct outside any compute construct (orphaned), in a function that is no
    /// routine, explicit or implicit (HiPerC's boundary conditions, in a `data` region): a
    /// loop construct's meaning comes from the compute construct it runs in (OpenACC 3.3 2.9),
    /// here none, so it runs on the host as plain C, on the host's data (GCC refuses it).
    pub(super) fn warn_orphaned_loops(&mut self, routines: &[String]) {
        let levels = crate::cuda::routine_levels(self.unit);
        for (i, c) in self.unit.constructs.iter().enumerate() {
            let id = ConstructId(i as u32);
            if c.directive.kind != DirectiveKind::Loop
                || self
                    .unit
                    .ancestors(id)
                    .any(|a| self.unit.construct(a).directive.kind.is_compute())
            {
                continue;
            }
            let function =
                crate::cuda::enclosing_function(self.trees, self.src, c.pragma_span.start);
            if let Some(f) = function.as_ref().filter(|f| routines.contains(f)) {
                let f = f.clone();
                if let Some(&(_, level)) = levels.iter().find(|(name, _)| *name == f) {
                    self.check_routine_loop_level(id, &f, level);
                }
                continue;
            }
            let place = function.map_or_else(
                || "outside any compute construct or routine".to_string(),
                |f| {
                    format!(
                        "outside any compute construct, in `{f}`, which has no `routine` directive"
                    )
                },
            );
            self.diags.push(
                Diagnostic::warning(
                    c.directive.name_span,
                    format!(
                        "`acc loop` {place}: the loop runs on the host, as plain C, on the host's \
                         data (OpenACC 3.3 2.9)"
                    ),
                )
                .with_note(
                    "write `parallel loop` (or put the loop in a compute construct), or give \
                     the function a `routine` directive and call it from one",
                ),
            );
        }
    }

    /// Calls OpenACC 3.3 2.15.1 forbids by level: a routine calling one of a higher level (a
    /// `seq` routine calling a `gang` one, whose gang loops would be shared among gangs its
    /// caller does not have), and a call, inside a loop partitioned at a level written on it,
    /// of a routine of that level or above (a `gang` routine in a `gang` loop): a routine
    /// shares its loops among the threads that call it together, which a partitioned loop
    /// has given an iteration each. GCC refuses both.
    pub(super) fn check_routine_call_levels(&mut self) {
        let levels = crate::cuda::routine_levels(self.unit);
        if levels.is_empty() {
            return;
        }
        let names = ["seq", "vector", "worker", "gang"];
        let level_of = |name: &str| levels.iter().find(|(n, _)| n == name).map(|&(_, l)| l);
        let mut errors = Vec::new();
        for (function, span) in &self.unit.functions {
            let Some(caller) = level_of(function) else {
                continue;
            };
            for (callee, at) in crate::cuda::calls_within(self.trees, self.src, &[span.range()]) {
                match level_of(&callee) {
                    Some(level) if level > caller && callee != *function => {
                        errors.push(Diagnostic::error(
                            Span::new(at, at + callee.len()),
                            format!(
                                "`{function}`, a `routine {}`, calls `{callee}`, a `routine {}`: a \
                                 routine may call routines of its own level and below (OpenACC \
                                 3.3 2.15.1)",
                                names[caller as usize], names[level as usize]
                            ),
                        ))
                    }
                    _ => {}
                }
            }
        }
        for plan in self.plans {
            let ConstructPlan::Kernel(k) = plan else {
                continue;
            };
            for l in k.loops.iter().filter(|l| !l.partition.seq) {
                let p = l.partition;
                let written = if p.vector && !l.implicit_vector {
                    1
                } else if p.worker {
                    2
                } else if p.gang == Some(acc_engine::attrs::GangOrigin::Exp) {
                    3
                } else {
                    continue;
                };
                let Some(body) = self.unit.construct(l.construct).body else {
                    continue;
                };
                for (callee, at) in crate::cuda::calls_within(self.trees, self.src, &[body.range()])
                {
                    match level_of(&callee) {
                        Some(level) if level >= written => errors.push(
                            Diagnostic::error(
                                Span::new(at, at + callee.len()),
                                format!(
                                    "`{callee}`, a `routine {}`, is called inside a `{}` loop: \
                                     it would share its loops among threads the loop has \
                                     given an iteration each (OpenACC 3.3 2.15.1)",
                                    names[level as usize], names[written as usize]
                                ),
                            )
                            .with_secondary(
                                self.unit.construct(l.construct).directive.name_span,
                                "the loop",
                            )
                            .with_note(
                                "call it where the loop's level runs redundantly (outside the \
                                 loop), or give the loop a lower level",
                            ),
                        ),
                        _ => {}
                    }
                }
            }
        }
        self.diags.extend(errors);
    }

    /// A loop in a routine may share its iterations only at the routine's level or below
    /// (OpenACC 3.3 2.15.1: a `seq` routine's loops run in order in the thread that calls it):
    /// a `loop gang` in a `routine seq` is an error.
    fn check_routine_loop_level(&mut self, id: ConstructId, function: &str, routine: u8) {
        let names = ["seq", "vector", "worker", "gang"];
        let c = self.unit.construct(id);
        let level = crate::cuda::level_of(&c.directive);
        if level > routine {
            let at = c.directive.name_span;
            self.diags.push(
                Diagnostic::error(
                    at,
                    format!(
                        "`acc loop {}` in `{function}`, a `routine {}`: a routine's loops may \
                         use its own level of parallelism and those below it (OpenACC 3.3 \
                         2.15.1)",
                        names[level as usize], names[routine as usize]
                    ),
                )
                .with_note(format!(
                    "give `{function}` the `{}` level in its `routine` directive, or the loop a \
                     lower one",
                    names[level as usize]
                )),
            );
        }
    }

    /// A compute construct (or a routine) that calls a function the file neither defines nor
    /// gives a `routine` directive (`sscanf` in Rodinia's nn): OpenACC 3.3 2.15.1 requires one,
    /// and on a GPU the kernel's module cannot compile (nvc refuses the file). The CPU devices
    /// run it; a warning at the first call says so, before a GPU does.
    pub(super) fn warn_calls_without_device_version(
        &mut self,
        compute: &[std::ops::Range<usize>],
        routines: &[String],
    ) {
        let src = self.src;
        let defined_here = |name: &str| {
            src.lines()
                .any(|l| crate::lex::macro_line(l) == Some(("define", name)))
        };
        let known = |name: &str| {
            self.macros.contains_key(name)
                || self.unit.vars.iter().any(|v| v.name == name)
                || defined_here(name)
        };
        let calls =
            crate::cuda::calls_without_device_version(src, self.trees, compute, routines, &known);
        self.host_only.extend(calls.iter().map(|(name, at)| {
            (
                format!("it calls `{name}`, which a GPU has no version of"),
                *at,
            )
        }));
        for (name, at) in calls {
            let end = at + name.len();
            self.diags.push(
                Diagnostic::warning(
                    acc_engine::span::Span::new(at, end),
                    format!(
                        "`{name}` has no `routine` directive and no device version: a GPU \
                         cannot run this call (OpenACC 3.3 2.15.1): the kernel runs on the CPU \
                         devices, and has no CUDA version (its launch on a GPU fails)"
                    ),
                )
                .with_note(
                    "declare it with `#pragma acc routine seq` where it is defined and declared, \
                     or call it outside the compute construct",
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lower::{lower_file, LowerOptions};

    fn lowered(src: &str) -> crate::lower::Lowered {
        let (l, d) = crate::lower::lower_test_file(src);
        l.unwrap_or_else(|| panic!("{d:?}"))
    }

    /// A variable-length array in a routine's body or a compute construct is warned about (a
    /// GPU's C++ has none); one in host code, or a routine's array parameter, is not.
    #[test]
    fn variable_length_arrays_in_device_code_are_warned_about() {
        let src = "#pragma acc routine seq\nstatic int last(int n, double a[n]) { int t[n]; t[0] = (int)a[0]; return t[0]; }\n\
                   int main(int argc, char **argv) {\n  int n = argc + 3, out[8], host[n];\n  double a[8] = {0};\n  host[0] = 1;\n\
                   #pragma acc parallel loop copyout(out) copyin(a)\n  for (int i = 0; i < 8; i++) { int k[n]; k[0] = i; out[i] = k[0] + last(n, a); }\n  return out[0] + host[0];\n}\n";
        let (l, diags) = crate::lower::lower_test_file(src);
        let mut named: Vec<&str> = diags
            .iter()
            .filter(|d| {
                d.message
                    .contains("is a variable-length array in code a GPU runs")
            })
            .map(|d| &src[d.span.start..d.span.end])
            .collect();
        named.sort();
        assert_eq!(named, ["k", "t"], "{diags:?}");
        // The routine's makes the file's module none (said once); the kernel's, its kernel's.
        assert_eq!(diags.len(), 2, "{diags:?}");
        let l = l.expect("lowered");
        assert!(l.cuda_c.is_none());
        assert!(
            l.info
                .iter()
                .any(|i| i.contains("no CUDA version: `k` is a variable-length array")),
            "{:?}",
            l.info
        );
    }

    /// A routine's loop above the routine's level (`loop gang` in a `routine seq`) is an
    /// error; at its level or below it is what the routine is for.
    #[test]
    fn a_routines_loops_stay_at_its_level() {
        let src = "#pragma acc routine seq\nvoid s(int *a, int n) {\n#pragma acc loop gang\n  for (int i = 0; i < n; i++) a[i] = i;\n}\n\
                   #pragma acc routine worker\nvoid w(int *a, int n) {\n#pragma acc loop worker\n  for (int i = 0; i < n; i++) a[i] = i;\n#pragma acc loop vector\n  for (int i = 0; i < n; i++) a[i] += i;\n}\n";
        let (_, diags) = crate::lower::lower_test_file(src);
        let errors: Vec<&str> = diags
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(errors.len(), 1, "{diags:?}");
        assert!(errors[0].starts_with("`acc loop gang` in `s`, a `routine seq`"));
    }

    /// A routine calling one of a higher level, and a routine called inside a loop written
    /// at its level or below, are errors at the call; calls at lower levels, and a gang
    /// routine called where gangs run redundantly, are not. A `routine` directive followed by
    /// a variable is refused (it was taken for the next function's).
    #[test]
    fn routine_calls_respect_levels() {
        let src = "#pragma acc routine gang\nvoid g(int *a, int n) {\n#pragma acc loop gang\n  for (int i = 0; i < n; i++) a[i] = i;\n}\n\
                   #pragma acc routine vector\nvoid v(int *a, int n) {\n#pragma acc loop vector\n  for (int i = 0; i < n; i++) a[i] = i;\n}\n\
                   #pragma acc routine seq\nvoid s(int *a) { g(a, 4); }\n\
                   #pragma acc routine worker\nvoid w(int *a) { v(a, 4); }\n\
                   void f(int *a) {\n#pragma acc parallel copy(a[0:64])\n  g(a, 64);\n\
                   #pragma acc parallel loop gang copy(a[0:64])\n  for (int i = 0; i < 8; i++) g(a + 8 * i, 8);\n\
                   #pragma acc parallel loop gang copy(a[0:64])\n  for (int i = 0; i < 8; i++) v(a + 8 * i, 8);\n\
                   #pragma acc parallel loop gang vector copy(a[0:64])\n  for (int i = 0; i < 8; i++) v(a + 8 * i, 8);\n}\n";
        let (_, diags) = crate::lower::lower_test_file(src);
        let lines: Vec<usize> = diags
            .iter()
            .filter(|d| d.is_error())
            .map(|d| src[..d.span.start].matches('\n').count() + 1)
            .collect();
        // `s` calling `g`; `g` in the gang loop; `v` in the gang vector loop.
        assert_eq!(lines, vec![12, 19, 23], "{diags:?}");
        let (_, diags) = crate::lower::lower_test_file(
            "#pragma acc routine seq\nint g = 3;\n#pragma acc routine gang\nvoid f(int *a) {\n#pragma acc loop gang\n  for (int i = 0; i < 4; i++) a[i] = g;\n}\n",
        );
        let errors: Vec<&str> = diags
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(errors.len(), 1, "{diags:?}");
        assert!(errors[0].contains("must be followed by a function's declaration"));
    }

    /// A kernel calling a function a GPU has no version of (`strlen`) gets no CUDA version:
    /// its launch names it, `--info` says why, and the file's other kernels keep theirs (the
    /// whole module was refused by NVRTC).
    #[test]
    fn a_kernel_calling_a_host_only_function_alone_has_no_cuda_version() {
        let src = "#include <string.h>\nvoid f(char *s, int *l, int *m) {\n#pragma acc parallel loop copyin(s[0:8]) copyout(l[0:1])\n  for (int i = 0; i < 1; i++) l[i] = (int)strlen(s);\n\
                   #pragma acc parallel loop copyout(m[0:4])\n  for (int i = 0; i < 4; i++) m[i] = i;\n}\n";
        let l = lowered(src);
        let module = l.cuda_c.expect("the other kernel's module");
        assert!(!module.contains("strlen"), "{module}");
        assert!(module.contains("__acc_kernel"), "{module}");
        assert!(
            l.host_c.contains("__acc_kernel1_0, 0, 0, 0}"),
            "{}",
            l.host_c
        );
        assert!(
            l.info
                .iter()
                .any(|i| i.contains("has no CUDA version: it calls `strlen`")),
            "{:?}",
            l.info
        );
    }

    /// `-ffp-contract=off` (the last such flag) reaches NVRTC as `--fmad=false` on the
    /// module's first line, in the kernels' module and the routine library alike.
    #[test]
    fn no_fp_contraction_is_asked_of_nvrtc_on_the_modules_first_line() {
        use crate::lower::nvrtc_options_for;
        assert_eq!(
            nvrtc_options_for(&["-O2", "-ffp-contract=off"]),
            ["--fmad=false"]
        );
        assert!(nvrtc_options_for(&["-ffp-contract=off", "-ffp-contract=fast"]).is_empty());
        assert!(nvrtc_options_for(&["-O2"]).is_empty());
        let src = "#pragma acc routine seq\ndouble axpy(double a, double x, double y) { return a * x + y; }\n\
                   void f(double *x) {\n#pragma acc parallel loop copy(x[0:8])\n  for (int i = 0; i < 8; i++) x[i] = axpy(2, x[i], 1);\n}\n";
        let opts = LowerOptions {
            file_name: "f.c".into(),
            nvrtc_options: nvrtc_options_for(&["-ffp-contract=off"]),
            ..Default::default()
        };
        let (l, d) = lower_file(src, Default::default(), &opts);
        let l = l.unwrap_or_else(|| panic!("{d:?}"));
        for module in [l.cuda_c.unwrap(), l.cuda_library.unwrap()] {
            assert!(
                module.starts_with("// nvrtc-options: --fmad=false\n"),
                "{module}"
            );
        }
        assert!(!lowered(src).cuda_c.unwrap().contains("nvrtc-options"));
    }

    /// A file that includes <tgmath.h> keeps C++'s overloaded math functions in its module.
    #[test]
    fn tgmath_keeps_the_overloads() {
        let kernel = "void f(float *x) {\n#pragma acc parallel loop copy(x[0:8])\n  for (int i = 0; i < 8; i++) x[i] = sin(x[i]);\n}\n";
        let tg = lowered(&format!("#include <tgmath.h>\n{kernel}"));
        assert!(
            tg.host_c.contains("#define __ACC_TGMATH 1"),
            "{}",
            tg.host_c
        );
        let plain = lowered(&format!("#include <math.h>\n{kernel}"));
        assert!(!plain.host_c.contains("#define __ACC_TGMATH"));
    }

    /// An orphaned `loop` in a function that is no routine runs on the host: a warning says
    /// so; one in a routine, explicit or called from a compute construct, is what it is for.
    #[test]
    fn an_orphaned_loop_outside_any_routine_is_warned_about() {
        let src = "void edges(double *a, int n) {\n#pragma acc data copy(a[0:n])\n  {\n#pragma acc loop\n    for (int i = 0; i < n; i++) a[i] = 0;\n  }\n}\n\
                   #pragma acc routine vector\nvoid fill(double *a, int n) {\n#pragma acc loop vector\n  for (int i = 0; i < n; i++) a[i] = 1;\n}\n\
                   void half(double *a, int n) {\n#pragma acc loop seq\n  for (int i = 0; i < n; i++) a[i] /= 2;\n}\n\
                   void run(double *a, int n) {\n#pragma acc parallel copy(a[0:n])\n  {\n    fill(a, n);\n    half(a, n);\n  }\n}\n";
        let (_, diags) = crate::lower::lower_test_file(src);
        let orphans: Vec<&str> = diags
            .iter()
            .filter(|d| {
                d.message
                    .starts_with("`acc loop` outside any compute construct")
            })
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(orphans.len(), 1, "{diags:?}");
        assert!(orphans[0].contains("in `edges`, which has no `routine` directive"));
    }

    /// A file of routines only has no module but a routine library, registered with what it
    /// provides and needs; a file whose kernel calls another file's routine registers the need.
    #[test]
    fn files_register_the_routines_they_give_and_take() {
        let lib = lowered(
            "#pragma acc routine seq\ndouble far(double x);\n#pragma acc routine seq\nstatic double near(double x) { return x; }\n#pragma acc routine seq\ndouble give(double x) { return far(near(x)); }\n",
        );
        assert!(lib.cuda_c.is_none());
        let library = lib.cuda_library.as_deref().expect("a routine library");
        assert!(
            library.starts_with("#define __ACC_ROUTINE_LIBRARY 1\n"),
            "{library}"
        );
        assert!(
            library.contains("__device__ double give(double x)"),
            "{library}"
        );
        assert!(!library.contains("__global__"), "{library}");
        assert!(
            lib.host_c.contains(
                "acc_rt_register_device_code(\"f.c\", 0, __acc_cuda_routines, \"give\", \"far\", 0);"
            ),
            "{}",
            lib.host_c
        );
        let user = lowered(
            "#pragma acc routine seq\ndouble give(double x);\nvoid k(double *a) {\n#pragma acc parallel loop copy(a[0:4])\n  for (int i = 0; i < 4; i++) a[i] = give(a[i]);\n}\n",
        );
        assert!(user.cuda_library.is_none());
        assert!(
            user.host_c.contains(
                "acc_rt_register_device_code(\"f.c\", __acc_cuda_module, 0, \"\", \"give\", 0);"
            ),
            "{}",
            user.host_c
        );
        // A file that neither defines routines nor calls another file's registers nothing.
        let plain = lowered(
            "void k(double *a) {\n#pragma acc parallel loop copy(a[0:4])\n  for (int i = 0; i < 4; i++) a[i] = 1;\n}\n",
        );
        assert!(!plain.host_c.contains("acc_rt_register_device_code"));
    }

    /// Routines that reach file-scope variables: their library reaches each through a pointer
    /// of the file's own name, which the `declare` directive registers for the runtime to set;
    /// without a `declare` there is no library, and `--info` says why.
    #[test]
    fn library_routines_reach_declared_globals_through_named_pointers() {
        let l = lowered(
            "double g;\n#pragma acc declare create(g)\n#pragma acc routine seq\ndouble get(void) { return g; }\n",
        );
        let library = l.cuda_library.as_deref().expect("a routine library");
        let at = library.find("__acc_lg_").expect("a named pointer");
        let symbol: String = library[at..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        assert!(symbol.ends_with("_g"), "{symbol}");
        assert!(
            library.contains(&format!("#define g (*{symbol})")),
            "{library}"
        );
        assert!(
            l.host_c.contains(&format!(
                "acc_rt_register_library_global(\"f.c\", \"{symbol}\", (void *)&(g));"
            )),
            "{}",
            l.host_c
        );
        let bare_src = "double g;\n#pragma acc routine seq\ndouble get(void) { return g; }\n";
        let bare = lowered(bare_src);
        assert!(bare.cuda_library.is_none());
        // Said at build time too, at the use.
        let (_, diags) = crate::lower::lower_test_file(bare_src);
        let warning = diags
            .iter()
            .find(|d| {
                d.message
                    .starts_with("this file's kernels have no CUDA version")
            })
            .expect("a warning");
        assert_eq!(&bare_src[warning.span.start..warning.span.end], "g");
        assert!(
            bare.host_c
                .contains("\"f.c:3: no CUDA version: the routine uses the file-scope variable `g`"),
            "{}",
            bare.host_c
        );
    }
}
