//! What a front end tells the engine about one translation unit.
//!
//! The front end owns the syntax: it finds the directives, resolves names
//! to declarations and says which statement each directive applies to. The
//! engine only sees these facts, so the C and the Rust front ends get the
//! same OpenACC semantics from the same code.

pub mod flow;

use crate::directive::Directive;
use crate::span::Span;

/// Index of a variable in [`Unit::vars`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

/// Index of a construct in [`Unit::constructs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConstructId(pub u32);

/// The shape of a variable's type, as far as data attributes care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Arithmetic, enum, `_Bool`, complex.
    Scalar,
    /// OpenACC treats a pointer as a scalar (it is copied, not its target).
    Pointer,
    Array,
    /// `struct` or `union`.
    Aggregate,
}

impl Shape {
    /// OpenACC's "scalar": what gets `firstprivate` by default.
    pub fn is_scalar(self) -> bool {
        matches!(self, Shape::Scalar | Shape::Pointer)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Var {
    pub name: String,
    /// The declarator's span (the name where the declaration is).
    pub decl_span: Span,
    pub shape: Shape,
    /// The variable itself is `const` (for an array: its elements are).
    pub is_const: bool,
    /// Incomplete types cannot be copied or privatized.
    pub is_complete: bool,
    /// A declaration of an uninitialized variable of the same type and name,
    /// without storage class or initializer, e.g. `double v[10]`, used when a
    /// mapping must declare a local copy.
    pub decl_text: String,
    /// Declared at file scope (or `static`/`extern` in a function).
    pub is_global: bool,
    /// Where the name is in `decl_text`, so a lowering can declare a
    /// pointer to the type (`double (*p)[10]`) by replacing it.
    pub decl_name: std::ops::Range<usize>,
    /// The arithmetic type, for reductions; `None` for other types.
    pub scalar: Option<ScalarType>,
    /// For an array or a pointer: the arithmetic type of its elements.
    pub elem_scalar: Option<ScalarType>,
    /// For a `struct`: its members, when the front end knows the
    /// definition (reductions on composite variables need them).
    pub fields: Vec<Field>,
    /// An array whose first dimension is not a constant expression (a C99 variable-length
    /// array, `double c[n]`): C++ (a CUDA kernel) cannot spell a pointer to its type, but can
    /// one to an array of unknown bound (`double (*)[]`), which indexes the same.
    pub vla: bool,
}

impl Var {
    /// Whether the element that `indexes` subscripts of the variable reach is a pointer, as
    /// its declarator says: `rows[i]` of `double *rows[4]` or `double **rows` is; `grid[i]` of
    /// `double grid[4][8]` and `p[i]` of `double (*p)[8]` are arrays. A typedef'd pointer past
    /// the declarator's derivations counts as one (C subscripts nothing else).
    pub fn element_is_pointer(&self, indexes: usize) -> bool {
        let derivations = declarator_derivations(&self.decl_text, self.decl_name.clone());
        !matches!(derivations.get(indexes), Some(Derivation::Array))
    }

    /// Whether `indexes` subscripts of the variable stay in its own storage: `Some(true)` when
    /// each indexes an array its declarator declares (`c[0]` of `double c[2]`), `Some(false)`
    /// when one goes through a pointer (`p[i]`, `rows[0][j]` of `double *rows[4]`), `None`
    /// when the declarator does not say (an array of a typedef'd array type).
    pub fn indexes_own_storage(&self, indexes: usize) -> Option<bool> {
        match self.shape {
            Shape::Pointer => return Some(false),
            Shape::Array => {}
            Shape::Scalar | Shape::Aggregate => return (indexes == 0).then_some(true),
        }
        let derivations = declarator_derivations(&self.decl_text, self.decl_name.clone());
        for k in 0..indexes {
            match derivations.get(k) {
                Some(Derivation::Array) => {}
                Some(Derivation::Pointer) => return Some(false),
                None => return None,
            }
        }
        Some(true)
    }

    /// Whether member `m` of this struct is a pointer (`double *arr`; not an array member).
    pub fn has_pointer_member(&self, m: &str) -> bool {
        self.fields
            .iter()
            .any(|f| f.name == m && f.dims.is_empty() && f.type_text.ends_with('*'))
    }
}

/// The qualifiers a declarator may put after a `*` (C's, and GCC's spellings of `restrict`).
pub const TYPE_QUALIFIERS: &[&str] = &[
    "const",
    "volatile",
    "restrict",
    "__restrict",
    "__restrict__",
];

/// What a declarator makes of its name's type, from the name outward (what indexing the
/// name reaches first comes first): `*rows[4]` is an array of pointers, `(*p)[8]` a pointer
/// to arrays. A function declarator ends the list.
fn declarator_derivations(decl: &str, name: std::ops::Range<usize>) -> Vec<Derivation> {
    let is_word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let (mut left, mut right) = (decl[..name.start].trim_end(), decl[name.end..].trim_start());
    let mut out = Vec::new();
    loop {
        while let Some(rest) = right.strip_prefix('[') {
            out.push(Derivation::Array);
            right = rest.split_once(']').map_or("", |(_, r)| r).trim_start();
        }
        if right.starts_with('(') {
            return out;
        }
        loop {
            let trimmed = left.trim_end();
            let word = trimmed.bytes().rev().take_while(|&c| is_word(c)).count();
            let qualifier = &trimmed[trimmed.len() - word..];
            if word > 0 && TYPE_QUALIFIERS.contains(&qualifier) {
                left = &trimmed[..trimmed.len() - word];
            } else if let Some(rest) = trimmed.strip_suffix('*') {
                out.push(Derivation::Pointer);
                left = rest;
            } else {
                left = trimmed;
                break;
            }
        }
        match (left.strip_suffix('('), right.strip_prefix(')')) {
            (Some(l), Some(r)) => (left, right) = (l, r.trim_start()),
            _ => return out,
        }
    }
}

/// One step of [`declarator_derivations`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Derivation {
    Array,
    Pointer,
}

/// A member of a struct.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: String,
    /// The member's C type, without the array part (`long`, `double`).
    pub type_text: String,
    /// For an array member: its dimensions as written (`3`, `N`).
    pub dims: Vec<String>,
}

