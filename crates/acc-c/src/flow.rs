//! The control-flow skeleton of each function ([`acc_engine::facts::flow`]) that the
//! data-mapping check reads: every use of a variable's storage in order (host code and compute
//! regions alike), the directives where they stand, branches, loops and exits.
//!
//! It reads the syntax tree after `sema` and resolves names through the variables `sema`
//! declared (by the declarator's position), so it needs no scopes of its own beyond the blocks
//! it walks. It must not decide OpenACC semantics (what a directive transfers is the engine's)
//! and must not change the unit for anything but `Unit::flow`.

use std::collections::HashMap;

use acc_engine::facts::flow::{FlowFn, Step, Use};
use acc_engine::facts::{ConstructId, Shape, Unit, VarId};
use acc_engine::Span;
use tree_sitter::Node;

use crate::syntax::NodeKind;

/// Functions whose arguments are only read, and which touch no program data.
const PURE: &[&str] = &[
    "printf",
    "fprintf",
    "puts",
    "putchar",
    "sprintf",
    "snprintf",
    "rand",
    "srand",
    "abs",
    "labs",
    "fabs",
    "fabsf",
    "sqrt",
    "sqrtf",
    "sin",
    "cos",
    "tan",
    "exp",
    "expf",
    "log",
    "logf",
    "pow",
    "powf",
    "floor",
    "ceil",
    "fmax",
    "fmin",
    "fmaxf",
    "fminf",
    "atoi",
    "atof",
    "strlen",
    "time",
    "clock",
    "assert",
    "acc_get_device_type",
    "acc_get_num_devices",
    "acc_on_device",
    "acc_get_device_num",
    "acc_is_present",
    "omp_get_wtime",
];
const ALLOC: &[&str] = &["malloc", "calloc", "aligned_alloc"];
const NORETURN: &[&str] = &["exit", "abort", "_Exit", "quick_exit"];

/// The skeletons of every function definition in the trees.
pub fn build(roots: &[Node], src: &str, unit: &Unit) -> Vec<FlowFn> {
    let mut by_decl = HashMap::new();
    let mut globals = HashMap::new();
    for (i, v) in unit.vars.iter().enumerate() {
        let id = VarId(i as u32);
        if !v.decl_span.is_empty() {
            by_decl.insert(v.decl_span.start, id);
        }
        if v.is_global {
            globals.entry(v.name.as_str()).or_insert(id);
        }
    }
    let pragmas = unit
        .constructs
        .iter()
        .enumerate()
        .map(|(i, c)| (c.pragma_span.start, ConstructId(i as u32)))
        .collect();
    // The file's function-like macros (`#define BUMP(x) x = x + 1`): a "call" of one may
    // assign what it is given.
    let function_macros = src
        .lines()
        .filter_map(|l| {
            let (kind, name) = crate::lex::macro_line(l)?;
            let after = &l[l.find(name)? + name.len()..];
            (kind == "define" && after.starts_with('(')).then_some(name)
        })
        .collect();
    let cx = Cx {
        src,
        unit,
        by_decl,
        globals,
        pragmas,
        function_macros,
    };
    let mut out = Vec::new();
    for root in roots {
        cx.functions(*root, &mut out);
    }
    out
}

struct Cx<'a> {
    src: &'a str,
    unit: &'a Unit,
    by_decl: HashMap<usize, VarId>,
    globals: HashMap<&'a str, VarId>,
    pragmas: HashMap<usize, ConstructId>,
    function_macros: std::collections::HashSet<&'a str>,
}

fn span(n: Node) -> Span {
    Span::new(n.start_byte(), n.end_byte())
}

fn named(n: Node) -> Vec<Node> {
    let mut c = n.walk();
    n.named_children(&mut c).collect()
}

