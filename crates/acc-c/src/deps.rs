//! What a loop body reads and writes, for the engine's dependence test
//! (`acc_engine::dependence`).

use std::collections::{HashMap, HashSet};

use acc_engine::directive::ReductionOp;
use acc_engine::facts::{Access, DepFacts, Ref, ScalarType, Shape, Subscript, Unit, VarId};
use acc_engine::Span;
use tree_sitter::Node;

use crate::syntax::fields;
use crate::syntax::NodeKind;

/// `<math.h>` functions without side effects (errno aside, which no kernel reads), each also
/// with its `f` and `l` forms (`log10f`, `fmodl`); not those that store through a pointer
/// (`frexp`, `modf`, `remquo`) or set `signgam` (`lgamma`).
const MATH: &[&str] = &[
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "cbrt",
    "ceil",
    "copysign",
    "cos",
    "cosh",
    "erf",
    "erfc",
    "exp",
    "exp2",
    "expm1",
    "fabs",
    "fdim",
    "floor",
    "fma",
    "fmax",
    "fmin",
    "fmod",
    "hypot",
    "ilogb",
    "ldexp",
    "llrint",
    "llround",
    "log",
    "log10",
    "log1p",
    "log2",
    "logb",
    "lrint",
    "lround",
    "nearbyint",
    "nextafter",
    "pow",
    "remainder",
    "rint",
    "round",
    "scalbn",
    "sin",
    "sinh",
    "sqrt",
    "tan",
    "tanh",
    "tgamma",
    "trunc",
];

/// Whether `name` is a function without side effects that loops commonly call: the math
/// functions ([`MATH`], in every precision) and the integer `abs` family.
pub(crate) fn is_pure(name: &str) -> bool {
    MATH.contains(&name)
        || matches!(name, "abs" | "labs" | "llabs")
        || name
            .strip_suffix(['f', 'l'])
            .is_some_and(|base| MATH.contains(&base))
}

/// The facts of the `for` statement `node` whose control variable is
/// `control`; `refs` are the unit's references (sorted), which name the
/// variable at each identifier. `env` gives the macros and the headers' globals; a call of a
/// function of the file that only computes ([`crate::pure_functions`]) is no call of unknown
/// effect.
pub fn dep_facts(
    node: Node,
    src: &str,
    control: &str,
    unit: &Unit,
    env: &crate::types::TypeEnv,
) -> DepFacts {
    let mut cx = Cx {
        src,
        unit,
        macros: &env.macros,
        env,
        functions: crate::pure_functions::FileFunctions::of(node, src, env),
        control,
        written: HashSet::new(),
        writes: HashMap::new(),
        initializers: HashMap::new(),
        facts: DepFacts::default(),
        loop_span: Span::new(node.start_byte(), node.end_byte()),
        nested: 0,
        reducing: HashMap::new(),
    };
    let Some(body) = node.child_by_field_id(fields().body.get()) else {
        return cx.facts;
    };
    cx.collect_written(body);
    cx.walk(body);
    cx.finish_reductions();
    cx.facts.iteration_locals = iteration_locals(&cx, node, body);
    cx.facts.span = cx.loop_span;
    cx.facts
}

/// [`DepFacts::iteration_locals`]: the scalars from outside the loop (not file-scope ones,
/// which other functions may read, nor ones whose address the function takes, nor ones its
/// header names, whose condition or step reads the shared value) that the body assigns before
/// reading on every pass, and that nothing after the loop reads.
fn iteration_locals(cx: &Cx, node: Node, body: Node) -> Vec<VarId> {
    let mut vars: Vec<VarId> = cx.facts.scalar_writes.iter().map(|w| w.0).collect();
    vars.sort();
    vars.dedup();
    vars.retain(|&v| {
        let var = cx.unit.var(v);
        let name = var.name.as_str();
        var.shape == acc_engine::facts::Shape::Scalar
            && !var.is_global
            && !cx.facts.reductions.iter().any(|r| r.0 == v)
            && !crate::loops::header_names(node, cx.src, name)
            && crate::loops::assigned_before_read(body, cx.src, name)
            && !crate::loops::used_after(node, cx.src, name)
            && !crate::loops::address_taken(node, cx.src, name)
    });
    vars
}