/// Arithmetic types, as reductions need them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarType {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F32,
    F64,
    Bool,
    /// `float _Complex`: `+` and `*` only.
    C32,
    /// `double _Complex`: `+` and `*` only.
    C64,
}

impl ScalarType {
    pub fn is_integer(self) -> bool {
        !matches!(
            self,
            ScalarType::F32 | ScalarType::F64 | ScalarType::C32 | ScalarType::C64
        )
    }
}

/// A `for` header in the canonical form OpenACC requires of partitioned
/// loops: `for (init; var cmp upper; var += step)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopHeader {
    pub var: String,
    /// The type when the variable is declared in the init (`int`).
    pub var_type: Option<String>,
    pub lower: String,
    pub upper: String,
    pub cmp: Cmp,
    /// The signed step, e.g. `1`, `-1`, `(s)`, `-(s)`.
    pub step: String,
    pub lower_span: Span,
    pub upper_span: Span,
    /// The step expression's span and whether it is subtracted; `None`
    /// for `++`/`--`.
    pub step_span: Option<(Span, bool)>,
    /// From `for` through the closing `)`.
    pub header_span: Span,
    /// The loop body statement (for a repaired body, the directive and
    /// statement that follow).
    pub body: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
    Ne,
}

/// One loop associated with a loop construct (several with `collapse`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopFacts {
    /// The span of the whole `for` statement.
    pub span: Span,
    /// The loop control variable, if the front end could find one.
    pub control: Option<VarId>,
    /// Declared in the init of the `for` (`for (int i = …)`) rather than
    /// just assigned (`for (i = …)`).
    pub declared_in_init: bool,
    /// The canonical form, when the header has one.
    pub header: Option<LoopHeader>,
    /// What the loop body does, for the dependence test of `auto` loops;
    /// `None` when the front end did not look.
    pub deps: Option<DepFacts>,
    /// When the body is a block: its statements (each with the directives in
    /// front of it), and those of them that declare variables.
    pub body_statements: Vec<Span>,
    pub body_declarations: Vec<Span>,
    /// The iterations differ in work (the body holds a loop whose bounds depend on this
    /// loop's variable: a triangular nest, a sparse row), so a host partition deals them out
    /// in balanced blocks rather than equal contiguous chunks.
    pub uneven_trips: bool,
    /// The control variable (declared before the loop) may be read after it: its final value
    /// is the program's, so a loop without a directive, which the program wrote to run in
    /// order, keeps running in order (a parallel loop's iterations have their own copies).
    pub control_live_after: bool,
}

