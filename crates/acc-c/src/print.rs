//! Source-to-source printing in Clacc's four modes, by editing the original
//! text: everything outside the rewritten directives (includes, macros,
//! comments, layout) is copied byte for byte.
//!
//! - `acc`: the source unchanged.
//! - `omp`: each OpenACC directive replaced by its OpenMP form.
//! - `acc-omp`: OpenACC kept, the OpenMP form beside it in `//` comments.
//! - `omp-acc`: the OpenMP form, the OpenACC directive beside it in a
//!   comment.
//!
//! When the OpenMP form changes the code block (a new compound statement
//! with declarations), the comment lines show the braces and declarations
//! where they would go, so the block itself is never duplicated.

use acc_engine::facts::Unit;
use acc_engine::omp::{OmpForm, Wrap};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Acc,
    Omp,
    AccOmp,
    OmpAcc,
}

impl Mode {
    pub fn parse(s: &str) -> Option<Mode> {
        Some(match s {
            "acc" => Mode::Acc,
            "omp" => Mode::Omp,
            "acc-omp" => Mode::AccOmp,
            "omp-acc" => Mode::OmpAcc,
            _ => return None,
        })
    }
}

/// A byte-range edit of the original text.
#[derive(Debug)]
struct Edit {
    start: usize,
    end: usize,
    text: String,
    /// Among insertions at the same place, lower goes first.
    order: i64,
}

/// Prints `src` in `mode`, given the OpenMP form of every construct.
pub fn print(src: &str, unit: &Unit, forms: &[OmpForm], mode: Mode) -> String {
    if mode == Mode::Acc {
        return src.to_string();
    }
    let mut edits = Vec::new();
    for form in forms {
        let c = unit.construct(form.construct);
        let depth = unit.ancestors(form.construct).count() as i64;
        let span = c.pragma_span;
        let line_start = src[..span.start].rfind('\n').map_or(0, |i| i + 1);
        let indent: String = src[line_start..span.start]
            .chars()
            .take_while(|c| c.is_whitespace())
            .collect();
        let alone_on_line = src[line_start..span.start].trim().is_empty();
        let nl = format!("\n{indent}");
        let comment = mode == Mode::AccOmp;
        let prefix = if comment { "// " } else { "" };

        let mut lines: Vec<String> = Vec::new();
        let mut closers: Vec<(usize, String, i64)> = Vec::new();
        for (li, level) in form.levels.iter().enumerate() {
            let order = -(depth * 4 + li as i64);
            if level.wrap == Wrap::Statement {
                lines.push(format!("{prefix}{{"));
            }
            for p in &level.prelude {
                lines.push(format!("{prefix}{p}"));
            }
            for p in &level.pragmas {
                lines.push(format!("{prefix}#pragma {p}"));
            }
            match level.wrap {
                Wrap::Statement => {
                    if let Some(body) = c.body {
                        closers.push((body.end, format!("{nl}{prefix}}}"), order));
                    }
                }
                Wrap::Rest(rest) => {
                    lines.push(format!("{prefix}{{"));
                    // Before the block's closing brace: on a line of its
                    // own when the brace starts its line.
                    let brace_line = src[..rest.end].rfind('\n').map_or(0, |i| i + 1);
                    if src[brace_line..rest.end].trim().is_empty() {
                        closers.push((brace_line, format!("{indent}{prefix}}}\n"), order));
                    } else {
                        closers.push((rest.end, format!("{prefix}}} "), order));
                    }
                }
                Wrap::None => {}
            }
            if let Some((after, pragmas)) = &level.after {
                let text: String = pragmas
                    .iter()
                    .map(|p| format!("\n{prefix}#pragma {p}"))
                    .collect();
                closers.push((after.end, text, order));
            }
        }
        let original = &src[span.range()];
        match mode {
            Mode::AccOmp => {
                if !lines.is_empty() {
                    edits.push(Edit {
                        start: span.end,
                        end: span.end,
                        text: lines.iter().map(|l| format!("{nl}{l}")).collect(),
                        order: 0,
                    });
                }
            }
            Mode::Omp | Mode::OmpAcc => {
                let mut text = String::new();
                if mode == Mode::OmpAcc {
                    text.push_str(&comment_out(original, &indent));
                    if !lines.is_empty() {
                        text.push_str(&nl);
                    }
                }
                text.push_str(&lines.join(&nl));
                // A `_Pragma` operator shares its line with code (`_Pragma("acc loop") for …`,
                // or what a macro expanded to): the `#pragma` lines must have lines of their own.
                let mut blanks_after = 0;
                if !text.is_empty() && original.starts_with("_Pragma") {
                    if !alone_on_line {
                        text.insert_str(0, &nl);
                    }
                    let rest_of_line = src[span.end..].split('\n').next().unwrap_or("");
                    if !rest_of_line.trim().is_empty() {
                        text.push_str(&nl);
                        blanks_after = rest_of_line.len() - rest_of_line.trim_start().len();
                    }
                }
                let (start, end) = if text.is_empty() && alone_on_line {
                    // Remove the whole line of a directive that disappears.
                    let end = src[span.end..]
                        .find('\n')
                        .map_or(src.len(), |i| span.end + i + 1);
                    (line_start, end)
                } else {
                    (span.start, span.end + blanks_after)
                };
                edits.push(Edit {
                    start,
                    end,
                    text,
                    order: 0,
                });
            }
            Mode::Acc => unreachable!("handled above"),
        }
        for (at, text, order) in closers {
            edits.push(Edit {
                start: at,
                end: at,
                text,
                order,
            });
        }
    }
    // Other compilers' pragmas between a loop directive and its loop (warned): between the
    // OpenMP directive and its loop they would be errors.
    for &p in &unit.left_out_pragmas {
        edits.push(Edit {
            start: p.start,
            end: p.end,
            text: format!(
                "/* acc: left out: {} */",
                src[p.range()].replace("*/", "* /")
            ),
            order: 0,
        });
    }
    apply(src, edits)
}

/// `// ` in front of every line of a (possibly continued) directive.
fn comment_out(text: &str, indent: &str) -> String {
    text.split('\n')
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                format!("// {l}")
            } else {
                format!("\n{indent}// {}", l.trim_start())
            }
        })
        .collect()
}

/// Applies sorted, non-overlapping edits in one forward pass.
fn apply(src: &str, mut edits: Vec<Edit>) -> String {
    edits.sort_by_key(|e| (e.start, e.order, e.end));
    let mut out = String::with_capacity(src.len() + edits.len() * 32);
    let mut pos = 0;
    for e in edits {
        // Overlapping edits would be a bug in the mapping; keep the text
        // rather than corrupt it.
        debug_assert!(e.start >= pos, "overlapping edits at {}", e.start);
        if e.start < pos {
            continue;
        }
        out.push_str(&src[pos..e.start]);
        out.push_str(&e.text);
        pos = e.end;
    }
    out.push_str(&src[pos..]);
    out
}