/// The file's function-like macros: name, then parameters and body.
/// The macros in effect, by name ([`crate::TypeEnv::macros`]).
pub type Macros = HashMap<String, crate::macro_expand::MacroDef>;

/// Whether the macro `name`, called, only computes a value from its arguments: a
/// function-like macro with no assignment, increment or call in its body other than of
/// [`is_pure`] functions and of such macros (`#define AT(i, j) ((i) * n + (j))`), or an
/// object-like one that names such a function or macro (`#define fabsr fabsf`). Its use is
/// then no call of unknown effect; what its arguments do, the walk sees in them.
fn pure_macro(name: &str, macros: &Macros, depth: usize) -> bool {
    let Some(def) = macros.get(name) else {
        return false;
    };
    if depth > 8 {
        return false;
    }
    let body = def.body.trim();
    if def.params.is_none() {
        let is_name = !body.is_empty() && body.bytes().all(is_word);
        return is_name && (is_pure(body) || pure_macro(body, macros, depth + 1));
    }
    if writes_something(body) {
        return false;
    }
    let b = body.as_bytes();
    let mut words = body.char_indices().peekable();
    while let Some((at, ch)) = words.next() {
        if !(ch.is_ascii_alphabetic() || ch == '_') || (at > 0 && is_word(b[at - 1])) {
            continue;
        }
        let end = body[at..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(body.len(), |k| at + k);
        let word = &body[at..end];
        let called = body[end..].trim_start().starts_with('(');
        if called && word != "sizeof" && !is_pure(word) && !pure_macro(word, macros, depth + 1) {
            return false;
        }
        while words.peek().is_some_and(|&(k, _)| k < end) {
            words.next();
        }
    }
    true
}

/// Whether macro text assigns (`=`, `+=`, ...) or steps (`++`, `--`) anything.
pub(crate) fn writes_something(body: &str) -> bool {
    let b = body.as_bytes();
    b.iter().enumerate().any(|(i, &c)| {
        let next = b.get(i + 1).copied();
        let prev = i.checked_sub(1).map(|j| b[j]);
        let assigns =
            c == b'=' && next != Some(b'=') && !matches!(prev, Some(b'=' | b'!' | b'<' | b'>'));
        assigns || ((c == b'+' || c == b'-') && next == Some(c))
    })
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

struct Cx<'t, 's, 'u> {
    src: &'s str,
    unit: &'u Unit,
    macros: &'u Macros,
    /// The file's constants (macros, enumerators): a subscript's constant factor
    /// (`y * W` with `#define W 48`) is known through them.
    env: &'u crate::types::TypeEnv,
    functions: crate::pure_functions::FileFunctions<'t, 's>,
    control: &'s str,
    /// Every name assigned anywhere in the body (locals too): subscripts
    /// that use one are not invariant.
    written: HashSet<&'s str>,
    /// How many times the body assigns or declares each name, and the initializer of a local
    /// it declares with one (`const int ix = nx * j + i;`): a subscript that is such a local,
    /// never assigned again, steps as its initializer does.
    writes: HashMap<&'s str, usize>,
    initializers: HashMap<&'s str, Node<'s>>,
    facts: DepFacts,
    loop_span: Span,
    /// Depth of loops and switches inside the body (`break` in them stays).
    nested: usize,
    /// Each scalar from outside the loop that the body assigns: the reduction operator of
    /// every such assignment so far (`None` once one is no reduction statement, or another
    /// operator's) and how many references to it those statements make.
    reducing: HashMap<VarId, (Option<ReductionOp>, usize)>,
}

fn strip_parens(mut n: Node) -> Node {
    while n.node_kind() == "parenthesized_expression" {
        match n.named_child(0) {
            Some(inner) => n = inner,
            None => break,
        }
    }
    n
}

/// [`acc_engine::facts::Store::through_pointer`] of a store's target that is no subscript:
/// whether the way from the target down to its variable dereferences a pointer (`*p`, `p->x`),
/// `None` where a subscript on the way leaves that to the element's type (`a[2].x`).
fn through_pointer(mut n: Node) -> Option<bool> {
    let f = fields();
    let mut known = true;
    loop {
        match n.node_kind() {
            "identifier" => return if known { Some(false) } else { None },
            "pointer_expression" => return Some(true),
            "field_expression" => {
                let arrow = n
                    .child_by_field_id(f.operator.get())
                    .is_some_and(|o| o.kind() == "->");
                if arrow {
                    return Some(true);
                }
            }
            "subscript_expression" => known = false,
            "parenthesized_expression" => {}
            _ => return None,
        }
        n = n
            .child_by_field_id(f.argument.get())
            .or_else(|| n.named_child(0))?;
    }
}

fn span(n: Node) -> Span {
    Span::new(n.start_byte(), n.end_byte())
}

impl<'s> Cx<'_, 's, '_> {
    fn text(&self, n: Node) -> &'s str {
        &self.src[n.byte_range()]
    }

    fn var_at(&self, n: Node) -> Option<&Ref> {
        let s = span(n);
        let i = self.unit.refs.partition_point(|r| r.span.start < s.start);
        self.unit.refs.get(i).filter(|r| r.span == s)
    }

    /// The variable an lvalue or array expression is based on.
    fn base<'n>(&self, mut n: Node<'n>) -> Option<Node<'n>> {
        let f = fields();
        loop {
            match n.node_kind() {
                "identifier" => return Some(n),
                "subscript_expression"
                | "field_expression"
                | "pointer_expression"
                | "parenthesized_expression" => {
                    n = n
                        .child_by_field_id(f.argument.get())
                        .or_else(|| n.named_child(0))?;
                }
                _ => return None,
            }
        }
    }

    fn collect_written(&mut self, n: Node<'s>) {
        let f = fields();
        let target = match n.node_kind() {
            "assignment_expression" => n.child_by_field_id(f.left.get()),
            "update_expression" => n.child_by_field_id(f.argument.get()),
            _ => None,
        };
        if let Some(b) = target.and_then(|t| self.base(t)) {
            self.written.insert(self.text(b));
            *self.writes.entry(self.text(b)).or_default() += 1;
        }
        if n.node_kind() == "declaration" {
            let mut c = n.walk();
            for d in n.children_by_field_id(f.declarator, &mut c) {
                let name = match d.node_kind() {
                    "identifier" => Some(d),
                    _ => d
                        .child_by_field_id(f.declarator.get())
                        .filter(|x| x.node_kind() == "identifier"),
                };
                if let Some(id) = name {
                    self.written.insert(self.text(id));
                    *self.writes.entry(self.text(id)).or_default() += 1;
                    if let Some(init) = d.child_by_field_id(f.value.get()) {
                        self.initializers.insert(self.text(id), init);
                    }
                }
            }
        }
        let mut c = n.walk();
        for ch in n.named_children(&mut c) {
            self.collect_written(ch);
        }
    }

    fn subscript(&self, n: Node) -> Subscript {
        self.subscript_within(n, 0)
    }

    /// `depth`: how many locals' initializers the classification has gone through.
    fn subscript_within(&self, n: Node, depth: usize) -> Subscript {
        let f = fields();
        let subscript = |x: Node| self.subscript_within(x, depth);
        match n.node_kind() {
            "identifier" if self.text(n) == self.control => Subscript::Affine(1),
            "identifier" if self.written.contains(self.text(n)) => {
                let name = self.text(n);
                match self.initializers.get(name) {
                    Some(&init) if self.writes.get(name) == Some(&1) && depth < 8 => {
                        self.subscript_within(init, depth + 1)
                    }
                    _ => Subscript::Unknown,
                }
            }
            "identifier" | "number_literal" | "sizeof_expression" => Subscript::Invariant,
            "parenthesized_expression" => n.named_child(0).map_or(Subscript::Unknown, subscript),
            "cast_expression" => n
                .child_by_field_id(f.value.get())
                .map_or(Subscript::Unknown, subscript),
            "unary_expression" if self.text(n).starts_with('-') => {
                match n.child_by_field_id(f.argument.get()).map(subscript) {
                    Some(Subscript::Affine(c)) => Subscript::Affine(-c),
                    Some(s) => s,
                    None => Subscript::Unknown,
                }
            }
            "binary_expression" => {
                let (Some(l), Some(r), Some(op)) = (
                    n.child_by_field_id(f.left.get()),
                    n.child_by_field_id(f.right.get()),
                    n.child_by_field_id(f.operator.get()),
                ) else {
                    return Subscript::Unknown;
                };
                let (a, b) = (subscript(l), subscript(r));
                let literal = |x: Node| {
                    crate::consts::parse_int(self.text(x))
                        .or_else(|| crate::consts::eval(self.text(x), self.env))
                        .filter(|&k| k != 0)
                };
                use Subscript::*;
                match (self.text(op), a, b) {
                    (_, Invariant, Invariant) => Invariant,
                    ("+", Affine(c), Invariant)
                    | ("+", Invariant, Affine(c))
                    | ("-", Affine(c), Invariant) => Affine(c),
                    ("-", Invariant, Affine(c)) => Affine(-c),
                    ("*", Affine(c), Invariant) => literal(r)
                        .and_then(|k| c.checked_mul(k))
                        .map_or(Unknown, Affine),
                    ("*", Invariant, Affine(c)) => literal(l)
                        .and_then(|k| c.checked_mul(k))
                        .map_or(Unknown, Affine),
                    _ => Unknown,
                }
            }
            _ => {
                // Anything else is invariant when nothing in it changes.
                let mut varies = false;
                self.any_identifier(n, &mut |name| {
                    varies |= name == self.control || self.written.contains(name);
                });
                if varies {
                    Subscript::Unknown
                } else {
                    Subscript::Invariant
                }
            }
        }
    }

    fn any_identifier(&self, n: Node, f: &mut dyn FnMut(&str)) {
        if n.node_kind() == "identifier" {
            f(self.text(n));
        }
        let mut c = n.walk();
        for ch in n.named_children(&mut c) {
            self.any_identifier(ch, f);
        }
    }

    /// Records an access `a[e1][e2]…` (the outermost subscript node).
    fn access(&mut self, n: Node<'s>, write: bool) {
        let f = fields();
        let mut indices = Vec::new();
        let mut cur = n;
        while cur.node_kind() == "subscript_expression" {
            if let Some(i) = cur.child_by_field_id(f.index.get()) {
                indices.push(i);
            }
            match cur.child_by_field_id(f.argument.get()) {
                Some(a) => cur = a,
                None => break,
            }
        }
        indices.reverse();
        for &i in &indices {
            self.walk(i);
        }
        let Some(var) = (cur.node_kind() == "identifier")
            .then(|| self.var_at(cur))
            .flatten()
            .map(|r| r.var)
        else {
            // Through a member or a pointer expression: not analysed.
            self.walk(cur);
            if write {
                self.facts
                    .calls
                    .push((acc_engine::facts::INDIRECT_STORE.into(), span(n)));
            }
            return;
        };
        let subscripts = indices
            .iter()
            .map(|&i| {
                let text: String = self.text(i).split_whitespace().collect();
                (text, self.subscript(i))
            })
            .collect();
        self.facts.accesses.push(Access {
            var,
            write,
            subscripts,
            span: span(n),
        });
    }

    fn store(&mut self, target: Node<'s>) {
        if target.node_kind() == "subscript_expression" {
            self.access(target, true);
            // A compound assignment reads the element too; the same
            // subscripts, so nothing more to record.
            return;
        }
        match self.base(target) {
            Some(b) => {
                if let Some(r) = self.var_at(b).copied() {
                    let v = self.unit.var(r.var);
                    if v.name != self.control {
                        self.facts.stores.push(acc_engine::facts::Store {
                            var: r.var,
                            span: span(target),
                            through_pointer: through_pointer(target),
                        });
                    }
                    let local = self.loop_span.contains(v.decl_span);
                    if !local && v.name != self.control {
                        self.facts.scalar_writes.push((r.var, span(target)));
                        let form = target
                            .parent()
                            .and_then(|statement| self.reduction_form(statement, r.var));
                        let entry = self.reducing.entry(r.var).or_insert((form.map(|f| f.0), 0));
                        match form {
                            Some((op, refs)) if entry.0 == Some(op) => entry.1 += refs,
                            _ => entry.0 = None,
                        }
                    }
                }
                if target.node_kind() != "identifier" {
                    self.walk(target);
                }
            }
            None => self
                .facts
                .calls
                .push((acc_engine::facts::INDIRECT_STORE.into(), span(target))),
        }
    }

    /// The reduction `assignment` performs on `var` (the scalar it assigns) when it is a
    /// statement of its own in one of the forms compilers recognize as a reduction without a
    /// clause (nvc in `kernels`): `v op= e`, `v = v op e`, `v = e op v` (`op` commutative),
    /// `v = v - e`, `v = fmax(v, e)` / `fmin` in either order, `v++`, `v--`; with the number
    /// of references to `v` it makes. An integer `v` must add or multiply an integer `e`: with
    /// a floating one C converts after each step (`n += 0.5` truncates), which a reduction
    /// of partial results does not.
    fn reduction_form(&self, assignment: Node<'s>, var: VarId) -> Option<(ReductionOp, usize)> {
        let f = fields();
        let operator = |n: Node| n.child_by_field_id(f.operator.get()).map(|o| self.text(o));
        let statement = assignment.parent()?;
        if statement.node_kind() != "expression_statement" {
            return None;
        }
        let v = self.unit.var(var);
        let ty = v.scalar.filter(|_| v.shape == Shape::Scalar)?;
        if ty == ScalarType::Bool {
            return None;
        }
        let is_v = |n: Node| {
            let n = strip_parens(n);
            n.node_kind() == "identifier" && self.var_at(n).is_some_and(|r| r.var == var)
        };
        // A maximum or minimum chosen by a comparison (`if (e > v) v = e;`,
        // `v = e > v ? e : v;`): exact on integers too.
        let real = !matches!(ty, ScalarType::C32 | ScalarType::C64);
        if real
            && assignment.node_kind() == "assignment_expression"
            && operator(assignment) == Some("=")
        {
            let right = strip_parens(assignment.child_by_field_id(f.right.get())?);
            if let Some(form) = self.chosen_extreme(statement, right, &is_v) {
                return Some(form);
            }
        }
        let arithmetic = |op: ReductionOp, e: Node| match op {
            ReductionOp::Add | ReductionOp::Mul => !ty.is_integer() || self.integer_valued(e),
            ReductionOp::BitAnd | ReductionOp::BitOr | ReductionOp::BitXor => ty.is_integer(),
            ReductionOp::Max | ReductionOp::Min => matches!(ty, ScalarType::F32 | ScalarType::F64),
            ReductionOp::LogAnd | ReductionOp::LogOr => false,
        };
        let (op, e, refs) = match assignment.node_kind() {
            "update_expression" => return Some((ReductionOp::Add, 1)),
            "assignment_expression" => {
                let right = strip_parens(assignment.child_by_field_id(f.right.get())?);
                match operator(assignment)? {
                    "+=" | "-=" => (ReductionOp::Add, right, 1),
                    "*=" => (ReductionOp::Mul, right, 1),
                    "&=" => (ReductionOp::BitAnd, right, 1),
                    "|=" => (ReductionOp::BitOr, right, 1),
                    "^=" => (ReductionOp::BitXor, right, 1),
                    "=" => self.reduction_of_value(right, &is_v)?,
                    _ => return None,
                }
            }
            _ => return None,
        };
        arithmetic(op, e).then_some((op, refs))
    }

    /// `v = e > v ? e : v` (a conditional choosing between `v` and `e` by comparing them), or
    /// `v = e` as the only statement of `if (e > v)` without `else`: `max` or `min`, and the
    /// references to `v` the statement makes (with the condition's).
    fn chosen_extreme(
        &self,
        statement: Node<'s>,
        right: Node<'s>,
        is_v: &dyn Fn(Node) -> bool,
    ) -> Option<(ReductionOp, usize)> {
        let f = fields();
        let same = |a: Node, b: Node| {
            self.text(strip_parens(a))
                .split_whitespace()
                .collect::<String>()
                == self
                    .text(strip_parens(b))
                    .split_whitespace()
                    .collect::<String>()
        };
        // Which extreme `cond` keeps when, true, it picks `winner`: the greater of the two
        // (`max`) when `winner` is the left side of `>` or the right side of `<`.
        let compare = |cond: Node, winner: Node| -> Option<ReductionOp> {
            let cond = strip_parens(cond);
            if cond.node_kind() != "binary_expression" {
                return None;
            }
            let l = cond.child_by_field_id(f.left.get())?;
            let r = cond.child_by_field_id(f.right.get())?;
            let greater = match self.text(cond.child_by_field_id(f.operator.get())?) {
                ">" | ">=" => true,
                "<" | "<=" => false,
                _ => return None,
            };
            // `l op r` true picks `winner`: the greater of the two when `winner` is `l` of `>`.
            let winner_is_left = if same(l, winner) && is_v(r) {
                true
            } else if same(r, winner) && is_v(l) {
                false
            } else if is_v(winner) && is_v(l) && !is_v(r) {
                true
            } else if is_v(winner) && is_v(r) && !is_v(l) {
                false
            } else {
                return None;
            };
            Some(if greater == winner_is_left {
                ReductionOp::Max
            } else {
                ReductionOp::Min
            })
        };
        if right.node_kind() == "conditional_expression" {
            let cond = right.child_by_field_id(f.condition.get())?;
            let then = right.child_by_field_name("consequence")?;
            let other = right.child_by_field_id(f.alternative.get())?;
            // One branch is `v`, the other the value compared with it.
            if is_v(then) == is_v(other) {
                return None;
            }
            return compare(cond, then).map(|op| (op, 3));
        }
        // `if (cond) v = e;` or `if (cond) { v = e; }`, no `else`.
        let mut holder = statement.parent()?;
        if holder.node_kind() == "compound_statement" {
            if holder.named_child_count() != 1 {
                return None;
            }
            holder = holder.parent()?;
        }
        if holder.node_kind() != "if_statement"
            || holder.child_by_field_id(f.alternative.get()).is_some()
        {
            return None;
        }
        let cond = holder.child_by_field_id(f.condition.get())?;
        let cond = match cond.node_kind() {
            "condition_clause" | "parenthesized_expression" => cond.named_child(0)?,
            _ => cond,
        };
        if is_v(right) {
            return None;
        }
        compare(cond, right).map(|op| (op, 2))
    }

    /// `v op e`, `e op v` or `fmax(v, e)`-like: the operator, `e`, and the two references to
    /// `v` the statement `v = …` makes.
    fn reduction_of_value(
        &self,
        value: Node<'s>,
        is_v: &dyn Fn(Node) -> bool,
    ) -> Option<(ReductionOp, Node<'s>, usize)> {
        let f = fields();
        match value.node_kind() {
            "binary_expression" => {
                let l = value.child_by_field_id(f.left.get())?;
                let r = value.child_by_field_id(f.right.get())?;
                let op = match self.text(value.child_by_field_id(f.operator.get())?) {
                    "+" => ReductionOp::Add,
                    "*" => ReductionOp::Mul,
                    "&" => ReductionOp::BitAnd,
                    "|" => ReductionOp::BitOr,
                    "^" => ReductionOp::BitXor,
                    "-" if is_v(l) => return Some((ReductionOp::Add, r, 2)),
                    _ => return None,
                };
                if is_v(l) {
                    Some((op, r, 2))
                } else if is_v(r) {
                    Some((op, l, 2))
                } else {
                    None
                }
            }
            "call_expression" => {
                let name = self.text(value.child_by_field_id(f.function.get())?);
                let op = match name.trim_end_matches(['f', 'l']) {
                    "fmax" => ReductionOp::Max,
                    "fmin" => ReductionOp::Min,
                    _ => return None,
                };
                let args = value.child_by_field_id(f.arguments.get())?;
                let mut c = args.walk();
                let args: Vec<Node> = args.named_children(&mut c).collect();
                match args.as_slice() {
                    [a, b] if is_v(*a) => Some((op, *b, 2)),
                    [a, b] if is_v(*b) => Some((op, *a, 2)),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Whether expression `e` has an integer value by what it is made of: integer constants,
    /// and variables and elements of integer type, combined by operators (no calls, casts,
    /// members or floating constants, whose type this reading does not follow).
    fn integer_valued(&self, e: Node<'s>) -> bool {
        match e.node_kind() {
            "number_literal" => {
                let t = self.text(e).to_ascii_lowercase();
                !(t.contains('.') || (!t.starts_with("0x") && t.contains('e')) || t.contains('p'))
            }
            "char_literal" | "sizeof_expression" => true,
            "identifier" => self.var_at(e).is_some_and(|r| {
                let v = self.unit.var(r.var);
                v.scalar.or(v.elem_scalar).is_some_and(|t| t.is_integer())
                    && matches!(v.shape, Shape::Scalar | Shape::Array | Shape::Pointer)
            }),
            "subscript_expression" => {
                let f = fields();
                let mut base = e;
                while base.node_kind() == "subscript_expression" {
                    match base.child_by_field_id(f.argument.get()) {
                        Some(a) => base = a,
                        None => return false,
                    }
                }
                base.node_kind() == "identifier"
                    && self.var_at(base).is_some_and(|r| {
                        let v = self.unit.var(r.var);
                        v.elem_scalar.is_some_and(|t| t.is_integer())
                    })
            }
            "binary_expression"
            | "unary_expression"
            | "parenthesized_expression"
            | "conditional_expression" => {
                let f = fields();
                let mut c = e.walk();
                let children: Vec<Node> = e.named_children(&mut c).collect();
                children.into_iter().all(|ch| {
                    // A comparison's operands may be of any type: its value is an `int`.
                    let comparison = e.node_kind() == "binary_expression"
                        && e.child_by_field_id(f.operator.get()).is_some_and(|o| {
                            matches!(
                                self.text(o),
                                "<" | ">" | "<=" | ">=" | "==" | "!=" | "&&" | "||"
                            )
                        });
                    comparison || self.integer_valued(ch)
                })
            }
            _ => false,
        }
    }

    /// Keeps, of the scalars the body assigns, those it only reduces ([`DepFacts::reductions`]):
    /// the references its reduction statements make are all the loop makes to it.
    fn finish_reductions(&mut self) {
        let mut reductions: Vec<(VarId, ReductionOp)> = self
            .reducing
            .iter()
            .filter_map(|(&var, &(op, refs))| {
                let op = op?;
                let all = self
                    .unit
                    .refs
                    .iter()
                    .filter(|r| r.var == var && self.loop_span.contains(r.span))
                    .count();
                (all == refs).then_some((var, op))
            })
            .collect();
        reductions.sort_by_key(|(v, _)| *v);
        self.facts.reductions = reductions;
    }

    fn walk(&mut self, n: Node<'s>) {
        let f = fields();
        match n.node_kind() {
            "assignment_expression" => {
                if let Some(l) = n.child_by_field_id(f.left.get()) {
                    self.store(l);
                }
                if let Some(r) = n.child_by_field_id(f.right.get()) {
                    self.walk(r);
                }
            }
            "update_expression" => {
                if let Some(a) = n.child_by_field_id(f.argument.get()) {
                    self.store(a);
                }
            }
            "subscript_expression" => self.access(n, false),
            "call_expression" => {
                if let Some(func) = n.child_by_field_id(f.function.get()) {
                    let name = self.text(func);
                    // `_Pragma("acc loop")` is a directive in operator form, not a call.
                    if name != "_Pragma"
                        && !is_pure(name)
                        && !pure_macro(name, self.macros, 0)
                        && !self.functions.is_pure(name)
                    {
                        self.facts.calls.push((name.to_string(), span(n)));
                    }
                }
                if let Some(a) = n.child_by_field_id(f.arguments.get()) {
                    self.walk(a);
                }
            }
            "return_statement" | "goto_statement" => {
                self.facts.early_exit.get_or_insert(span(n));
            }
            "break_statement" if self.nested == 0 => {
                self.facts.early_exit.get_or_insert(span(n));
            }
            "for_statement" | "while_statement" | "do_statement" | "switch_statement" => {
                self.nested += 1;
                let mut c = n.walk();
                let children: Vec<Node> = n.named_children(&mut c).collect();
                for ch in children {
                    self.walk(ch);
                }
                self.nested -= 1;
            }
            _ => {
                let mut c = n.walk();
                let children: Vec<Node> = n.named_children(&mut c).collect();
                for ch in children {
                    self.walk(ch);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