/// The name a front end gives, among [`DepFacts::calls`], a store through a pointer or member
/// expression it does not analyse.
pub const INDIRECT_STORE: &str = "an indirect store";

/// What a loop body reads and writes, as the dependence test needs it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DepFacts {
    pub accesses: Vec<Access>,
    /// Variables assigned as a whole (`s += …`, `t = …`, `k++`).
    pub scalar_writes: Vec<(VarId, Span)>,
    /// Calls of functions not known to be pure, by name; a store whose target the front end
    /// cannot follow is one too, named [`INDIRECT_STORE`].
    pub calls: Vec<(String, Span)>,
    /// `break`, `return` or `goto` in the body (not in a nested loop or
    /// switch for `break`): the iteration count is not known in advance.
    pub early_exit: Option<Span>,
    /// Scalars among `scalar_writes` that the loop only reduces: every use of one in the loop
    /// is the accumulator of a statement of its own of one reduction operator (`s += a[i];`,
    /// `s = s * a[i];`, `m = fmax(m, a[i]);`, `n++;`). In parallel they need that reduction.
    pub reductions: Vec<(VarId, crate::directive::ReductionOp)>,
    /// Scalars among `scalar_writes` that each iteration assigns before it reads them and
    /// whose value after the loop nothing reads (`x = a[i] * 2; b[i] = x + 1;` with `x`
    /// declared at the top of the function): each iteration's own, as every compiler that
    /// parallelizes the loop makes them (nvc's "privatized" scalars).
    pub iteration_locals: Vec<VarId>,
    /// The loop statement: a variable declared inside it is each iteration's own (an array
    /// declared in the body is a fresh one each pass, C 6.2.4).
    pub span: Span,
    /// Every store whose target is not a subscript (those are [`Self::accesses`]): to a
    /// variable as a whole, to a member, or through a pointer (`*p = …`, `p->x = …`), with
    /// the variable the target is based on, declared inside the loop or not. A GPU's lanes
    /// need to know whose memory each store writes (`crate::facts` has no syntax of its own).
    pub stores: Vec<Store>,
}

/// One store of [`DepFacts::stores`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Store {
    /// The variable the target is based on (`p` of `p->x`, `s` of `s.a.b`).
    pub var: VarId,
    /// The target.
    pub span: Span,
    /// Whether the target is reached through a pointer (`*`, `->`): `Some(false)` when it is
    /// the variable's own storage (`s`, `s.x`), `None` when the front end cannot tell (a
    /// member of a subscripted element, `a[2].x`).
    pub through_pointer: Option<bool>,
}

