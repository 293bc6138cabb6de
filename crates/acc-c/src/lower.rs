//! Lowering OpenACC C to host C that calls the runtime (`acc_rt.h`): each
//! compute construct is outlined into a kernel function (sotoc style), and
//! data directives become runtime calls. The output is the original text
//! with edits, so the user's code, macros and comments stay as they were.

use acc_engine::Diagnostic;

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
    /// What `acc cc --info` prints: how each construct was mapped.
    pub info: Vec<String>,
}

/// Lowers one file. `None` when there are errors (in the diagnostics).
pub fn lower_file(src: &str, headers: TypeEnv, opts: &LowerOptions) -> (Option<Lowered>, Vec<Diagnostic>) {
    let analysis = crate::analyze(src, headers, acc_engine::omp::OmpOptions::default());
    let mut diags = analysis.diags;
    if diags.iter().any(|d| d.is_error()) {
        return (None, diags);
    }
    if !analysis.unit.constructs.is_empty() {
        let c = &analysis.unit.constructs[0];
        diags.push(Diagnostic::error(
            c.directive.name_span,
            "lowering OpenACC to the runtime is not implemented yet",
        ));
        return (None, diags);
    }
    let _ = opts;
    (
        Some(Lowered {
            host_c: src.to_string(),
            info: Vec::new(),
        }),
        diags,
    )
}