impl<'a> Cx<'a> {
    fn functions(&self, n: Node, out: &mut Vec<FlowFn>) {
        match n.node_kind() {
            "function_definition" => {
                let mut w = Fw {
                    cx: self,
                    scopes: vec![HashMap::new()],
                    stmt: span(n),
                };
                out.push(w.function(n));
            }
            "translation_unit"
            | "preproc_if"
            | "preproc_ifdef"
            | "preproc_else"
            | "preproc_elif"
            | "preproc_elifdef"
            | "linkage_specification"
            | "declaration_list" => {
                for c in named(n) {
                    self.functions(c, out);
                }
            }
            _ => {}
        }
    }
}

/// The walk of one function.
struct Fw<'c, 'a> {
    cx: &'c Cx<'a>,
    scopes: Vec<HashMap<&'a str, VarId>>,
    /// The statement being walked.
    stmt: Span,
}

impl<'a> Fw<'_, 'a> {
    fn text(&self, n: Node) -> &'a str {
        &self.cx.src[n.byte_range()]
    }

    fn function(&mut self, n: Node) -> FlowFn {
        let name_node = find(n.child_by_field_name("declarator"), "function_declarator")
            .and_then(|f| f.child_by_field_name("declarator"));
        let mut params = Vec::new();
        if let Some(list) = find(n.child_by_field_name("declarator"), "function_declarator")
            .and_then(|f| f.child_by_field_name("parameters"))
        {
            for p in named(list) {
                if let Some(v) = p
                    .child_by_field_name("declarator")
                    .and_then(|d| self.declare(d))
                {
                    params.push(v);
                }
            }
        }
        let body = n
            .child_by_field_name("body")
            .map(|b| self.block(b))
            .unwrap_or_default();
        FlowFn {
            name: name_node.map_or("", |x| self.text(x)).to_string(),
            span: span(n),
            params,
            body,
        }
    }

    /// Binds the identifier a declarator declares, if sema made a variable of it.
    fn declare(&mut self, d: Node) -> Option<VarId> {
        let id = ident_of(d)?;
        let v = *self.cx.by_decl.get(&id.start_byte())?;
        let name = self.text(id);
        self.scopes.last_mut().expect("a scope").insert(name, v);
        Some(v)
    }

    fn lookup(&self, name: &str) -> Option<VarId> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.get(name).copied())
            .or_else(|| self.cx.globals.get(name).copied())
    }

    fn shape(&self, v: VarId) -> Shape {
        self.cx.unit.var(v).shape
    }

    /// Whether `path` names a pointer member of struct `v` itself (`.arr` of `double *arr`).
    fn is_pointer_member(&self, v: VarId, path: &str) -> bool {
        path.strip_prefix('.')
            .is_some_and(|m| self.cx.unit.var(v).has_pointer_member(m))
    }

    fn block(&mut self, n: Node) -> Vec<Step> {
        self.scopes.push(HashMap::new());
        let kids = if n.node_kind() == "compound_statement" {
            named(n)
        } else {
            vec![n]
        };
        let out = self.seq(&kids);
        self.scopes.pop();
        out
    }

    fn seq<'t>(&mut self, kids: &[Node<'t>]) -> Vec<Step> {
        // Conditional compilation inside a function: its branches' statements in line (a
        // directive in one branch applies to the statement after `#endif`).
        let mut flat = Vec::new();
        let mut out = Vec::new();
        if flatten(kids, &mut flat) {
            // Which branch the compiler sees is sema's to know; statements there might be
            // dead code, so the function is not followed.
            out.push(Step::Opaque);
        }
        let kids = &flat[..];
        let mut i = 0;
        while i < kids.len() {
            let k = kids[i];
            i += 1;
            if let Some(&id) = self.cx.pragmas.get(&k.start_byte()) {
                let mut body = Vec::new();
                if let Some(b) = self.cx.unit.construct(id).body {
                    while i < kids.len() && kids[i].start_byte() < b.end {
                        if b.contains(span(kids[i])) {
                            body.extend(self.stmt(kids[i]));
                        } else if !kids[i].node_kind().starts_with("preproc") {
                            break;
                        }
                        i += 1;
                    }
                }
                out.push(Step::Construct { id, body });
                continue;
            }
            out.extend(self.stmt(k));
        }
        out
    }

    fn stmt(&mut self, n: Node) -> Vec<Step> {
        let saved = self.stmt;
        self.stmt = span(n);
        let mut out = Vec::new();
        match n.node_kind() {
            "compound_statement" => out = self.block(n),
            "declaration" => self.declaration(n, &mut out),
            "expression_statement" => {
                for c in named(n) {
                    self.expr(c, &mut out);
                }
            }
            "if_statement" => {
                self.field_expr(n, "condition", &mut out);
                let cons = n
                    .child_by_field_name("consequence")
                    .map(|c| self.block(c))
                    .unwrap_or_default();
                let alt = n
                    .child_by_field_name("alternative")
                    .map(|a| {
                        let kids = if a.node_kind() == "else_clause" {
                            named(a)
                        } else {
                            vec![a]
                        };
                        self.scopes.push(HashMap::new());
                        let s = self.seq(&kids);
                        self.scopes.pop();
                        s
                    })
                    .unwrap_or_default();
                out.push(Step::Branch(vec![cons, alt]));
            }
            "for_statement" => self.for_loop(n, &mut out),
            "while_statement" => {
                let mut cond = Vec::new();
                self.field_expr(n, "condition", &mut cond);
                let body = n
                    .child_by_field_name("body")
                    .map(|b| self.block(b))
                    .unwrap_or_default();
                let endless = n
                    .child_by_field_name("condition")
                    .is_some_and(|c| self.always_true(c));
                out.push(Step::Loop {
                    cond,
                    body,
                    at_least_once: endless,
                    endless,
                });
            }
            "do_statement" => {
                let mut body = n
                    .child_by_field_name("body")
                    .map(|b| self.block(b))
                    .unwrap_or_default();
                self.field_expr(n, "condition", &mut body);
                let endless = n
                    .child_by_field_name("condition")
                    .is_some_and(|c| self.always_true(c));
                out.push(Step::Loop {
                    cond: Vec::new(),
                    body,
                    at_least_once: true,
                    endless,
                });
            }
            "switch_statement" => {
                self.field_expr(n, "condition", &mut out);
                let b = n.child_by_field_name("body");
                let has_default = b.is_some_and(|b| {
                    named(b).iter().any(|c| {
                        c.node_kind() == "case_statement" && self.text(*c).starts_with("default")
                    })
                });
                let body = b.map(|b| self.block(b)).unwrap_or_default();
                out.push(Step::Switch { body, has_default });
            }
            "case_statement" => {
                out.push(Step::Case);
                let value = n.child_by_field_name("value").map(|v| v.id());
                let kids: Vec<Node> = named(n)
                    .into_iter()
                    .filter(|c| Some(c.id()) != value)
                    .collect();
                out.extend(self.seq(&kids));
            }
            "break_statement" => out.push(Step::Break),
            "continue_statement" => out.push(Step::Continue),
            "return_statement" => {
                for c in named(n) {
                    self.expr(c, &mut out);
                }
                out.push(Step::Return);
            }
            "goto_statement" | "labeled_statement" | "gnu_asm_expression" => out.push(Step::Opaque),
            _ => {}
        }
        self.stmt = saved;
        out
    }

    fn field_expr(&mut self, n: Node, field: &str, out: &mut Vec<Step>) {
        if let Some(c) = n.child_by_field_name(field) {
            self.expr(c, out);
        }
    }

    fn for_loop(&mut self, n: Node, out: &mut Vec<Step>) {
        self.scopes.push(HashMap::new());
        let init = n.child_by_field_name("initializer");
        if let Some(i) = init {
            if i.node_kind() == "declaration" {
                self.declaration(i, out);
            } else {
                self.expr(i, out);
            }
        }
        let mut cond = Vec::new();
        self.field_expr(n, "condition", &mut cond);
        let mut body = Vec::new();
        if let Some(b) = n.child_by_field_name("body") {
            body.extend(self.block(b));
        }
        self.field_expr(n, "update", &mut body);
        let endless = n.child_by_field_name("condition").is_none();
        let at_least_once = endless || self.enters(init, n.child_by_field_name("condition"));
        self.scopes.pop();
        out.push(Step::Loop {
            cond,
            body,
            at_least_once,
            endless,
        });
    }

    /// `(1)`, `(true)`: a condition that never fails.
    fn always_true(&self, c: Node) -> bool {
        let t = self.text(c).trim();
        let t = t
            .strip_prefix('(')
            .and_then(|t| t.strip_suffix(')'))
            .unwrap_or(t)
            .trim();
        t == "true" || t.parse::<i64>().is_ok_and(|v| v != 0)
    }

    /// `for (i = 0; i < 10; …)`: integer constants on both sides that enter the loop.
    fn enters(&self, init: Option<Node>, cond: Option<Node>) -> bool {
        let lit = |n: Option<Node>| n.and_then(|n| self.text(n).trim().parse::<i64>().ok());
        let lower = init.and_then(|i| {
            let d = if i.node_kind() == "declaration" {
                i.child_by_field_name("declarator")
            } else {
                Some(i)
            }?;
            lit(d
                .child_by_field_name("value")
                .or(d.child_by_field_name("right")))
        });
        let (Some(lower), Some(c)) = (lower, cond) else {
            return false;
        };
        let op = c.child_by_field_name("operator").map(|o| self.text(o));
        match (op, lit(c.child_by_field_name("right"))) {
            (Some("<"), Some(upper)) => lower < upper,
            (Some("<="), Some(upper)) => lower <= upper,
            _ => false,
        }
    }

    fn declaration(&mut self, n: Node, out: &mut Vec<Step>) {
        for d in named(n) {
            match d.node_kind() {
                "init_declarator" => {
                    let value = d.child_by_field_name("value");
                    if let Some(v) = value {
                        self.expr(v, out);
                        self.kept_result(v, out);
                    }
                    let Some(var) = d
                        .child_by_field_name("declarator")
                        .and_then(|x| self.declare(x))
                    else {
                        // No variable of sema's: statement macros tree-sitter took for a type.
                        self.macro_statement_store(n, out);
                        continue;
                    };
                    if self.shape(var) == Shape::Pointer {
                        out.push(Step::Bind {
                            var,
                            path: String::new(),
                            fresh: value.is_some_and(|v| self.is_alloc(v)),
                        });
                    } else {
                        self.push_use(out, var, String::new(), d, false, true, true);
                    }
                }
                "identifier" | "array_declarator" | "pointer_declarator" => {
                    if let Some(var) = self.declare(d) {
                        if self.shape(var) == Shape::Pointer {
                            out.push(Step::Bind {
                                var,
                                path: String::new(),
                                fresh: false,
                            });
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// A declaration whose type names a macro and that declares no variable of sema's: macros
    /// used as statements without `;` (`CLEAR` / `c[i] = c[i] + i;`, which sema reads as
    /// statements, see `sema::statements`), whose text the check does not see: every variable
    /// it names escapes the check.
    fn macro_statement_store(&mut self, decl: Node, out: &mut Vec<Step>) {
        if decl
            .child_by_field_name("type")
            .is_none_or(|t| t.node_kind() != "type_identifier")
        {
            return;
        }
        let mut stack = vec![decl];
        while let Some(n) = stack.pop() {
            if n.node_kind() == "identifier" {
                if let Some(v) = self.lookup(self.text(n)) {
                    out.push(Step::Escape(v));
                }
            }
            stack.extend(named(n));
        }
    }

    /// `malloc(…)`, `(T *)calloc(…)`.
    fn is_alloc(&self, n: Node) -> bool {
        match n.node_kind() {
            "cast_expression" => n
                .child_by_field_name("value")
                .is_some_and(|v| self.is_alloc(v)),
            "parenthesized_expression" => named(n).first().is_some_and(|v| self.is_alloc(*v)),
            "call_expression" => n
                .child_by_field_name("function")
                .is_some_and(|f| ALLOC.contains(&self.text(f))),
            _ => false,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn push_use(
        &self,
        out: &mut Vec<Step>,
        var: VarId,
        path: String,
        at: Node,
        read: bool,
        write: bool,
        whole: bool,
    ) {
        out.push(Step::Use(Use {
            var,
            path,
            span: span(at),
            stmt: self.stmt,
            read,
            write,
            whole,
        }));
    }

    /// The variable an lvalue or element expression stands on, the members named before any
    /// subscript or dereference, whether one happened, and the index expressions on the way.
    fn root<'t>(&self, n: Node<'t>, idx: &mut Vec<Node<'t>>) -> Option<(VarId, String, bool)> {
        match n.node_kind() {
            "identifier" => self.lookup(self.text(n)).map(|v| (v, String::new(), false)),
            "parenthesized_expression" => named(n).first().and_then(|c| self.root(*c, idx)),
            "subscript_expression" => {
                if let Some(i) = n.child_by_field_name("index") {
                    idx.push(i);
                }
                let (v, p, _) = self.root(n.child_by_field_name("argument")?, idx)?;
                Some((v, p, true))
            }
            "pointer_expression" if self.op(n) == "*" => {
                let (v, p, _) = self.root(n.child_by_field_name("argument")?, idx)?;
                Some((v, p, true))
            }
            "field_expression" => {
                let (v, mut p, closed) = self.root(n.child_by_field_name("argument")?, idx)?;
                if !closed {
                    p.push_str(
                        n.child_by_field_name("operator")
                            .map_or(".", |o| self.text(o)),
                    );
                    p.push_str(n.child_by_field_name("field").map_or("", |f| self.text(f)));
                }
                Some((v, p, closed))
            }
            _ => None,
        }
    }

    fn op(&self, n: Node) -> &'a str {
        n.child_by_field_name("operator")
            .map_or("", |o| self.text(o))
    }

    /// An expression read for its value.
    fn expr(&mut self, n: Node, out: &mut Vec<Step>) {
        match n.node_kind() {
            "identifier" => {
                if let Some(v) = self.lookup(self.text(n)) {
                    if matches!(self.shape(v), Shape::Array | Shape::Pointer) {
                        out.push(Step::Escape(v));
                    }
                    self.push_use(out, v, String::new(), n, true, false, false);
                }
            }
            "subscript_expression" | "field_expression" => {
                let mut idx = Vec::new();
                if let Some((v, p, closed)) = self.root(n, &mut idx) {
                    let row = n.node_kind() == "subscript_expression"
                        && p.is_empty()
                        && self.shape(v) == Shape::Array
                        && !self.cx.unit.var(v).element_is_pointer(idx.len());
                    if row {
                        // A row of an array (`m[r]` of `double m[16][N]`): its address, which
                        // C takes for the array's value; no element is read.
                        out.push(Step::Escape(v));
                    } else if !closed && self.is_pointer_member(v, &p) {
                        // The pointer's value (`s.arr != q`, `double *x = s.arr`), not the data
                        // it points to, which a directive may map as `s.arr[0:n]` under the
                        // same path: what it points to may be reached another way now, as
                        // through a bare pointer read whole.
                        out.push(Step::Escape(v));
                        self.push_use(out, v, String::new(), n, true, false, false);
                    } else {
                        self.push_use(out, v, p, n, true, false, false);
                    }
                } else {
                    for c in named(n) {
                        self.expr(c, out);
                    }
                }
                for i in idx {
                    self.expr(i, out);
                }
            }
            "pointer_expression" if self.op(n) == "&" => {
                let mut idx = Vec::new();
                if let Some((v, _, _)) = n
                    .child_by_field_name("argument")
                    .and_then(|a| self.root(a, &mut idx))
                {
                    out.push(Step::Escape(v));
                }
                for i in idx {
                    self.expr(i, out);
                }
            }
            "pointer_expression" => {
                let mut idx = Vec::new();
                if let Some((v, p, _)) = self.root(n, &mut idx) {
                    self.push_use(out, v, p, n, true, false, false);
                }
                for i in idx {
                    self.expr(i, out);
                }
            }
            "assignment_expression" => {
                let compound = self.op(n) != "=";
                if let Some(r) = n.child_by_field_name("right") {
                    self.expr(r, out);
                    if let Some(l) = n.child_by_field_name("left") {
                        self.store(l, compound, Some(r), out);
                    }
                }
            }
            "update_expression" => {
                if let Some(a) = n.child_by_field_name("argument") {
                    self.store(a, true, None, out);
                }
            }
            "call_expression" => self.call(n, out),
            // Comparing a pointer (`p == NULL`, `!p`) reads its value; nothing escapes.
            "binary_expression" | "unary_expression"
                if matches!(
                    self.op(n),
                    "==" | "!=" | "<" | ">" | "<=" | ">=" | "&&" | "||" | "!"
                ) =>
            {
                for c in named(n) {
                    match (c.node_kind(), self.lookup(self.text(c))) {
                        ("identifier", Some(v)) => {
                            self.push_use(out, v, String::new(), c, true, false, false)
                        }
                        _ => self.expr(c, out),
                    }
                }
            }
            "sizeof_expression" | "alignof_expression" | "string_literal" | "number_literal"
            | "char_literal" | "type_descriptor" | "true" | "false" | "null" => {}
            "compound_statement" => {
                let s = self.block(n);
                out.extend(s);
            }
            _ => {
                for c in named(n) {
                    self.expr(c, out);
                }
            }
        }
    }

    /// A store through an lvalue (`compound`: it reads the old value too).
    /// A call's result the program keeps (`d = acc_create(h, …)`, `q = f(p)`) may point into
    /// what its pointer arguments point to: they escape.
    fn kept_result(&self, value: Node, out: &mut Vec<Step>) {
        let mut v = value;
        while matches!(
            v.node_kind(),
            "cast_expression" | "parenthesized_expression"
        ) {
            let Some(inner) = v
                .child_by_field_name("value")
                .or_else(|| named(v).into_iter().last())
            else {
                return;
            };
            v = inner;
        }
        if v.node_kind() != "call_expression" || self.is_alloc(v) {
            return;
        }
        for a in v
            .child_by_field_name("arguments")
            .map(named)
            .unwrap_or_default()
        {
            if let Some(x) = (a.node_kind() == "identifier")
                .then(|| self.lookup(self.text(a)))
                .flatten()
                .filter(|x| !self.shape(*x).is_scalar() || self.shape(*x) == Shape::Pointer)
            {
                out.push(Step::Escape(x));
            }
        }
    }

    fn store(&mut self, l: Node, compound: bool, value: Option<Node>, out: &mut Vec<Step>) {
        if let Some(v) = value {
            self.kept_result(v, out);
        }
        let mut idx = Vec::new();
        let Some((var, path, closed)) = self.root(l, &mut idx) else {
            self.expr(l, out);
            return;
        };
        for i in idx {
            self.expr(i, out);
        }
        let whole = !closed;
        let pointer = whole && path.is_empty() && self.shape(var) == Shape::Pointer;
        if whole && !compound && (pointer || !path.is_empty()) {
            let fresh = value.is_some_and(|v| self.is_alloc(v));
            if pointer || fresh {
                out.push(Step::Bind { var, path, fresh });
                return;
            }
        }
        self.push_use(out, var, path, l, compound, true, whole);
    }

    fn call(&mut self, n: Node, out: &mut Vec<Step>) {
        let f = n.child_by_field_name("function");
        let name = f.map_or("", |f| self.text(f));
        let args = n
            .child_by_field_name("arguments")
            .map(named)
            .unwrap_or_default();
        if PURE.contains(&name) || crate::deps::is_pure(name) || ALLOC.contains(&name) {
            for a in args {
                let mut idx = Vec::new();
                match self.root(a, &mut idx) {
                    Some((v, p, _)) => self.push_use(out, v, p, a, true, false, false),
                    None => self.expr(a, out),
                }
                for i in idx {
                    self.expr(i, out);
                }
            }
            return;
        }
        // `acc_async_test` too: a program spins on it until the queue is done.
        if name.starts_with("acc_wait")
            || name.starts_with("acc_async_wait")
            || name.starts_with("acc_async_test")
        {
            for a in args {
                self.expr(a, out);
            }
            out.push(Step::Wait);
            return;
        }
        if name == "free" {
            if let Some((var, path, false)) =
                args.first().and_then(|a| self.root(*a, &mut Vec::new()))
            {
                out.push(Step::Bind {
                    var,
                    path,
                    fresh: false,
                });
            }
            return;
        }
        let (mut touched, mut positional) = (Vec::new(), Vec::new());
        let macro_call = self.cx.function_macros.contains(name);
        for a in args {
            let plain = (a.node_kind() == "identifier")
                .then(|| self.lookup(self.text(a)))
                .flatten();
            positional.push(plain);
            let mut idx = Vec::new();
            let base = match a.node_kind() {
                "pointer_expression" if self.op(a) == "&" => a.child_by_field_name("argument"),
                _ => Some(a),
            };
            match base.and_then(|b| self.root(b, &mut idx)) {
                Some((v, p, _))
                    if macro_call
                        || a.node_kind() == "pointer_expression"
                        || !self.shape(v).is_scalar()
                        || self.shape(v) == Shape::Pointer
                        || !p.is_empty() =>
                {
                    touched.push(v);
                }
                _ => self.expr(a, out),
            }
            for i in idx {
                self.expr(i, out);
            }
        }
        out.push(Step::Call {
            name: name.to_string(),
            span: span(n),
            args: positional,
            touched,
        });
        if NORETURN.contains(&name) {
            out.push(Step::Return);
        }
    }
}

const PREPROC_BRANCHES: &[&str] = &[
    "preproc_if",
    "preproc_ifdef",
    "preproc_else",
    "preproc_elif",
    "preproc_elifdef",
];

/// The statements of a sequence with conditional compilation's branches spliced in; true
/// when a branch holds a statement (not only directives).
fn flatten<'t>(kids: &[Node<'t>], out: &mut Vec<Node<'t>>) -> bool {
    let mut statements = false;
    for k in kids {
        if PREPROC_BRANCHES.contains(&k.node_kind()) {
            let cond = k
                .child_by_field_name("condition")
                .or(k.child_by_field_name("name"))
                .map(|c| c.id());
            let inner: Vec<Node> = named(*k)
                .into_iter()
                .filter(|c| Some(c.id()) != cond)
                .collect();
            statements |= inner.iter().any(|c| {
                !PREPROC_BRANCHES.contains(&c.node_kind())
                    && !matches!(c.node_kind(), "preproc_call" | "comment")
            });
            statements |= flatten(&inner, out);
        } else {
            out.push(*k);
        }
    }
    statements
}

/// The identifier a declarator declares.
fn ident_of(d: Node) -> Option<Node> {
    match d.node_kind() {
        "identifier" => Some(d),
        _ => ident_of(inner_declarator(d)?),
    }
}

fn find<'t>(n: Option<Node<'t>>, kind: &str) -> Option<Node<'t>> {
    let mut n = n?;
    loop {
        if n.node_kind() == kind {
            return Some(n);
        }
        n = inner_declarator(n)?;
    }
}

/// The declarator a declarator wraps: its `declarator` field, or the one inside parentheses
/// (`double (*rows)[n]`, which the grammar gives no field).
fn inner_declarator(d: Node) -> Option<Node> {
    match d.node_kind() {
        "parenthesized_declarator" => d.named_child(0),
        _ => d.child_by_field_name("declarator"),
    }
}