/// One array access `a[e1][e2]…` (through an array or a pointer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    pub var: VarId,
    pub write: bool,
    /// Each subscript's text without whitespace, and how it depends on the
    /// loop's control variable.
    pub subscripts: Vec<(String, Subscript)>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subscript {
    /// `c * i + e` with a nonzero integer `c` and `e` unchanged by the loop.
    Affine(i64),
    /// Unchanged by the loop.
    Invariant,
    /// Anything else.
    Unknown,
}
#[derive(Clone, Debug)]
pub struct Construct {
    pub directive: Directive,
    /// The whole pragma (`#pragma acc …` line or `_Pragma(…)`), what a
    /// printer replaces.
    pub pragma_span: Span,
    pub parent: Option<ConstructId>,
    /// The associated statement, when the directive has one. For a `for`
    /// whose body was a directive, the span covers the repaired body.
    pub body: Option<Span>,
    /// For loop constructs: the associated loop nest, outermost first.
    pub loops: Vec<LoopFacts>,
    /// For each clause of `directive`, for each list item: the variable its
    /// base name resolves to at the directive.
    pub clause_vars: Vec<Vec<Option<VarId>>>,
    /// The statement is the immediate substatement of another statement
    /// (e.g. `if (c) #pragma acc update …`), which executable directives
    /// may not be.
    pub is_substatement: bool,
    /// For `routine` without a name and function-scope `declare`: the
    /// function the directive belongs to, as (name, span of the definition).
    pub function: Option<(String, Span)>,
    /// For `declare` in a block: the span of the rest of that block (after
    /// the directive up to, not including, the closing brace).
    pub block_rest: Option<Span>,
    /// The front end's value for clause arguments that are integer constant
    /// expressions (macros and `enum` constants included), by the span of
    /// the argument; `None` for an argument it knows is not constant.
    pub consts: Vec<(Span, Option<i64>)>,
    /// For a compute construct whose statement is a block: the block's
    /// statements, each with the directives in front of it (a `kernels`
    /// region runs each as its own kernel).
    pub statements: Vec<Span>,
    /// Those of `statements` that declare variables: their names stay in
    /// scope after them, so a lowering may not wrap them in a block.
    pub declarations: Vec<Span>,
    /// For a `kernels` construct: the loops without a loop directive that
    /// are its statement or statements of its block, with the statement's
    /// span (each may become a kernel of its own).
    pub plain_loops: Vec<(Span, LoopFacts)>,
    /// For a compute construct: the pointers declared outside it that its statement assigns
    /// before any read of them on every path (`p = base + i;` and then `*p`), so the value
    /// they have when it starts is never used.
    pub entry_unread: Vec<VarId>,
    /// For a compute construct: the scalars declared outside it that its statement only
    /// reads (no assignment, increment or address taken, no directive inside naming them, no
    /// use through a macro), as far as the front end can follow.
    pub read_only: Vec<VarId>,
    /// For a compute construct: the members of structs declared outside it that its statement
    /// names (`s.m`, not through a pointer), each once.
    pub members_used: Vec<(VarId, String)>,
}

/// A use of a variable's name in a statement (not in a declarator).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ref {
    pub var: VarId,
    pub span: Span,
    /// A use the text at `span` does not spell: a variable a macro's expansion or a
    /// variable-length array's type names. It counts for data attributes; nothing rewrites
    /// the text there for it.
    pub implied: bool,
}

/// Everything the engine knows about one translation unit.
#[derive(Clone, Debug, Default)]
pub struct Unit {
    /// The program says its pointers reach no common data (nvc's `-Msafeptr`): the
    /// dependence test takes every pointer as `restrict`.
    pub pointers_do_not_alias: bool,
    pub vars: Vec<Var>,
    /// In source order; a parent always comes before its children.
    pub constructs: Vec<Construct>,
    /// Sorted by `span.start`.
    pub refs: Vec<Ref>,
    /// The function definitions, in source order: name and the span of the definition (what
    /// profiling reports as an event's function).
    pub functions: Vec<(String, Span)>,
    /// Types a function declares for itself (`typedef … t;`, `struct s {…};`, `enum { N = 8 };`),
    /// in source order: the declaration as C text, where it stands, and the block it is
    /// visible in. Kernels outlined from that block after it repeat them.
    pub local_types: Vec<LocalType>,
    /// Each function's control-flow skeleton, for the data-mapping check; empty unless the
    /// front end was asked for it.
    pub flow: Vec<flow::FlowFn>,
    /// The `for` loops inside compute constructs whose initialization assigns a variable
    /// declared before the loop (`for (k = 0; …)`), in source order: the loop's span and the
    /// variable. A loop whose iterations run in parallel gives each iteration its own copy of
    /// such a counter of a loop nested in it (the assignment starts it afresh every time).
    pub loop_counters: Vec<(Span, VarId)>,
    /// The arms of `#if` chains the compiler will not see, where the front end can tell (the
    /// conditions name only macros it knows): what is written there is not the program's.
    pub dead_branches: Vec<Span>,
    /// Other compilers' pragmas that stood between a loop directive and its loop (`#pragma omp
    /// for`): left out of what acc writes, as the front end warned.
    pub left_out_pragmas: Vec<Span>,
    /// File-scope `#if` chains holding declarations (`typedef double real;` under `#ifdef
    /// DOUBLE`) whose live arm the front end could not tell without the preprocessor.
    pub undecided_declarations: Vec<Span>,
}

