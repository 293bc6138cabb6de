//! The C side of `acc check`: the file's analysis (with the headers' facts when it needs
//! them, as lowering reads them), the control-flow skeleton (`flow`) added to its unit, and
//! the engine's data-mapping check over it.
//!
//! It owns only that sequence; the analysis is acc-engine's `check_data`, and it must not
//! change what any other entry point computes.

use acc_engine::check_data::{Options, Report};
use acc_engine::Diagnostic;

use crate::types::TypeEnv;

/// The file's own diagnostics (errors stop the check) and the check's report.
pub struct Checked {
    pub diags: Vec<Diagnostic>,
    pub report: Report,
    /// The text checked when it is not the file's: the file with the uses of macros that
    /// expand to a directive and code expanded ([`crate::with_code_macros_expanded`]), which
    /// the diagnostics and findings are about.
    pub text: Option<String>,
}

/// Checks the data mapping of `src`; `headers` gives the preprocessor's facts when the file
/// uses a type it does not define, or includes a header of the program's own.
pub fn check_file(
    src: &str,
    headers: &mut dyn FnMut() -> Result<TypeEnv, String>,
    opts: &Options,
) -> Result<Checked, String> {
    let mut analysis = crate::analyze_for(src, TypeEnv::default(), None);
    let unknown_type = analysis
        .diags
        .iter()
        .any(|d| d.message.starts_with(crate::sema::UNKNOWN_TYPE));
    let mut again = Some(TypeEnv::default());
    if unknown_type || src.contains("#include \"") {
        let env = headers()?;
        again = crate::may_expand_to_pragma(src, &env).then(|| env.clone());
        let trees = std::mem::take(&mut analysis.trees);
        analysis = crate::analyze_parsed(src, trees, env, None);
    }
    // A directive a macro gives with the code it applies to: checked in the expansion, as
    // `acc cc` compiles it.
    let (mut analysis, text) = crate::with_code_macros_analysed(src, analysis, again, None);
    let checked_text = text.as_deref().unwrap_or(src);
    if acc_engine::diag::has_errors(&analysis.diags) {
        return Ok(Checked {
            diags: analysis.diags,
            report: Report::default(),
            text,
        });
    }
    let roots: Vec<_> = analysis.trees.iter().map(|t| t.root_node()).collect();
    let flow = crate::flow::build(&roots, checked_text, &analysis.unit);
    analysis.unit.flow = flow;
    let report = acc_engine::check_data::check(&analysis.unit, &analysis.attrs, opts);
    Ok(Checked {
        diags: analysis.diags,
        report,
        text,
    })
}

/// As [`check_file`] for self-contained code (no preprocessor).
pub fn check_source(src: &str, opts: &Options) -> Checked {
    check_file(src, &mut || Ok(TypeEnv::default()), opts).expect("no header facts to fail")
}
