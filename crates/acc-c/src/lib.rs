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
use acc_engine::{Diagnostic, Span};

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
    /// The uses of macros that expand to a directive and code (`#define PAR_FOR(i, n)
    /// _Pragma("acc parallel loop") for (int i = 0; i < n; i++)`), refused in the
    /// diagnostics, each with its expansion: [`with_code_macros_expanded`] makes the text a
    /// compiler of the file analyses instead.
    pub code_macros: Vec<(Span, String)>,
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
    let sema::Analyzed {
        unit,
        mut diags,
        trees,
        view,
        code_macros,
    } = sema::analyze_trees(trees, src, headers, omp.is_none());
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
        code_macros,
    }
}

/// `src` with each use of [`Analysis::code_macros`] replaced by its expansion, as the
/// compiler will read it: the directive applies to the expansion's code, which only the
/// expansion has. The use's line breaks follow the expansion, so every later line keeps its
/// number (and the `#line` markers of the lowering stay true). With the text: where each
/// expansion stands in it, and the use it replaced (for [`note_code_macros`]).
pub fn with_code_macros_expanded(
    src: &str,
    code_macros: &[(Span, String)],
) -> (String, Vec<(Span, String)>) {
    let mut out = String::with_capacity(src.len() + 256);
    let mut placed = Vec::new();
    let mut at = 0;
    let mut uses: Vec<&(Span, String)> = code_macros.iter().collect();
    uses.sort_by_key(|(span, _)| span.start);
    for (span, expansion) in uses {
        if span.start < at {
            continue;
        }
        out.push_str(&src[at..span.start]);
        placed.push((
            Span::new(out.len(), out.len() + expansion.len()),
            src[span.range()]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
        ));
        out.push_str(expansion);
        out.extend(src[span.range()].matches('\n').map(|_| '\n'));
        at = span.end;
    }
    out.push_str(&src[at..]);
    (out, placed)
}

/// Tells each diagnostic about code of a macro's expansion which use it is in: the line it
/// shows is the expansion, not the file's.
pub fn note_code_macros(diags: &mut [Diagnostic], placed: &[(Span, String)]) {
    for d in diags {
        if let Some((_, used)) = placed
            .iter()
            .find(|(at, _)| at.start <= d.span.start && d.span.start < at.end)
        {
            d.notes.push(format!(
                "in the expansion of `{used}`, which the line shows as acc read it"
            ));
        }
    }
}

/// Translates OpenACC C to the given print mode. The text is produced even
/// when there are errors; callers decide whether to use it. Where macros expand to a
/// directive and code, the diagnostics are about the text [`translate_source`] returns.
pub fn translate(
    src: &str,
    headers: TypeEnv,
    opts: OmpOptions,
    mode: Mode,
) -> (String, Vec<Diagnostic>) {
    let t = translate_source(src, headers, opts, mode);
    (t.text, t.diags)
}

/// What [`translate_source`] gives.
pub struct Translation {
    pub text: String,
    pub diags: Vec<Diagnostic>,
    /// The text translated when it is not the file's: the file with the uses of macros that
    /// expand to a directive and code replaced by their expansions
    /// ([`with_code_macros_expanded`]), which the diagnostics are about (and, but in
    /// [`Mode::Acc`], which prints the file as it is, the text printed).
    pub source: Option<String>,
}

/// As [`translate`], saying which text was translated: a directive a macro use gives with the
/// code it applies to becomes OpenMP only in the expansion (the printed file has the
/// expansion in place of the use; every line keeps its number).
pub fn translate_source(src: &str, headers: TypeEnv, opts: OmpOptions, mode: Mode) -> Translation {
    let again = may_expand_to_pragma(src, &headers).then(|| headers.clone());
    let a = analyze(src, headers, opts);
    let (a, source) = with_code_macros_analysed(src, a, again, Some(opts));
    // The OpenACC print is the file itself, whatever its macros expand to.
    let printed = match mode {
        Mode::Acc => src,
        _ => source.as_deref().unwrap_or(src),
    };
    let text = print::print(printed, &a.unit, &a.forms, mode);
    Translation {
        text,
        diags: a.diags,
        source,
    }
}

/// Whether a macro use in `text` may expand to `_Pragma`: the text names it, or a macro the
/// file or a header defines does. Only then can the analysis find directives in macro uses
/// (and [`Analysis::code_macros`]), so only then is the environment worth keeping for
/// [`with_code_macros_analysed`].
pub fn may_expand_to_pragma(text: &str, env: &TypeEnv) -> bool {
    text.contains("_Pragma") || env.macros.values().any(|d| d.body.contains("_Pragma"))
}

/// `analysis` of `text`, or, where macro uses in it expand to a directive and code
/// ([`Analysis::code_macros`]), the analysis of the text with those uses expanded, which is
/// returned too: the directive applies to code only the expansion has, so what follows (the
/// lowering, the check, the print) and the diagnostics are about that text. `env`: the facts
/// `analysis` had, kept where [`may_expand_to_pragma`]; without them the analysis stays as it
/// is, its refusal of the uses in the diagnostics. `omp`: as for [`analyze_for`].
pub fn with_code_macros_analysed(
    text: &str,
    analysis: Analysis,
    env: Option<TypeEnv>,
    omp: Option<OmpOptions>,
) -> (Analysis, Option<String>) {
    let Some(env) = env.filter(|_| !analysis.code_macros.is_empty()) else {
        return (analysis, None);
    };
    let (expanded, placed) = with_code_macros_expanded(text, &analysis.code_macros);
    let mut analysis = analyze_for(&expanded, env, omp);
    note_code_macros(&mut analysis.diags, &placed);
    (analysis, Some(expanded))
}
