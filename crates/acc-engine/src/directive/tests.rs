//! Snapshot tests of the directive parser, and the dump and render helpers
//! the clause-check tests share.

use expect_test::{expect, Expect};
use proptest::prelude::*;

use super::*;
use crate::span::Span;

/// A compact, reviewable rendering of a parsed directive. Spans are shown
/// as offsets; `text` is what the spans point into, `base` its offset.
pub(crate) fn dump(d: &Directive) -> String {
    let mut out = format!("{:?} `{}` name {:?} span {:?}\n", d.kind, d.kind.name(), d.name_span, d.span);
    match &d.arg {
        None => {}
        Some(DirectiveArg::RoutineName(id)) => out += &format!("  arg routine name {}\n", ident(id)),
        Some(DirectiveArg::Atomic(k, span)) => out += &format!("  arg atomic {} {:?}\n", k.name(), span),
        Some(DirectiveArg::Wait(w)) => out += &format!("  arg wait {}\n", wait(w)),
        Some(DirectiveArg::Cache { readonly, items }) => {
            out += &format!("  arg cache readonly {readonly:?}\n");
            for i in items {
                out += &format!("    {}\n", item(i));
            }
        }
    }
    for c in &d.clauses {
        out += &format!("  {:?} `{}` {:?}", c.kind, c.spelling, c.span);
        match &c.args {
            ClauseArgs::None => out += "\n",
            ClauseArgs::Vars { modifiers, items } => {
                if !modifiers.is_empty() {
                    let mods: Vec<_> = modifiers.iter().map(|(m, s)| format!("{}@{s:?}", m.name())).collect();
                    out += &format!(" modifiers {}", mods.join(", "));
                }
                out += "\n";
                for i in items {
                    out += &format!("    {}\n", item(i));
                }
            }
            ClauseArgs::Reduction { op, op_span, items } => {
                out += &format!(" op {}@{op_span:?}\n", op.symbol());
                for i in items {
                    out += &format!("    {}\n", item(i));
                }
            }
            ClauseArgs::Expr(e) => out += &format!(" expr {}\n", expr(e)),
            ClauseArgs::Exprs(es) => {
                let es: Vec<_> = es.iter().map(expr).collect();
                out += &format!(" exprs {}\n", es.join(", "));
            }
            ClauseArgs::Collapse { force, count } => out += &format!(" force {force:?} count {}\n", expr(count)),
            ClauseArgs::Gang(args) => {
                let args: Vec<_> = args
                    .iter()
                    .map(|a| format!("{}{} {}", a.kind.name(), a.kw.map_or(String::new(), |s| format!("@{s:?}")), expr(&a.value)))
                    .collect();
                out += &format!(" gang {}\n", args.join(", "));
            }
            ClauseArgs::Worker(e) | ClauseArgs::Vector(e) => {
                out += &format!(" {}\n", e.as_ref().map_or("no arg".to_string(), expr))
            }
            ClauseArgs::Wait(w) => out += &format!(" {}\n", w.as_ref().map_or("no arg".to_string(), wait)),
            ClauseArgs::DeviceTypes(ids) => {
                let ids: Vec<_> = ids.iter().map(ident).collect();
                out += &format!(" {}\n", ids.join(", "));
            }
            ClauseArgs::Default(k, s) => out += &format!(" {}@{s:?}\n", k.name()),
            ClauseArgs::Bind(BindTarget::Name(id)) => out += &format!(" name {}\n", ident(id)),
            ClauseArgs::Bind(BindTarget::Str { value, span }) => out += &format!(" string {value:?}@{span:?}\n"),
        }
    }
    out
}

fn ident(id: &Ident) -> String {
    format!("{}@{:?}", id.name, id.span)
}

fn expr(e: &Expr) -> String {
    format!("`{}`@{:?}", e.text, e.span)
}

fn wait(w: &WaitArgs) -> String {
    let qs: Vec<_> = w.queues.iter().map(expr).collect();
    format!(
        "devnum {} queues_kw {:?} queues [{}] span {:?}",
        w.devnum.as_ref().map_or("-".to_string(), expr),
        w.queues_kw,
        qs.join(", "),
        w.span
    )
}

fn item(i: &VarItem) -> String {
    let mut s = format!("`{}`@{:?} base {}", i.text, i.span, ident(&i.base));
    for a in &i.accessors {
        s += &match a {
            Accessor::Member(id) => format!(" .{}", ident(id)),
            Accessor::Arrow(id) => format!(" ->{}", ident(id)),
            Accessor::Index(e) => format!(" [{}]", expr(e)),
            Accessor::Section { lower, length, span } => format!(
                " [{}:{}]@{span:?}",
                lower.as_ref().map_or(String::new(), expr),
                length.as_ref().map_or(String::new(), expr)
            ),
        };
    }
    s
}

/// Diagnostics as text, each span followed by the text it covers in
/// `text` (parsed at `base`).
pub(crate) fn render(text: &str, base: usize, diags: &[Diagnostic]) -> String {
    let cover = |s: Span| {
        let lo = s.start.saturating_sub(base);
        let hi = s.end.saturating_sub(base);
        format!("{s:?} `{}`", text.get(lo..hi).unwrap_or("<out of range>"))
    };
    let mut out = String::new();
    for d in diags {
        let sev = if d.is_error() { "error" } else { "warning" };
        out += &format!("{sev} {}: {}\n", cover(d.span), d.message);
        if !d.label.is_empty() {
            out += &format!("  label: {}\n", d.label);
        }
        for l in &d.secondary {
            out += &format!("  secondary {}: {}\n", cover(l.span), l.message);
        }
        for n in &d.notes {
            out += &format!("  note: {n}\n");
        }
        if let Some(f) = &d.fix {
            out += &format!("  fix {}: replace with `{}` ({})\n", cover(f.span), f.replacement, f.message);
        }
    }
    out
}

fn check(text: &str, expect: Expect) {
    let (d, diags) = parse_directive(text, 0);
    let mut out = String::new();
    if let Some(d) = &d {
        out += &dump(d);
        out += &format!("display: {d}\n");
    } else {
        out += "no directive\n";
    }
    out += &render(text, 0, &diags);
    expect.assert_eq(&out);
}

#[test]
fn headline_example() {
    check(
        "acc parallel loop gang vector reduction(+:s) copyin(a[0:n], b[1:n-1][0:m]) copyout(s.arr[0:n], p->x)",
        expect![[r#"
            ParallelLoop `parallel loop` name 4..17 span 0..100
              Gang `gang` 18..22
              Vector `vector` 23..29 no arg
              Reduction `reduction` 30..44 op +@40..41
                `s`@42..43 base s@42..43
              Copyin `copyin` 45..74
                `a[0:n]`@52..58 base a@52..53 [`0`@54..55:`n`@56..57]@53..58
                `b[1:n-1][0:m]`@60..73 base b@60..61 [`1`@62..63:`n-1`@64..67]@61..68 [`0`@69..70:`m`@71..72]@68..73
              Copyout `copyout` 75..100
                `s.arr[0:n]`@83..93 base s@83..84 .arr@85..88 [`0`@89..90:`n`@91..92]@88..93
                `p->x`@95..99 base p@95..96 ->x@98..99
            display: acc parallel loop gang vector reduction(+:s) copyin(a[0:n], b[1:n-1][0:m]) copyout(s.arr[0:n], p->x)
        "#]],
    );
}
