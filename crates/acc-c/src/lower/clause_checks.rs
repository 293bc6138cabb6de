//! The C compiler's messages about a directive's clause expressions at the clause.
//!
//! A clause's expressions (`async(q)`, `num_gangs(ng)`, the bounds of `copy(a[0:nn])`) reach
//! the C compiler inside the runtime calls that replace the directive, on lines and at columns
//! of acc's making: a misspelt name was reported past the construct, at a column beyond its
//! line. So each expression is first checked where it was written: a statement the compiler
//! reads with the expression at its own line and column (`#line` for the line, the source
//! line's leading text as blanks for the column, tabs kept so that display columns agree) and
//! never evaluates (`sizeof`). The compiler reports a misspelt name once per function, so the
//! message it gives is the one at the clause.

use super::*;
use acc_engine::directive::{DirectiveArg, Expr};

impl Lowerer<'_> {
    /// The checks of construct `id`'s clause expressions, to open a block the directive's
    /// replacement starts, and a `#line` back to the directive's line after them; empty when
    /// the directive has no expression written where it stands (one a macro expands to).
    pub(super) fn clause_checks(&self, id: ConstructId) -> String {
        let c = self.unit.construct(id);
        // Each expression, and whether OpenACC asks an integer of it (every argument but a
        // condition's: queues, counts, sizes, section bounds).
        let mut exprs: Vec<(&Expr, bool)> = Vec::new();
        for clause in &c.directive.clauses {
            let mut own = Vec::new();
            clause_exprs(&clause.args, &mut own);
            // `self(list)` of `update` has section bounds; `self(cond)` of a compute construct
            // a condition.
            let integer = !(matches!(clause.kind, ClauseKind::If | ClauseKind::SelfClause)
                && matches!(clause.args, ClauseArgs::Expr(_)));
            exprs.extend(own.into_iter().map(|e| (e, integer)));
        }
        if let Some(DirectiveArg::Wait(w)) = &c.directive.arg {
            exprs.extend(w.devnum.iter().chain(&w.queues).map(|e| (e, true)));
        }
        // A number cannot be misspelt, nor be of a wrong type unless it says so.
        let number = |e: &Expr| {
            e.text.starts_with(|ch: char| ch.is_ascii_digit())
                && e.text.chars().all(|ch| ch.is_ascii_alphanumeric())
        };
        exprs.retain(|(e, _)| !e.is_star() && !number(e) && c.pragma_span.contains(e.span));
        // The list items that subscript their variable: the element they start at, as an
        // expression, so that a subscript the variable's type does not have (`s[0:1]` of a
        // scalar, `b[0:1][0:1]` of a 1-D array) is the compiler's error at the item.
        let mut elements: Vec<(Span, String)> = Vec::new();
        for clause in &c.directive.clauses {
            if let ClauseArgs::Vars { items, .. } | ClauseArgs::Reduction { items, .. } =
                &clause.args
            {
                for item in items.iter().filter(|i| c.pragma_span.contains(i.span)) {
                    // Its address: C evaluates the operand of `sizeof` of a variable-length
                    // array type (a row of `double a[n][m]`), never of a pointer.
                    if let Some(text) = element_of(item) {
                        elements.push((item.span, text));
                    }
                }
            }
        }
        let line = self.line(c.pragma_span);
        if (exprs.is_empty() && elements.is_empty()) || line < 2 {
            return String::new();
        }
        let file = self.file_escaped_at(c.pragma_span);
        let mut out = String::new();
        // An integer's: a `switch` on it, which C takes of integers only ("switch quantity not
        // an integer" at `async(x)` of a `double x`), never run.
        let checks = exprs
            .iter()
            .map(|&(e, integer)| {
                if integer {
                    (
                        e.span,
                        "if (0) switch (",
                        e.text.clone(),
                        ") { default: break; }",
                    )
                } else {
                    (e.span, "(void)sizeof((", e.text.clone(), ") + 0);")
                }
            })
            .chain(
                elements
                    .into_iter()
                    .map(|(span, text)| (span, "(void)sizeof(&(", text, "));")),
            );
        for (span, open, text, close) in checks {
            let at = self.line(span);
            let line_start = self.src[..span.start].rfind('\n').map_or(0, |i| i + 1);
            let blanks: String = self.src[line_start..span.start]
                .chars()
                .map(|ch| if ch == '\t' { '\t' } else { ' ' })
                .collect();
            // The opening on the expression's own line where the blanks before it have room
            // (a compiler that reports at the statement, as clang does at a `switch`, then
            // names the right line), else on the line before.
            let room = blanks.len() > open.len() && !blanks.contains('\t');
            if room {
                let _ = write!(
                    out,
                    "\n#line {at} \"{file}\"\n{}{open}{text}\n{close}",
                    &blanks[open.len()..]
                );
            } else {
                let _ = write!(
                    out,
                    "\n#line {} \"{file}\"\n{open}\n{blanks}{text}\n{close}",
                    at - 1,
                );
            }
        }
        let _ = write!(
            out,
            "\n#line {line} \"{file}\"\n{}",
            self.indent_of(c.pragma_span)
        );
        out
    }
}

/// The element a list item with subscripts starts at, as a C expression (`a[lo][0]` of
/// `a[lo:n][:m]`); `None` for an item without them.
fn element_of(item: &VarItem) -> Option<String> {
    let mut text = item.base.name.clone();
    let mut subscripted = false;
    for a in &item.accessors {
        match a {
            Accessor::Member(m) => {
                text.push('.');
                text.push_str(&m.name);
            }
            Accessor::Arrow(m) => {
                text.push_str("->");
                text.push_str(&m.name);
            }
            Accessor::Index(e) => {
                subscripted = true;
                text.push_str(&format!("[{}]", e.text));
            }
            Accessor::Section { lower, .. } => {
                subscripted = true;
                text.push_str(&format!(
                    "[{}]",
                    lower.as_ref().map_or("0", |l| l.text.as_str())
                ));
            }
        }
    }
    subscripted.then_some(text)
}

/// The expressions of a clause's arguments: values, and the subscripts and bounds of its list
/// items.
fn clause_exprs<'a>(args: &'a ClauseArgs, out: &mut Vec<&'a Expr>) {
    let items = |items: &'a [VarItem], out: &mut Vec<&'a Expr>| {
        for item in items {
            for a in &item.accessors {
                match a {
                    Accessor::Index(e) => out.push(e),
                    Accessor::Section { lower, length, .. } => {
                        out.extend(lower.iter().chain(length))
                    }
                    Accessor::Member(_) | Accessor::Arrow(_) => {}
                }
            }
        }
    };
    match args {
        ClauseArgs::Vars { items: list, .. } | ClauseArgs::Reduction { items: list, .. } => {
            items(list, out)
        }
        ClauseArgs::Expr(e) | ClauseArgs::Worker(Some(e)) | ClauseArgs::Vector(Some(e)) => {
            out.push(e)
        }
        ClauseArgs::Exprs(es) => out.extend(es),
        ClauseArgs::Collapse { count, .. } => out.push(count),
        ClauseArgs::Gang(args) => out.extend(args.iter().map(|g| &g.value)),
        ClauseArgs::Wait(Some(w)) => out.extend(w.devnum.iter().chain(&w.queues)),
        _ => {}
    }
}
