//! The OpenACC directive model and its parser: the text of one pragma in,
//! a typed [`Directive`] with a span on every part and diagnostics out.
//!
//! The parser never fails and never panics: bad input gives `None` or a
//! directive without the bad clauses, plus error diagnostics that say what
//! to write instead. Clause validity (which clauses a directive accepts,
//! conflicts between clauses) is checked separately, by
//! [`crate::check_clauses`].

mod clause;
mod lex;
mod model;
mod parse;
#[cfg(test)]
pub(crate) mod tests;

use std::fmt;

use crate::diag::Diagnostic;

pub use clause::*;
pub use model::*;

/// Parses one directive.
///
/// `text` is the pragma text as it appears after `#pragma`, starting with
/// `acc` (`"acc parallel loop gang copy(a[0:n])"`). It may contain
/// backslash-newline continuations and comments, which count as
/// whitespace. `base` is the byte offset of `text` in the front end's
/// file; every span produced is shifted by it.
pub fn parse_directive(text: &str, base: usize) -> (Option<Directive>, Vec<Diagnostic>) {
    let mut p = parse::Parser::new(text, None, base);
    let d = p.directive();
    (d, p.diags)
}

/// Parses directive text that is not the source's own (macros replaced in it): `map[i]` is the
/// source offset, from `base`, of the text's byte `i`, and `map[text.len()]` the end's; spans
/// point into the source.
pub fn parse_directive_mapped(
    text: &str,
    map: &[usize],
    base: usize,
) -> (Option<Directive>, Vec<Diagnostic>) {
    let mut p = parse::Parser::new(text, Some(map), base);
    let d = p.directive();
    (d, p.diags)
}

/// Parses the contents of a `_Pragma("acc ...")` string literal (without
/// the quotes). `\"` and `\\` are destringized as C requires; spans point
/// into the literal's contents, `base` being the offset of its first byte,
/// so an escaped quote is covered by both of its bytes.
pub fn parse_pragma_operator(
    string_literal_contents: &str,
    base: usize,
) -> (Option<Directive>, Vec<Diagnostic>) {
    match destringize(string_literal_contents) {
        Some((text, map)) => parse_directive_mapped(&text, &map, base),
        None => parse_directive(string_literal_contents, base),
    }
}

/// A `_Pragma` string literal's contents as the pragma's text (C11 6.10.9: `\"` and `\\`
/// lose their backslash), with the offset in the contents of each byte of the text and of its
/// end; `None` when that is not UTF-8.
pub fn destringize(string_literal_contents: &str) -> Option<(String, Vec<usize>)> {
    let src = string_literal_contents.as_bytes();
    let mut text = Vec::with_capacity(src.len());
    let mut map = Vec::with_capacity(src.len() + 1);
    let mut i = 0;
    while i < src.len() {
        let b = src[i];
        if b == b'\\' && matches!(src.get(i + 1), Some(b'"' | b'\\')) {
            map.push(i);
            text.push(src[i + 1]);
            i += 2;
        } else {
            map.push(i);
            text.push(b);
            i += 1;
        }
    }
    map.push(src.len());
    // Only ASCII backslashes were removed, so the text is still UTF-8.
    String::from_utf8(text).ok().map(|t| (t, map))
}

impl fmt::Display for Directive {
    /// The canonical text: `acc`, the directive name, its argument and
    /// each clause under its canonical name, list items as written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "acc {}", self.kind.name())?;
        match &self.arg {
            // An implicit `update` is printed as it was written: not at all.
            None | Some(DirectiveArg::Atomic(_, None)) => {}
            Some(DirectiveArg::RoutineName(id)) => write!(f, "({})", id.name)?,
            Some(DirectiveArg::Atomic(kind, Some(_))) => write!(f, " {}", kind.name())?,
            Some(DirectiveArg::Wait(w)) => write!(f, "({w})")?,
            Some(DirectiveArg::Cache { readonly, items }) => {
                f.write_str("(")?;
                if readonly.is_some() {
                    f.write_str("readonly:")?;
                }
                write_items(f, items)?;
                f.write_str(")")?;
            }
        }
        for c in &self.clauses {
            write!(f, " {c}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Clause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.name())?;
        match &self.args {
            ClauseArgs::None
            | ClauseArgs::Worker(None)
            | ClauseArgs::Vector(None)
            | ClauseArgs::Wait(None) => Ok(()),
            ClauseArgs::Vars { modifiers, items } => {
                f.write_str("(")?;
                if !modifiers.is_empty() {
                    let names: Vec<_> = modifiers.iter().map(|(m, _)| m.name()).collect();
                    write!(f, "{}:", names.join(", "))?;
                }
                write_items(f, items)?;
                f.write_str(")")
            }
            ClauseArgs::Reduction { op, items, .. } => {
                write!(f, "({}:", op.symbol())?;
                write_items(f, items)?;
                f.write_str(")")
            }
            ClauseArgs::Expr(e) | ClauseArgs::Worker(Some(e)) | ClauseArgs::Vector(Some(e)) => {
                write!(f, "({})", e.text)
            }
            ClauseArgs::Exprs(es) => {
                let texts: Vec<_> = es.iter().map(|e| e.text.as_str()).collect();
                write!(f, "({})", texts.join(", "))
            }
            ClauseArgs::Collapse { force, count } => {
                let force = if force.is_some() { "force:" } else { "" };
                write!(f, "({force}{})", count.text)
            }
            ClauseArgs::Gang(args) => {
                let texts: Vec<_> = args
                    .iter()
                    .map(|a| match a.kw {
                        Some(_) => format!("{}:{}", a.kind.name(), a.value.text),
                        None => a.value.text.clone(),
                    })
                    .collect();
                write!(f, "({})", texts.join(", "))
            }
            ClauseArgs::Wait(Some(w)) => write!(f, "({w})"),
            ClauseArgs::DeviceTypes(ids) => {
                let names: Vec<_> = ids.iter().map(|i| i.name.as_str()).collect();
                write!(f, "({})", names.join(", "))
            }
            ClauseArgs::Default(kind, _) => write!(f, "({})", kind.name()),
            ClauseArgs::Bind(BindTarget::Name(id)) => write!(f, "({})", id.name),
            ClauseArgs::Bind(BindTarget::Str { value, .. }) => write!(f, "(\"{value}\")"),
        }
    }
}

impl fmt::Display for WaitArgs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(d) = &self.devnum {
            write!(f, "devnum:{}:", d.text)?;
        }
        if self.queues_kw.is_some() {
            f.write_str("queues:")?;
        }
        let texts: Vec<_> = self.queues.iter().map(|e| e.text.as_str()).collect();
        f.write_str(&texts.join(", "))
    }
}

fn write_items(f: &mut fmt::Formatter<'_>, items: &[VarItem]) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        f.write_str(&item.text)?;
    }
    Ok(())
}
