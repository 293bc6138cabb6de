//! The typed model of one OpenACC directive: kinds, clauses, their
//! arguments and the span of every part.
//!
//! Expressions stay source text plus span; the front end owns their
//! meaning. Variables are kept as a base name with member, index and
//! subarray accessors, which is all the checks need.

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

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clause {
    pub kind: ClauseKind,
    /// The name as written, e.g. `pcopy` or `dtype`.
    pub spelling: String,
    pub name_span: Span,
    /// From the name through the closing parenthesis.
    pub span: Span,
    pub args: ClauseArgs,
}

impl Clause {
    /// The variables of a list clause (data clauses, `private`,
    /// `reduction`, ...), empty for other clauses.
    pub fn items(&self) -> &[VarItem] {
        match &self.args {
            ClauseArgs::Vars { items, .. } | ClauseArgs::Reduction { items, .. } => items,
            _ => &[],
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ClauseKind {
    Copy,
    Copyin,
    Copyout,
    Create,
    NoCreate,
    Present,
    Deviceptr,
    Attach,
    Detach,
    Delete,
    Private,
    Firstprivate,
    Reduction,
    UseDevice,
    DeviceResident,
    Link,
    Host,
    /// `device(list)` on `update`.
    Device,
    /// `self(list)` on `update`, `self[(cond)]` on compute constructs.
    SelfClause,
    Gang,
    Worker,
    Vector,
    Seq,
    Auto,
    Independent,
    Collapse,
    Tile,
    Async,
    Wait,
    NumGangs,
    NumWorkers,
    VectorLength,
    DeviceType,
    Default,
    If,
    IfPresent,
    Finalize,
    Bind,
    Nohost,
    DeviceNum,
    DefaultAsync,
}

/// Deprecated or short spellings and the clause they stand for.
const ALIASES: [(&str, ClauseKind); 9] = [
    ("pcopy", ClauseKind::Copy),
    ("present_or_copy", ClauseKind::Copy),
    ("pcopyin", ClauseKind::Copyin),
    ("present_or_copyin", ClauseKind::Copyin),
    ("pcopyout", ClauseKind::Copyout),
    ("present_or_copyout", ClauseKind::Copyout),
    ("pcreate", ClauseKind::Create),
    ("present_or_create", ClauseKind::Create),
    ("dtype", ClauseKind::DeviceType),
];

impl ClauseKind {
    pub const ALL: [ClauseKind; 41] = [
        ClauseKind::Copy,
        ClauseKind::Copyin,
        ClauseKind::Copyout,
        ClauseKind::Create,
        ClauseKind::NoCreate,
        ClauseKind::Present,
        ClauseKind::Deviceptr,
        ClauseKind::Attach,
        ClauseKind::Detach,
        ClauseKind::Delete,
        ClauseKind::Private,
        ClauseKind::Firstprivate,
        ClauseKind::Reduction,
        ClauseKind::UseDevice,
        ClauseKind::DeviceResident,
        ClauseKind::Link,
        ClauseKind::Host,
        ClauseKind::Device,
        ClauseKind::SelfClause,
        ClauseKind::Gang,
        ClauseKind::Worker,
        ClauseKind::Vector,
        ClauseKind::Seq,
        ClauseKind::Auto,
        ClauseKind::Independent,
        ClauseKind::Collapse,
        ClauseKind::Tile,
        ClauseKind::Async,
        ClauseKind::Wait,
        ClauseKind::NumGangs,
        ClauseKind::NumWorkers,
        ClauseKind::VectorLength,
        ClauseKind::DeviceType,
        ClauseKind::Default,
        ClauseKind::If,
        ClauseKind::IfPresent,
        ClauseKind::Finalize,
        ClauseKind::Bind,
        ClauseKind::Nohost,
        ClauseKind::DeviceNum,
        ClauseKind::DefaultAsync,
    ];

    /// The canonical spelling.
    pub fn name(self) -> &'static str {
        match self {
            ClauseKind::Copy => "copy",
            ClauseKind::Copyin => "copyin",
            ClauseKind::Copyout => "copyout",
            ClauseKind::Create => "create",
            ClauseKind::NoCreate => "no_create",
            ClauseKind::Present => "present",
            ClauseKind::Deviceptr => "deviceptr",
            ClauseKind::Attach => "attach",
            ClauseKind::Detach => "detach",
            ClauseKind::Delete => "delete",
            ClauseKind::Private => "private",
            ClauseKind::Firstprivate => "firstprivate",
            ClauseKind::Reduction => "reduction",
            ClauseKind::UseDevice => "use_device",
            ClauseKind::DeviceResident => "device_resident",
            ClauseKind::Link => "link",
            ClauseKind::Host => "host",
            ClauseKind::Device => "device",
            ClauseKind::SelfClause => "self",
            ClauseKind::Gang => "gang",
            ClauseKind::Worker => "worker",
            ClauseKind::Vector => "vector",
            ClauseKind::Seq => "seq",
            ClauseKind::Auto => "auto",
            ClauseKind::Independent => "independent",
            ClauseKind::Collapse => "collapse",
            ClauseKind::Tile => "tile",
            ClauseKind::Async => "async",
            ClauseKind::Wait => "wait",
            ClauseKind::NumGangs => "num_gangs",
            ClauseKind::NumWorkers => "num_workers",
            ClauseKind::VectorLength => "vector_length",
            ClauseKind::DeviceType => "device_type",
            ClauseKind::Default => "default",
            ClauseKind::If => "if",
            ClauseKind::IfPresent => "if_present",
            ClauseKind::Finalize => "finalize",
            ClauseKind::Bind => "bind",
            ClauseKind::Nohost => "nohost",
            ClauseKind::DeviceNum => "device_num",
            ClauseKind::DefaultAsync => "default_async",
        }
    }

    /// The clause a spelling names, aliases (`pcopy`, `present_or_copyin`,
    /// `dtype`, ...) included.
    pub fn from_spelling(spelling: &str) -> Option<ClauseKind> {
        ClauseKind::ALL
            .iter()
            .copied()
            .find(|k| k.name() == spelling)
            .or_else(|| {
                ALIASES
                    .iter()
                    .find(|(s, _)| *s == spelling)
                    .map(|&(_, k)| k)
            })
    }

    /// Every accepted spelling, canonical names first.
    pub fn spellings() -> impl Iterator<Item = &'static str> {
        ClauseKind::ALL
            .iter()
            .map(|k| k.name())
            .chain(ALIASES.iter().map(|(s, _)| *s))
    }

    /// Data clauses in the sense of OpenACC 3.3 section 2.7 (data mapping
    /// attributes, DMAs): `copy`, `copyin`, `copyout`, `create`,
    /// `no_create`, `present`, `deviceptr`, `attach`, `detach`, `delete`.
    pub fn is_data_clause(self) -> bool {
        matches!(
            self,
            ClauseKind::Copy
                | ClauseKind::Copyin
                | ClauseKind::Copyout
                | ClauseKind::Create
                | ClauseKind::NoCreate
                | ClauseKind::Present
                | ClauseKind::Deviceptr
                | ClauseKind::Attach
                | ClauseKind::Detach
                | ClauseKind::Delete
        )
    }

    /// Data sharing attributes (DSAs): `private`, `firstprivate`, `reduction`.
    pub fn is_data_sharing(self) -> bool {
        matches!(
            self,
            ClauseKind::Private | ClauseKind::Firstprivate | ClauseKind::Reduction
        )
    }

    /// The usage shown in notes, e.g. `copyin([readonly:] var-list)`.
    pub fn syntax(self) -> &'static str {
        match self {
            ClauseKind::Copy => "copy(var-list)",
            ClauseKind::Copyin => "copyin([readonly:] var-list)",
            ClauseKind::Copyout => "copyout([zero:] var-list)",
            ClauseKind::Create => "create([zero:] var-list)",
            ClauseKind::NoCreate => "no_create(var-list)",
            ClauseKind::Present => "present(var-list)",
            ClauseKind::Deviceptr => "deviceptr(var-list)",
            ClauseKind::Attach => "attach(var-list)",
            ClauseKind::Detach => "detach(var-list)",
            ClauseKind::Delete => "delete(var-list)",
            ClauseKind::Private => "private(var-list)",
            ClauseKind::Firstprivate => "firstprivate(var-list)",
            ClauseKind::Reduction => "reduction(operator:var-list)",
            ClauseKind::UseDevice => "use_device(var-list)",
            ClauseKind::DeviceResident => "device_resident(var-list)",
            ClauseKind::Link => "link(var-list)",
            ClauseKind::Host => "host(var-list)",
            ClauseKind::Device => "device(var-list)",
            ClauseKind::SelfClause => "self(var-list) on update, self[(condition)] elsewhere",
            ClauseKind::Gang => "gang[([num:]e, dim:e, static:e|*)]",
            ClauseKind::Worker => "worker[([num:]e)]",
            ClauseKind::Vector => "vector[([length:]e)]",
            ClauseKind::Seq => "seq",
            ClauseKind::Auto => "auto",
            ClauseKind::Independent => "independent",
            ClauseKind::Collapse => "collapse([force:]n)",
            ClauseKind::Tile => "tile(size-list)",
            ClauseKind::Async => "async[(queue)]",
            ClauseKind::Wait => "wait[([devnum:e:][queues:]queue-list)]",
            ClauseKind::NumGangs => "num_gangs(e[, e[, e]])",
            ClauseKind::NumWorkers => "num_workers(e)",
            ClauseKind::VectorLength => "vector_length(e)",
            ClauseKind::DeviceType => "device_type(* | name-list)",
            ClauseKind::Default => "default(none | present)",
            ClauseKind::If => "if(condition)",
            ClauseKind::IfPresent => "if_present",
            ClauseKind::Finalize => "finalize",
            ClauseKind::Bind => "bind(name | \"string\")",
            ClauseKind::Nohost => "nohost",
            ClauseKind::DeviceNum => "device_num(e)",
            ClauseKind::DefaultAsync => "default_async(e)",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClauseArgs {
    /// No parenthesized argument.
    None,
    /// A variable list with optional modifiers: data clauses, `private`,
    /// `firstprivate`, `use_device`, `device_resident`, `link`, `host`,
    /// `device`, and `self(list)` on `update`.
    Vars {
        modifiers: Vec<(DataModifier, Span)>,
        items: Vec<VarItem>,
    },
    Reduction {
        op: ReductionOp,
        op_span: Span,
        items: Vec<VarItem>,
    },
    /// One expression: `if`, `self(cond)`, `async(e)`, `num_workers`,
    /// `vector_length`, `device_num`, `default_async`.
    Expr(Expr),
    /// `num_gangs(e, ...)` and `tile(e | *, ...)`.
    Exprs(Vec<Expr>),
    Collapse {
        force: Option<Span>,
        count: Expr,
    },
    /// `gang(...)`; `gang` alone is [`ClauseArgs::None`].
    Gang(Vec<GangArg>),
    /// `worker[( [num:] e )]`.
    Worker(Option<Expr>),
    /// `vector[( [length:] e )]`.
    Vector(Option<Expr>),
    /// `wait[(...)]`.
    Wait(Option<WaitArgs>),
    /// `device_type(*)` (an [`Ident`] named `*`) or a list of names.
    DeviceTypes(Vec<Ident>),
    Default(DefaultKind, Span),
    Bind(BindTarget),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DataModifier {
    Zero,
    Readonly,
    Always,
    AlwaysIn,
    AlwaysOut,
    Capture,
}

impl DataModifier {
    pub const ALL: [DataModifier; 6] = [
        DataModifier::Zero,
        DataModifier::Readonly,
        DataModifier::Always,
        DataModifier::AlwaysIn,
        DataModifier::AlwaysOut,
        DataModifier::Capture,
    ];

    pub fn name(self) -> &'static str {
        match self {
            DataModifier::Zero => "zero",
            DataModifier::Readonly => "readonly",
            DataModifier::Always => "always",
            DataModifier::AlwaysIn => "alwaysin",
            DataModifier::AlwaysOut => "alwaysout",
            DataModifier::Capture => "capture",
        }
    }

    pub fn from_name(name: &str) -> Option<DataModifier> {
        DataModifier::ALL.iter().copied().find(|m| m.name() == name)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReductionOp {
    Add,
    Mul,
    Max,
    Min,
    BitAnd,
    BitOr,
    BitXor,
    LogAnd,
    LogOr,
}

impl ReductionOp {
    pub const ALL: [ReductionOp; 9] = [
        ReductionOp::Add,
        ReductionOp::Mul,
        ReductionOp::Max,
        ReductionOp::Min,
        ReductionOp::BitAnd,
        ReductionOp::BitOr,
        ReductionOp::BitXor,
        ReductionOp::LogAnd,
        ReductionOp::LogOr,
    ];

    /// The operator as written: `+`, `*`, `max`, `min`, `&`, `|`, `^`, `&&`, `||`.
    pub fn symbol(self) -> &'static str {
        match self {
            ReductionOp::Add => "+",
            ReductionOp::Mul => "*",
            ReductionOp::Max => "max",
            ReductionOp::Min => "min",
            ReductionOp::BitAnd => "&",
            ReductionOp::BitOr => "|",
            ReductionOp::BitXor => "^",
            ReductionOp::LogAnd => "&&",
            ReductionOp::LogOr => "||",
        }
    }

    pub fn from_symbol(symbol: &str) -> Option<ReductionOp> {
        ReductionOp::ALL
            .iter()
            .copied()
            .find(|o| o.symbol() == symbol)
    }
}

/// One argument of `gang(...)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GangArg {
    pub kind: GangArgKind,
    /// The `num:`, `dim:` or `static:` keyword; `None` for a bare
    /// expression, which means `num:`.
    pub kw: Option<Span>,
    /// The value; `static:*` has an [`Expr`] whose text is `*`.
    pub value: Expr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GangArgKind {
    Num,
    Dim,
    Static,
}

impl GangArgKind {
    pub fn name(self) -> &'static str {
        match self {
            GangArgKind::Num => "num",
            GangArgKind::Dim => "dim",
            GangArgKind::Static => "static",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DefaultKind {
    None,
    Present,
}

impl DefaultKind {
    pub fn name(self) -> &'static str {
        match self {
            DefaultKind::None => "none",
            DefaultKind::Present => "present",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BindTarget {
    Name(Ident),
    /// `bind("name")`: the text between the quotes, escapes kept as written.
    Str {
        value: String,
        span: Span,
    },
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
