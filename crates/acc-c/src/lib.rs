//! acc-c: the C front end.
//!
//! It owns C syntax: the tree-sitter parse, scopes and declarations, the
//! statement each `#pragma acc` applies to, the facts acc-engine needs, and
//! source-to-source printing by editing the original text.
//!
//! It must not decide OpenACC semantics (that is acc-engine's) and does no
//! I/O beyond running the user's preprocessor when asked.

pub mod check;
pub mod consts;
pub mod cuda;
pub mod deps;
mod f80;
mod flow;
pub mod inline;
mod lex;
pub mod line_map;
pub mod loops;
pub mod lower;
pub mod macro_expand;
pub mod preprocess;
pub mod print;
mod pure_functions;
pub mod render;
pub mod sema;
mod sites;
pub mod split;
pub mod syntax;
pub mod text;
pub mod types;
mod vla;

use acc_engine::omp::{OmpForm, OmpOptions};
use acc_engine::Diagnostic;

pub use print::Mode;
pub use types::TypeEnv;

/// Everything acc-c computed for one file.
pub struct Analysis {
    pub unit: acc_engine::facts::Unit,
    pub attrs: acc_engine::attrs::Analysis,
    pub forms: Vec<OmpForm>,
    /// Sorted by position.
    pub diags: Vec<Diagnostic>,
    /// The file's syntax trees ([`syntax::parse`]): the one parse of the file, which the
    /// later stages (lowering, the CUDA module's support, the split into two units) read
    /// instead of parsing again.
    pub trees: Vec<tree_sitter::Tree>,
    /// The text `trees` are the parse of, when it is not the file's: the file with the `#if`
    /// chains that split its braces resolved (dead arms and directive lines blanked, every
    /// other byte where it was). What is taken from the file as the compiler sees it (a CUDA
    /// module's routines) is taken from here.
    pub view: Option<String>,
    /// Every macro as the preprocessor left it at the end of the file (`-D` flags and
    /// `#if` branches decided), when the headers were read; empty otherwise. The CUDA module
    /// defines the file's macros so, as the host compiler saw them.
    pub macros: std::collections::HashMap<String, macro_expand::MacroDef>,
    /// The feature-test macros the program's headers define before the C library's first
    /// header (see [`types::TypeEnv::early_feature_macros`]).
    pub early_feature_macros: Vec<String>,
}

/// Analyses OpenACC C source. `headers` holds what the preprocessor found
/// in included files (see [`preprocess::header_facts`]); pass the default
/// for self-contained code.
pub fn analyze(src: &str, headers: TypeEnv, opts: OmpOptions) -> Analysis {
    analyze_for(src, headers, Some(opts))
}

/// As [`analyze`]; without OpenMP options it skips the OpenMP mapping (and
/// its diagnostics about what OpenMP cannot express), as lowering to the
/// runtime does.
pub fn analyze_for(src: &str, headers: TypeEnv, omp: Option<OmpOptions>) -> Analysis {
    analyze_parsed(src, syntax::parse(src), headers, omp)
}

/// As [`analyze_for`], for `src` already parsed into `trees` (by [`syntax::parse`]): a file
/// analysed again with other facts (the headers' types) is not parsed again.
pub fn analyze_parsed(
    src: &str,
    trees: Vec<tree_sitter::Tree>,
    headers: TypeEnv,
    omp: Option<OmpOptions>,
) -> Analysis {
    let header_warnings = preprocess::header_directive_warnings(src, &headers.header_directives);
    let macros = headers.macros.clone();
    let early_feature_macros = headers.early_feature_macros.clone();
    let (unit, mut diags, trees, view) = sema::analyze_trees(trees, src, headers, omp.is_none());
    diags.extend(header_warnings);
    diags.extend(acc_engine::check::check_unit(&unit));
    let (attrs, d) = acc_engine::attrs::analyze(&unit);
    diags.extend(d);
    let forms = match omp {
        Some(opts) => {
            let (forms, d) = acc_engine::omp::to_omp(&unit, &attrs, opts);
            diags.extend(d);
            forms
        }
        None => Vec::new(),
    };
    diags.sort_by_key(|d| (d.span.start, d.span.end));
    diags.dedup();
    Analysis {
        unit,
        attrs,
        forms,
        diags,
        trees,
        view,
        macros,
        early_feature_macros,
    }
}

/// Translates OpenACC C to the given print mode. The text is produced even
/// when there are errors; callers decide whether to use it.
pub fn translate(
    src: &str,
    headers: TypeEnv,
    opts: OmpOptions,
    mode: Mode,
) -> (String, Vec<Diagnostic>) {
    let a = analyze(src, headers, opts);
    let text = print::print(src, &a.unit, &a.forms, mode);
    (text, a.diags)
}
