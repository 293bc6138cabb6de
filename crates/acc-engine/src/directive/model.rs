//! The typed model of one OpenACC directive: its kind, argument, variables and
//! expressions, and the span of every part (its clauses are `clause`'s).
//!
//! Expressions stay source text plus span; the front end owns their
//! meaning. Variables are kept as a base name with member, index and
//! subarray accessors, which is all the checks need.

use super::clause::{Clause, ClauseArgs, ClauseKind};
use crate::span::Span;

/// One parsed directive, such as `acc parallel loop gang copy(a[0:n])`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directive {
    pub kind: DirectiveKind,
    /// The whole directive text.
    pub span: Span,
    /// The directive name, e.g. covering `parallel loop` or `enter data`.
    pub name_span: Span,
    pub clauses: Vec<Clause>,
    /// The parenthesized argument of `routine`, `wait` and `cache`, or the
    /// kind of an `atomic`.
    pub arg: Option<DirectiveArg>,
}

impl Directive {
    /// The clauses of one kind, in source order.
    pub fn clauses_of(&self, kind: ClauseKind) -> impl Iterator<Item = &Clause> {
        self.clauses.iter().filter(move |c| c.kind == kind)
    }

    /// True if a clause of this kind appears.
    pub fn has(&self, kind: ClauseKind) -> bool {
        self.clauses.iter().any(|c| c.kind == kind)
    }

    /// The text of the first clause of `kind` with an expression argument (the first of a
    /// list: `num_gangs(4, 2)` gives `4`).
    pub fn clause_expr(&self, kind: ClauseKind) -> Option<&str> {
        self.clauses
            .iter()
            .find(|c| c.kind == kind)
            .and_then(|c| match &c.args {
                ClauseArgs::Expr(e) => Some(e.text.as_str()),
                ClauseArgs::Exprs(es) => es.first().map(|e| e.text.as_str()),
                _ => None,
            })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DirectiveKind {
    Parallel,
    Serial,
    Kernels,
    Loop,
    ParallelLoop,
    SerialLoop,
    KernelsLoop,
    Data,
    EnterData,
    ExitData,
    Update,
    HostData,
    Declare,
    Routine,
    Atomic,
    Cache,
    Wait,
    Init,
    Shutdown,
    Set,
}

impl DirectiveKind {
    pub const ALL: [DirectiveKind; 20] = [
        DirectiveKind::Parallel,
        DirectiveKind::Serial,
        DirectiveKind::Kernels,
        DirectiveKind::Loop,
        DirectiveKind::ParallelLoop,
        DirectiveKind::SerialLoop,
        DirectiveKind::KernelsLoop,
        DirectiveKind::Data,
        DirectiveKind::EnterData,
        DirectiveKind::ExitData,
        DirectiveKind::Update,
        DirectiveKind::HostData,
        DirectiveKind::Declare,
        DirectiveKind::Routine,
        DirectiveKind::Atomic,
        DirectiveKind::Cache,
        DirectiveKind::Wait,
        DirectiveKind::Init,
        DirectiveKind::Shutdown,
        DirectiveKind::Set,
    ];

    /// The name as written after `acc`, e.g. `parallel loop`.
    pub fn name(self) -> &'static str {
        match self {
            DirectiveKind::Parallel => "parallel",
            DirectiveKind::Serial => "serial",
            DirectiveKind::Kernels => "kernels",
            DirectiveKind::Loop => "loop",
            DirectiveKind::ParallelLoop => "parallel loop",
            DirectiveKind::SerialLoop => "serial loop",
            DirectiveKind::KernelsLoop => "kernels loop",
            DirectiveKind::Data => "data",
            DirectiveKind::EnterData => "enter data",
            DirectiveKind::ExitData => "exit data",
            DirectiveKind::Update => "update",
            DirectiveKind::HostData => "host_data",
            DirectiveKind::Declare => "declare",
            DirectiveKind::Routine => "routine",
            DirectiveKind::Atomic => "atomic",
            DirectiveKind::Cache => "cache",
            DirectiveKind::Wait => "wait",
            DirectiveKind::Init => "init",
            DirectiveKind::Shutdown => "shutdown",
            DirectiveKind::Set => "set",
        }
    }

    /// `parallel`, `serial`, `kernels` and their combined forms.
    pub fn is_compute(self) -> bool {
        self.compute_part().is_some()
    }

    /// `parallel loop`, `serial loop`, `kernels loop`.
    pub fn is_combined(self) -> bool {
        matches!(
            self,
            DirectiveKind::ParallelLoop | DirectiveKind::SerialLoop | DirectiveKind::KernelsLoop
        )
    }

    /// `loop` or a combined construct: it applies to a `for` loop.
    pub fn is_loop(self) -> bool {
        self == DirectiveKind::Loop || self.is_combined()
    }

    /// The compute construct of a compute or combined construct
    /// (`ParallelLoop` gives `Parallel`).
    pub fn compute_part(self) -> Option<DirectiveKind> {
        match self {
            DirectiveKind::Parallel | DirectiveKind::ParallelLoop => Some(DirectiveKind::Parallel),
            DirectiveKind::Serial | DirectiveKind::SerialLoop => Some(DirectiveKind::Serial),
            DirectiveKind::Kernels | DirectiveKind::KernelsLoop => Some(DirectiveKind::Kernels),
            _ => None,
        }
    }

    /// Executable directives stand alone, with no associated statement:
    /// `enter data`, `exit data`, `update`, `wait`, `init`, `shutdown`, `set`.
    pub fn is_executable(self) -> bool {
        matches!(
            self,
            DirectiveKind::EnterData
                | DirectiveKind::ExitData
                | DirectiveKind::Update
                | DirectiveKind::Wait
                | DirectiveKind::Init
                | DirectiveKind::Shutdown
                | DirectiveKind::Set
        )
    }

    /// Declarative directives: `declare` and `routine`.
    pub fn is_declarative(self) -> bool {
        matches!(self, DirectiveKind::Declare | DirectiveKind::Routine)
    }

    /// Constructs that apply to a structured block: `parallel`, `serial`,
    /// `kernels`, `data` and `host_data`. Loop constructs apply to a loop
    /// instead (see [`DirectiveKind::is_loop`]) and `atomic` to one
    /// statement.
    pub fn has_structured_block(self) -> bool {
        matches!(
            self,
            DirectiveKind::Parallel
                | DirectiveKind::Serial
                | DirectiveKind::Kernels
                | DirectiveKind::Data
                | DirectiveKind::HostData
        )
    }
}

/// The parenthesized argument or kind that follows some directive names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DirectiveArg {
    /// `routine(name)`.
    RoutineName(Ident),
    /// The atomic kind and the span of its keyword; `None` when `acc atomic`
    /// stands alone and the kind is the implicit `update`.
    Atomic(AtomicKind, Option<Span>),
    /// `wait(...)` as a directive.
    Wait(WaitArgs),
    /// `cache([readonly:] list)`.
    Cache {
        readonly: Option<Span>,
        items: Vec<VarItem>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicKind {
    Read,
    Write,
    Update,
    Capture,
}

impl AtomicKind {
    pub fn name(self) -> &'static str {
        match self {
            AtomicKind::Read => "read",
            AtomicKind::Write => "write",
            AtomicKind::Update => "update",
            AtomicKind::Capture => "capture",
        }
    }
}

/// `[devnum: e :] [queues:] e, e, ...` in `wait(...)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaitArgs {
    pub devnum: Option<Expr>,
    pub queues_kw: Option<Span>,
    pub queues: Vec<Expr>,
    /// Everything between the parentheses.
    pub span: Span,
}

