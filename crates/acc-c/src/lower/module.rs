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
        self.routine_globals = bound.iter().map(|g| g.name.clone()).collect();
    }

    /// One CUDA module per file: the runtime compiles it once, on the first launch of any of
    /// its kernels on a GPU. `None` when no kernel has a CUDA version, or the file's routines
    /// cannot have one (said in `--info`).
    pub(super) fn cuda_module(
        &mut self,
        declared: &[String],
        bound: &[RoutineGlobal],
        routines: &[String],
        header_items: &[crate::types::HeaderItem],
    ) -> Option<String> {
        if self.cuda_kernels.is_empty() {
            return None;
        }
        match crate::cuda::support(self.src, self.trees, &self.lines, declared, bound, routines) {
            Ok(support) => {
                // What the program's headers define that the module uses, ahead of the rest.
                let used = acc_engine::cuda::emit_module(&support, &self.cuda_kernels);
                let support = crate::cuda::header_support(header_items, &used) + &support;
                Some(crate::cuda::ascii_module(&crate::cuda::cxx_types(
                    &acc_engine::cuda::emit_module(&support, &self.cuda_kernels),
                    self.src.contains("<complex.h>"),
                )))
            }
            Err((line, why)) => {
                let file = self.lines.main_file();
                self.info
                    .push(format!("{file}:{line}: no CUDA version: {why}"));
                None
            }
        }
    }

    /// The host C of the file: the prelude, the CUDA module's declaration and the site table,
    /// the prototypes, the user's text with its edits, the kernels.
    pub(super) fn assemble(self, cuda_c: Option<String>) -> Lowered {
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
        } + &crate::sites::table(self.unit, &self.lines);
        let mut w = CWriter::new();
        w.text(PRELUDE)
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
            parts,
            inlined_headers: Vec::new(),
        }
    }
}
