//! Directive text from attribute tokens, and engine diagnostics back onto those tokens.
//!
//! The attribute's tokens are printed as OpenACC text (`acc parallel copyin ( x )`) while a
//! table records which byte range each token produced, so a diagnostic's byte span maps back to
//! the token the user wrote.

use acc_engine::directive::{parse_directive, Directive};
use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};

/// Printed directive text and the token behind each byte range.
pub struct SpanTable {
    spans: Vec<(usize, usize, Span)>,
    /// Used for spans inside the generated prefix (`acc parallel`).
    whole: Span,
}

impl SpanTable {
    /// The token span for an engine span: the first token the span starts in.
    pub fn span(&self, s: acc_engine::Span) -> Span {
        self.spans
            .iter()
            .find(|&&(start, end, _)| start <= s.start && s.start < end.max(start + 1))
            .or_else(|| self.spans.iter().find(|&&(start, _, _)| start >= s.start))
            .map_or(self.whole, |&(_, _, sp)| sp)
    }
}

/// Parses and checks `acc <name> <args>`; diagnostics go to `errors`.
pub fn directive(
    name: &str,
    args: TokenStream,
    whole: Span,
    errors: &mut Vec<syn::Error>,
) -> Option<(Directive, SpanTable)> {
    directive_at(name, args, whole, 0, errors)
}

/// [`directive`], with the text placed at offset `base` (its spans and the table's start
/// there), for a function's layout of several directives (`crate::facts`).
pub fn directive_at(
    name: &str,
    args: TokenStream,
    whole: Span,
    base: usize,
    errors: &mut Vec<syn::Error>,
) -> Option<(Directive, SpanTable)> {
    let mut text = format!("acc {name}");
    let mut table = SpanTable {
        spans: Vec::new(),
        whole,
    };
    let mut joint = false;
    print(args, &mut text, &mut table, &mut joint);
    for s in &mut table.spans {
        s.0 += base;
        s.1 += base;
    }
    let (d, diags) = parse_directive(&text, base);
    let mut failed = false;
    for diag in diags.iter().filter(|d| d.is_error()) {
        errors.push(syn::Error::new(table.span(diag.span), &diag.message));
        failed = true;
    }
    let d = d?;
    for diag in acc_engine::check_clauses::check_directive(&d) {
        if diag.is_error() {
            errors.push(syn::Error::new(table.span(diag.span), &diag.message));
            failed = true;
        }
    }
    (!failed).then_some((d, table))
}

fn push(text: &mut String, table: &mut SpanTable, s: &str, span: Span, space: bool) {
    if space {
        text.push(' ');
    }
    let start = text.len();
    text.push_str(s);
    table.spans.push((start, text.len(), span));
}

fn print(tokens: TokenStream, text: &mut String, table: &mut SpanTable, joint: &mut bool) {
    for t in tokens {
        let space = !*joint;
        *joint = false;
        match t {
            TokenTree::Ident(i) => push(text, table, &i.to_string(), i.span(), space),
            TokenTree::Literal(l) => push(text, table, &l.to_string(), l.span(), space),
            TokenTree::Punct(p) => {
                push(text, table, &p.as_char().to_string(), p.span(), space);
                *joint = p.spacing() == proc_macro2::Spacing::Joint;
            }
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::None => ("", ""),
                };
                push(text, table, open, g.span_open(), space);
                print(g.stream(), text, table, joint);
                push(text, table, close, g.span_close(), true);
                *joint = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn printed(name: &str, tokens: &str) -> (String, Vec<String>) {
        let mut errors = Vec::new();
        let ts = TokenStream::from_str(tokens).unwrap();
        let mut text = format!("acc {name}");
        let mut table = SpanTable {
            spans: Vec::new(),
            whole: Span::call_site(),
        };
        print(ts.clone(), &mut text, &mut table, &mut false);
        directive(name, ts, Span::call_site(), &mut errors);
        (text, errors.iter().map(|e| e.to_string()).collect())
    }

    #[test]
    fn joint_operators_stay_joined() {
        let (text, errors) = printed("parallel", "loop gang reduction(&&:ok) reduction(||:any)");
        assert_eq!(
            text,
            // A punct followed by another punct is joint, as rustc spaces it.
            "acc parallel loop gang reduction ( &&: ok ) reduction ( ||: any )"
        );
        assert!(errors.is_empty(), "{errors:?}");
    }

    #[test]
    fn every_error_is_collected() {
        let (_, errors) = printed("parallel", "copyinn(x) num_gangs(1) num_gangs(2)");
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert_eq!(errors[0], "unknown OpenACC clause `copyinn`");
    }
}