/// An expression kept as source text (trimmed, continuations turned into
/// spaces) and its span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub text: String,
    pub span: Span,
}

impl Expr {
    /// True for the `*` of `tile(*)` and `gang(static:*)`.
    pub fn is_star(&self) -> bool {
        self.text == "*"
    }

    /// The value of a plain integer literal: decimal, hex, octal or binary,
    /// with `u`/`l` suffixes, inside parentheses and with unary signs.
    /// `None` for anything else, including overflow.
    pub fn int_value(&self) -> Option<i64> {
        int_literal_value(&self.text)
    }
}

fn int_literal_value(text: &str) -> Option<i64> {
    let mut s = text.trim();
    let mut negative = false;
    // Peel parentheses and unary signs iteratively, so deep nesting cannot
    // overflow the stack.
    loop {
        if let Some(inner) = s.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
            s = inner.trim();
        } else if let Some(rest) = s.strip_prefix('-') {
            if rest.starts_with('-') {
                // `--x` is a decrement, not two negations.
                return None;
            }
            negative = !negative;
            s = rest.trim_start();
        } else if let Some(rest) = s.strip_prefix('+') {
            if rest.starts_with('+') {
                return None;
            }
            s = rest.trim_start();
        } else {
            break;
        }
    }
    let digits = s.trim_end_matches(['u', 'U', 'l', 'L']);
    let suffix = &s[digits.len()..];
    let suffix_ok = {
        let lower = suffix.to_ascii_lowercase();
        matches!(
            lower.as_str(),
            "" | "u" | "l" | "ul" | "lu" | "ll" | "ull" | "llu"
        ) && !suffix.contains("lL")
            && !suffix.contains("Ll")
    };
    if !suffix_ok || digits.is_empty() {
        return None;
    }
    let (radix, body) = if let Some(h) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        (16, h)
    } else if let Some(b) = digits
        .strip_prefix("0b")
        .or_else(|| digits.strip_prefix("0B"))
    {
        (2, b)
    } else if digits.len() > 1 && digits.starts_with('0') {
        (8, &digits[1..])
    } else {
        (10, digits)
    };
    if body.is_empty() || !body.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = i128::from_str_radix(body, radix).ok()?;
    let value = if negative { -magnitude } else { magnitude };
    i64::try_from(value).ok()
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// One variable in a list: `a`, `a[0:n]`, `s.arr[1:2]`, `p->x`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarItem {
    /// The source text (trimmed, continuations turned into spaces).
    pub text: String,
    pub span: Span,
    pub base: Ident,
    pub accessors: Vec<Accessor>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Accessor {
    /// `.x`
    Member(Ident),
    /// `->x`
    Arrow(Ident),
    /// `[e]`
    Index(Expr),
    /// `[lower:length]`, `[:length]`, `[lower:]`, `[:]`; the span covers the brackets.
    Section {
        lower: Option<Expr>,
        length: Option<Expr>,
        span: Span,
    },
}

