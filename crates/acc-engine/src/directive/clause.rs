//! The clauses of a directive: kinds, spellings, which directives take them, and their
//! arguments (data modifiers, reduction operators, gang arguments, `default`, `bind`).

use super::model::{Expr, Ident, VarItem, WaitArgs};
use crate::span::Span;

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
