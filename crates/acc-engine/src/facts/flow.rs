//! The control-flow skeleton of each function, for the data-mapping check
//! ([`crate::check_data`]): host and device uses of variables in order,
//! the directives where they stand, branches, loops and the exits out of
//! them. A front end fills it in only when asked for the check (acc-c's
//! `check_data`); nothing else reads it, so it changes no other result.
//!
//! It owns the shape of the skeleton; it must not know what a directive
//! does to the present table (the check decides that).

use crate::facts::{ConstructId, VarId};
use crate::span::Span;

/// One function definition.
#[derive(Clone, Debug, Default)]
pub struct FlowFn {
    pub name: String,
    pub span: Span,
    pub params: Vec<VarId>,
    pub body: Vec<Step>,
}

/// One use of a variable's storage.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Use {
    pub var: VarId,
    /// The members named after the variable (`.data`, `->x`, `.a.b`), empty
    /// for the variable itself or its elements.
    pub path: String,
    pub span: Span,
    /// The statement the use is in (where a fix inserts a directive).
    pub stmt: Span,
    pub read: bool,
    pub write: bool,
    /// The variable itself is assigned (a pointer made to point elsewhere,
    /// a scalar set), not one of its elements or its target.
    pub whole: bool,
}

#[derive(Clone, Debug)]
pub enum Step {
    Use(Use),
    /// A directive; `body` holds the steps of its statement (empty for
    /// executable directives).
    Construct {
        id: ConstructId,
        body: Vec<Step>,
    },
    /// Alternatives; a missing `else` is an empty arm.
    Branch(Vec<Vec<Step>>),
    /// A loop: the steps of its condition (evaluated before each iteration
    /// and once more on the way out) and of its body (for a `for`, the update
    /// last; for a `do`, the condition last); `at_least_once` when the body
    /// surely runs (a `do` loop, constant bounds that enter); `endless` when
    /// only `break` (or `return`) leaves it (`while (1)`, `for (;;)`).
    Loop {
        cond: Vec<Step>,
        body: Vec<Step>,
        at_least_once: bool,
        endless: bool,
    },
    /// A `switch` body; `Case` steps inside are where control may enter.
    Switch {
        body: Vec<Step>,
        has_default: bool,
    },
    Case,
    Break,
    Continue,
    /// `return`, or a call that does not return (`exit`, `abort`).
    Return,
    /// A call of a function that may touch what `touched` point to, and any
    /// global or escaped variable. `args`: each argument that is a variable's
    /// name alone, by position (for the callee's summary).
    Call {
        name: String,
        span: Span,
        args: Vec<Option<VarId>>,
        touched: Vec<VarId>,
    },
    /// The variable's address or value as a pointer is taken where the
    /// front end cannot follow it (`p = a`, `&x`).
    Escape(VarId),
    /// A pointer (or a pointer member, `path`) gets a new value: a fresh
    /// allocation (`malloc`) or something unknown.
    Bind {
        var: VarId,
        path: String,
        fresh: bool,
    },
    /// `acc_wait`-like calls.
    Wait,
    /// Something the skeleton cannot follow (`goto`, a label).
    Opaque,
}