impl VarItem {
    /// True if any accessor is a `[lower:length]` section.
    pub fn is_subarray(&self) -> bool {
        self.accessors
            .iter()
            .any(|a| matches!(a, Accessor::Section { .. }))
    }

    /// The sections as `(lower, length, span)`, outermost first.
    pub fn sections(&self) -> impl Iterator<Item = (Option<&Expr>, Option<&Expr>, Span)> {
        self.accessors.iter().filter_map(|a| match a {
            Accessor::Section {
                lower,
                length,
                span,
            } => Some((lower.as_ref(), length.as_ref(), *span)),
            _ => None,
        })
    }

    /// True if the item names a member (`s.x`, `p->x`).
    /// Whether the item's section lies in the target of a pointer that an element of `var`
    /// holds (`rows[i][0:n]` of `double *rows[4]` or `double **rows`), not in the variable's
    /// own storage (`grid[i][0:n]` of `double grid[4][8]`).
    pub fn sections_an_elements_pointee(&self, var: &crate::facts::Var) -> bool {
        let indexes = self
            .accessors
            .iter()
            .take_while(|a| matches!(a, Accessor::Index(_)))
            .count();
        indexes > 0
            && matches!(self.accessors.get(indexes), Some(Accessor::Section { .. }))
            && var.element_is_pointer(indexes)
    }

    pub fn is_member(&self) -> bool {
        self.accessors
            .iter()
            .any(|a| matches!(a, Accessor::Member(_) | Accessor::Arrow(_)))
    }

    /// The last name in the item: `x` for `s.a->x[0:n]`, `a` for `a[0:n]`.
    pub fn last_name(&self) -> &str {
        self.accessors
            .iter()
            .rev()
            .find_map(|a| match a {
                Accessor::Member(id) | Accessor::Arrow(id) => Some(id.name.as_str()),
                _ => None,
            })
            .unwrap_or(&self.base.name)
    }

    /// A canonical rendering without whitespace, used to decide whether two
    /// items name the same thing (`a[0 : n]` and `a[0:n]` do).
    pub fn key(&self) -> String {
        let mut key: String = self.base.name.clone();
        for a in &self.accessors {
            match a {
                Accessor::Member(id) => {
                    key.push('.');
                    key.push_str(&id.name);
                }
                Accessor::Arrow(id) => {
                    key.push_str("->");
                    key.push_str(&id.name);
                }
                Accessor::Index(e) => {
                    key.push('[');
                    key.extend(e.text.chars().filter(|c| !c.is_whitespace()));
                    key.push(']');
                }
                Accessor::Section { lower, length, .. } => {
                    key.push('[');
                    if let Some(e) = lower {
                        key.extend(e.text.chars().filter(|c| !c.is_whitespace()));
                    }
                    key.push(':');
                    if let Some(e) = length {
                        key.extend(e.text.chars().filter(|c| !c.is_whitespace()));
                    }
                    key.push(']');
                }
            }
        }
        key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(text: &str) -> Option<i64> {
        Expr {
            text: text.to_string(),
            span: Span::default(),
        }
        .int_value()
    }

    #[test]
    fn int_values() {
        assert_eq!(int("42"), Some(42));
        assert_eq!(int("0x1F"), Some(31));
        assert_eq!(int("010"), Some(8));
        assert_eq!(int("0b101"), Some(5));
        assert_eq!(int("0"), Some(0));
        assert_eq!(int("(-(3))"), Some(-3));
        assert_eq!(int("- 4"), Some(-4));
        assert_eq!(int("7ull"), Some(7));
        assert_eq!(int("7LU"), Some(7));
        assert_eq!(int("7lL"), None);
        assert_eq!(int("--4"), None);
        assert_eq!(int("n"), None);
        assert_eq!(int("1+1"), None);
        assert_eq!(int("09"), None);
        assert_eq!(int("99999999999999999999"), None);
        assert_eq!(int("*"), None);
        assert_eq!(int("()"), None);
    }
}