/// One of [`Unit::local_types`].
#[derive(Clone, Debug)]
pub struct LocalType {
    pub text: String,
    pub span: Span,
    pub scope: Span,
    /// The names a `typedef` declares (a kernel that repeats it, and the host code whose
    /// only use of it moved into a kernel, mark them used).
    pub typedef_names: Vec<String>,
}

impl Unit {
    pub fn var(&self, id: VarId) -> &Var {
        &self.vars[id.0 as usize]
    }

    pub fn construct(&self, id: ConstructId) -> &Construct {
        &self.constructs[id.0 as usize]
    }

    pub fn construct_ids(&self) -> impl Iterator<Item = ConstructId> {
        (0..self.constructs.len() as u32).map(ConstructId)
    }

    /// The function-local types visible at `at` (declared before it in a block around it),
    /// in source order.
    /// The counters of the loops inside `span` that start them by assignment (see
    /// [`Unit::loop_counters`]) and are declared outside it: variables a parallel loop around
    /// them makes its iterations' own, so assigning them is no dependence.
    pub fn nested_counters(&self, span: Span) -> Vec<VarId> {
        self.loop_counters
            .iter()
            .filter(|&&(at, v)| span.contains(at) && !span.contains(self.var(v).decl_span))
            .map(|&(_, v)| v)
            .collect()
    }

    pub fn local_types_at(&self, at: Span) -> impl Iterator<Item = &LocalType> {
        self.local_types
            .iter()
            .filter(move |t| t.span.end <= at.start && t.scope.contains(at))
    }

    /// The function whose definition contains `span`.
    pub fn enclosing_function(&self, span: Span) -> Option<&(String, Span)> {
        let i = self.functions.partition_point(|f| f.1.start <= span.start);
        self.functions[..i].last().filter(|f| f.1.contains(span))
    }

    /// The references inside `span`, in source order.
    pub fn refs_in(&self, span: Span) -> &[Ref] {
        let lo = self.refs.partition_point(|r| r.span.start < span.start);
        let hi = self.refs.partition_point(|r| r.span.start < span.end);
        &self.refs[lo..hi.max(lo)]
    }

    /// Is the variable declared inside the span (a local of that region)?
    pub fn declared_in(&self, var: VarId, span: Span) -> bool {
        span.contains(self.var(var).decl_span)
    }

    /// The ancestors of a construct, innermost first.
    pub fn ancestors(&self, id: ConstructId) -> impl Iterator<Item = ConstructId> + '_ {
        std::iter::successors(self.construct(id).parent, move |p| {
            self.construct(*p).parent
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{declarator_derivations, Derivation::*};

    fn of(decl: &str, name: &str) -> Vec<super::Derivation> {
        let at = decl.find(name).unwrap();
        declarator_derivations(decl, at..at + name.len())
    }

    #[test]
    fn declarators_derive_from_the_name_outward() {
        assert_eq!(of("double *rows[4]", "rows"), [Array, Pointer]);
        assert_eq!(of("double grid[4][8]", "grid"), [Array, Array]);
        assert_eq!(of("double (*p)[8]", "p"), [Pointer, Array]);
        assert_eq!(of("double *const *restrict m", "m"), [Pointer, Pointer]);
        assert_eq!(of("double *(*tab)[3]", "tab"), [Pointer, Array, Pointer]);
        assert_eq!(of("row_t rows[4]", "rows"), [Array]);
        assert_eq!(of("int (*f)(int)", "f"), [Pointer]);
    }
}
