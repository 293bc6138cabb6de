//! Declarations: variables, their types and shapes (arrays, pointers, variable-length
//! extents), the function's own types, declarators behind macros, the program's headers'
//! variables, and the warning about type names the file does not define.
//!
//! It must not walk statements or read directives.

use super::preprocessor::{split_macro_args, substitute};
use super::*;
use crate::types::type_qualifiers;

impl<'s> Walker<'s> {
    /// The declarator's text, with the first extent an initializer decides written out
    /// (`int t[] = {1, 2, 3}` is `int t[3]`; `char s[] = "ab"` is `char s[3]`): a kernel that
    /// reaches the array through a pointer to its type needs the complete type (`sizeof t`).
    /// Designated initializers and strings with escapes keep the text as written.
    fn sized_by_initializer(&self, d: Node<'s>, declarator: Node<'s>) -> String {
        let text = self.text(declarator);
        // The array declarator next to the name is the first extent (`m[][2]`).
        let mut first = declarator;
        while let Some(inner) = first
            .child_by_field_id(fields().declarator.get())
            .filter(|n| n.node_kind() == "array_declarator")
        {
            first = inner;
        }
        let (Some(value), true) = (
            d.child_by_field_id(fields().value.get()),
            first.node_kind() == "array_declarator"
                && first.child_by_field_id(fields().size.get()).is_none(),
        ) else {
            return text.to_string();
        };
        let count = match value.node_kind() {
            "initializer_list" => {
                let mut c = value.walk();
                let items: Vec<Node> = value.named_children(&mut c).collect();
                // Positional items fill the next index; `[k] = …` (its first designator, GNU's
                // `[lo ... hi]` its last index) moves it: the extent is past the largest.
                let (mut next, mut count) = (0i64, 0i64);
                for n in items.iter().filter(|n| n.node_kind() != "comment") {
                    if n.node_kind() == "initializer_pair" {
                        let mut dc = n.walk();
                        let first = n.children_by_field_name("designator", &mut dc).next();
                        let index = first.and_then(|dsg| {
                            let bound = match dsg.node_kind() {
                                "subscript_designator" => dsg.named_child(0),
                                "subscript_range_designator" => dsg.child_by_field_name("end"),
                                _ => None,
                            }?;
                            crate::consts::eval(self.text(bound), &self.env)
                        });
                        match index {
                            Some(k) if k >= 0 => next = k,
                            _ => return text.to_string(),
                        }
                    }
                    next += 1;
                    count = count.max(next);
                }
                count as usize
            }
            "string_literal" => {
                let s = self.text(value);
                let inner = s.strip_prefix('"').and_then(|r| r.strip_suffix('"'));
                match inner {
                    Some(inner) if !inner.contains('\\') && inner.is_ascii() => inner.len() + 1,
                    _ => return text.to_string(),
                }
            }
            _ => return text.to_string(),
        };
        match text.find("[]") {
            Some(at) if count > 0 => format!("{}[{count}]{}", &text[..at], &text[at + 2..]),
            _ => text.to_string(),
        }
    }

    /// Whether the declarator's first array dimension (the one nearest the name) is an
    /// expression the front end cannot evaluate as a constant: a variable-length array.
    /// The variables named in the extents of an array declarator (`n`, `m` in `a[n][m]`).
    pub(super) fn extent_vars_of(&mut self, src: &str, declarator: Node) -> Vec<VarId> {
        let mut sizes = Vec::new();
        let mut x = Some(declarator);
        while let Some(n) = x {
            if n.node_kind() == "array_declarator" {
                if let Some(size) = n.child_by_field_id(fields().size.get()) {
                    // One through memory the host computes at the launch.
                    let size = &src[size.byte_range()];
                    if !crate::vla::extent_reaches_memory(size) {
                        sizes.push(size.to_string());
                    }
                }
            }
            x = n.child_by_field_id(fields().declarator.get()).or_else(|| {
                (n.node_kind() == "parenthesized_declarator")
                    .then(|| n.named_child(0))
                    .flatten()
            });
        }
        let mut vars = Vec::new();
        for w in sizes.iter().flat_map(|t| {
            t.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
                .map(str::to_string)
                .collect::<Vec<_>>()
        }) {
            if let Some(v) = self.lookup(&w).or_else(|| self.header_var(&w)) {
                if !vars.contains(&v) {
                    vars.push(v);
                }
            }
        }
        vars
    }

    pub(super) fn first_dimension_is_variable(&self, src: &str, declarator: Node) -> bool {
        let mut first = None;
        let mut x = Some(declarator);
        while let Some(n) = x {
            if n.node_kind() == "array_declarator" {
                first = n.child_by_field_id(fields().size.get());
            }
            x = n.child_by_field_id(fields().declarator.get()).or_else(|| {
                (n.node_kind() == "parenthesized_declarator")
                    .then(|| n.named_child(0))
                    .flatten()
            });
        }
        first.is_some_and(|size| crate::consts::eval(&src[size.byte_range()], &self.env).is_none())
    }

    /// The file-scope variable `name` that one of the program's headers declares (made a
    /// variable of the unit on its first use): a construct's use of it is a use of a global,
    /// as of one the file declares. Its declaration is outside the file, so its span is empty
    /// at the file's start (before every construct).
    pub(super) fn header_var(&mut self, name: &str) -> Option<VarId> {
        if let Some(&id) = self.header_vars.get(name) {
            return Some(id);
        }
        let g = self.env.header_globals.get(name)?.clone();
        let id = VarId(self.unit.vars.len() as u32);
        let scalar_text = self.env.resolve_scalar(&g.type_text);
        self.unit.vars.push(Var {
            name: name.to_string(),
            decl_span: Span::new(0, 0),
            shape: g.facts.shape,
            is_const: g.facts.is_const,
            is_complete: g.facts.is_complete,
            decl_name: g.decl_name.clone(),
            scalar: crate::types::scalar_type(&scalar_text, g.facts.shape),
            elem_scalar: crate::types::scalar_type(&scalar_text, acc_engine::facts::Shape::Scalar)
                .filter(|_| g.facts.shape != acc_engine::facts::Shape::Scalar),
            fields: if g.facts.shape == acc_engine::facts::Shape::Aggregate {
                self.env
                    .struct_fields
                    .get(
                        g.type_text
                            .trim_start_matches("const ")
                            .trim_start_matches("struct "),
                    )
                    .cloned()
                    .unwrap_or_default()
            } else {
                Vec::new()
            },
            decl_text: g.decl_text,
            is_global: true,
            vla: false,
        });
        self.header_vars.insert(name.to_string(), id);
        Some(id)
    }

    /// Whether a type specifier inside a function defines a type a kernel can repeat: a struct,
    /// union or enum with a body and a tag, or an enum's constants.
    pub(super) fn defines_type(&self, ty: Node) -> bool {
        let kind = ty.node_kind();
        matches!(
            kind,
            "struct_specifier" | "union_specifier" | "enum_specifier"
        ) && ty.child_by_field_id(fields().body.get()).is_some()
            && (kind == "enum_specifier" || ty.child_by_field_id(fields().name.get()).is_some())
            && !self.blocks.is_empty()
    }

    /// A declared variable's type as a kernel declares it: a type the function (or the file,
    /// with a tag) defines in the declaration itself by its tag (`enum color`), or `int` for a
    /// function's enum without one, since the kernel repeats a function's definition once
    /// ([`Self::local_type`]); any other as written.
    pub(super) fn referring_type(&self, ty: Node) -> String {
        // A file-scope declaration that defines its tagged type (`struct S {…} SS[N];`): the
        // tag names it everywhere after, kernels included, which must not define it again.
        let tagged_definition = matches!(
            ty.node_kind(),
            "struct_specifier" | "union_specifier" | "enum_specifier"
        ) && ty.child_by_field_id(fields().body.get()).is_some()
            && ty.child_by_field_id(fields().name.get()).is_some();
        if !self.defines_type(ty) && !tagged_definition {
            return self.text(ty).to_string();
        }
        let keyword = ty.node_kind().trim_end_matches("_specifier");
        match ty.child_by_field_id(fields().name.get()) {
            Some(name) => format!("{keyword} {}", self.text(name)),
            None => "int".to_string(),
        }
    }

    /// Records a type a function declares for itself, visible in the innermost block.
    pub(super) fn local_type(&mut self, text: String, node: Node<'s>) {
        let mut typedef_names = Vec::new();
        if node.node_kind() == "type_definition" {
            let mut c = node.walk();
            for mut d in node.children_by_field_id(fields().declarator, &mut c) {
                while d.node_kind() != "type_identifier" {
                    match d.child_by_field_id(fields().declarator.get()) {
                        Some(inner) => d = inner,
                        None => break,
                    }
                }
                if d.node_kind() == "type_identifier" {
                    typedef_names.push(self.text(d).to_string());
                }
            }
        }
        if let Some(&scope) = self.blocks.last() {
            self.unit.local_types.push(acc_engine::facts::LocalType {
                text,
                span: Self::span(node),
                scope,
                typedef_names,
            });
        }
    }

    pub(super) fn declaration(&mut self, node: Node<'s>, file_scope: bool) {
        let Some(ty) = node.child_by_field_id(fields().ty.get()) else {
            return;
        };
        self.variable_typedef_in_kernel(ty);
        self.typeof_refs(ty);
        let base = self.env.base_facts(node, ty, self.src);
        let is_static = {
            let mut c = node.walk();
            let r = node.children(&mut c).any(|ch| {
                ch.node_kind() == "storage_class_specifier"
                    && matches!(self.text(ch), "static" | "extern")
            });
            r
        };
        let mut c = node.walk();
        let decls: Vec<Node> = node
            .children_by_field_id(fields().declarator, &mut c)
            .collect();
        for d in decls {
            self.declare_var(node, ty, d, base, false, file_scope || is_static);
            if let Some(v) = d.child_by_field_id(fields().value.get()) {
                self.expr(v);
            }
        }
    }

    pub(super) fn declare_var(
        &mut self,
        decl: Node<'s>,
        ty: Node<'s>,
        d: Node<'s>,
        base: TypeFacts,
        param: bool,
        global: bool,
    ) {
        // Array sizes are expressions that use variables.
        let mut x = Some(d);
        while let Some(n) = x {
            if n.node_kind() == "array_declarator" {
                if let Some(size) = n.child_by_field_id(fields().size.get()) {
                    self.expr(size);
                }
            }
            x = n.child_by_field_id(fields().declarator.get());
        }
        if let Some((expanded, name_node)) = self.macro_declarator(d) {
            let type_text = self.text(ty).to_string();
            self.declare_expanded(decl, &type_text, &expanded, name_node, base, param, global);
            return;
        }
        let written = if d.node_kind() == "init_declarator" {
            d.child_by_field_id(fields().declarator.get()).unwrap_or(d)
        } else {
            d
        };
        if let Some((type_text, expanded, base)) =
            self.through_variable_typedef(ty, self.text(written))
        {
            if let Some(ident) = find_identifier(d) {
                self.declare_expanded(decl, &type_text, &expanded, ident, base, param, global);
                return;
            }
        }
        let Some((name, facts)) = self.env.declarator_facts(base, d, self.src, param) else {
            return;
        };
        let ident = find_identifier(d).unwrap_or(d);
        let declarator = if d.node_kind() == "init_declarator" {
            d.child_by_field_id(fields().declarator.get()).unwrap_or(d)
        } else {
            d
        };
        let qualifiers = type_qualifiers(decl, self.src).join(" ");
        let type_text = if qualifiers.is_empty() {
            self.referring_type(ty)
        } else {
            format!("{qualifiers} {}", self.referring_type(ty))
        };
        // Before the variable's id is taken: a header's global named in an extent becomes a
        // variable of the unit here.
        let extent_vars = self.extent_vars_of(self.src, declarator);
        let id = VarId(self.unit.vars.len() as u32);
        if !extent_vars.is_empty() {
            self.extent_vars.insert(id, extent_vars);
        }
        // An array parameter is a pointer (C adjusts `double x[8]` to `double *x`): declare it
        // so, and keep the first dimension as written for data clauses that name it whole.
        let array_param = if param {
            self.array_parameter(self.src, declarator, ident)
        } else {
            None
        };
        let (decl_text, decl_name) = match &array_param {
            Some((adjusted, _)) => {
                let text = format!("{type_text} {adjusted}");
                let start = type_text.len() + 1 + adjusted.find(name).unwrap_or(0);
                (text, start..start + name.len())
            }
            None => {
                let start = type_text.len() + 1 + (ident.start_byte() - declarator.start_byte());
                (
                    format!("{type_text} {}", self.sized_by_initializer(d, declarator)),
                    start..start + name.len(),
                )
            }
        };
        if let Some((_, extent)) = array_param {
            self.array_params.insert(id, extent);
        }
        self.unit.vars.push(Var {
            name: name.to_string(),
            decl_span: Self::span(ident),
            shape: facts.shape,
            is_const: facts.is_const,
            is_complete: facts.is_complete,
            decl_name,
            scalar: crate::types::scalar_type(&self.env.resolve_scalar(&type_text), facts.shape),
            elem_scalar: crate::types::scalar_type(
                &self.env.resolve_scalar(&type_text),
                acc_engine::facts::Shape::Scalar,
            )
            .filter(|_| facts.shape != acc_engine::facts::Shape::Scalar),
            fields: if facts.shape == acc_engine::facts::Shape::Aggregate {
                self.struct_fields_of(ty)
            } else {
                Vec::new()
            },
            decl_text,
            is_global: global,
            vla: !param && self.first_dimension_is_variable(self.src, declarator),
        });
        if ty.node_kind() == "type_identifier" && !self.env.knows_type(self.text(ty)) {
            self.unknown_types.push((id, Self::span(ty)));
        }
        self.var_by_decl.insert(ident.start_byte(), id);
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name, id);
        }
    }

    /// A declarator written through a function-like macro (`POLYBENCH_2D(A, N, M, n, m)` with
    /// `#define POLYBENCH_2D(var, d1, d2, dd1, dd2) var[d1][d2]`, which tree-sitter reads as a
    /// function declarator): the declarator the compiler sees (`A[N][M]`), and the node of the
    /// name in the source (an argument of the macro).
    pub(super) fn macro_declarator(&self, d: Node<'s>) -> Option<(String, Node<'s>)> {
        let d = if d.node_kind() == "init_declarator" {
            d.child_by_field_id(fields().declarator.get())?
        } else {
            d
        };
        if d.node_kind() != "function_declarator" {
            return None;
        }
        let callee = d.child_by_field_id(fields().declarator.get())?;
        if callee.node_kind() != "identifier" {
            return None;
        }
        let (params, body) = self.env.function_macros.get(self.text(callee))?;
        let list = d.child_by_field_id(fields().parameters.get())?;
        let inner = self
            .text(list)
            .trim()
            .strip_prefix('(')?
            .strip_suffix(')')?;
        let args = split_macro_args(inner);
        if args.len() != params.len() {
            return None;
        }
        let expanded = substitute(body, params, &args);
        // The declared name: the first identifier of the expansion, found among the macro's
        // arguments in the source.
        let name = expanded
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .find(|w| !w.is_empty() && !w.starts_with(|c: char| c.is_ascii_digit()))?
            .to_string();
        let mut c = list.walk();
        let name_node = find_named_identifier(list, &mut c, &name, self.src)?;
        Some((expanded, name_node))
    }

    /// Declares a variable whose declarator came from a macro (see `macro_declarator`): read
    /// from the expansion, with its name's place in the source.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn declare_expanded(
        &mut self,
        decl: Node<'s>,
        ty_text: &str,
        expanded: &str,
        name_node: Node<'s>,
        base: TypeFacts,
        param: bool,
        global: bool,
    ) {
        let qualifiers = type_qualifiers(decl, self.src);
        let type_text = if qualifiers.is_empty() {
            ty_text.to_string()
        } else {
            format!("{} {ty_text}", qualifiers.join(" "))
        };
        let key = self.text(name_node);
        let at = Self::span(name_node);
        self.declare_expanded_at(&type_text, expanded, key, at, base, param, global);
    }

    /// Declares a variable of type `type_text` (qualifiers included) with the declarator
    /// `expanded` (text the source may not spell), under the name `key` (the source's
    /// spelling), declared at `at`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn declare_expanded_at(
        &mut self,
        type_text: &str,
        expanded: &str,
        key: &'s str,
        at: Span,
        base: TypeFacts,
        param: bool,
        global: bool,
    ) {
        let snippet = format!("int {expanded};");
        let Some(tree) = crate::syntax::parser().parse(&snippet, None) else {
            return;
        };
        let root = tree.root_node();
        let Some(d) = root
            .named_child(0)
            .and_then(|n| n.child_by_field_id(fields().declarator.get()))
        else {
            return;
        };
        let Some((name, facts)) = self.env.declarator_facts(base, d, &snippet, param) else {
            return;
        };
        let Some(ident) = find_identifier(d) else {
            return;
        };
        let extent_vars = self.extent_vars_of(&snippet, d);
        let id = VarId(self.unit.vars.len() as u32);
        if !extent_vars.is_empty() {
            self.extent_vars.insert(id, extent_vars);
        }
        let array_param = if param {
            self.array_parameter(&snippet, d, ident)
        } else {
            None
        };
        let declarator_text = match &array_param {
            Some((adjusted, _)) => adjusted.clone(),
            None => snippet[d.byte_range()].to_string(),
        };
        let decl_text = format!("{type_text} {declarator_text}");
        let start = type_text.len() + 1 + declarator_text.find(name).unwrap_or(0);
        if let Some((_, extent)) = array_param {
            self.array_params.insert(id, extent);
        }
        let resolved = self.env.resolve_scalar(type_text);
        let vla = !param && self.first_dimension_is_variable(&snippet, d);
        self.unit.vars.push(Var {
            name: name.to_string(),
            decl_span: at,
            shape: facts.shape,
            is_const: facts.is_const,
            is_complete: facts.is_complete,
            decl_name: start..start + name.len(),
            scalar: crate::types::scalar_type(&resolved, facts.shape),
            elem_scalar: crate::types::scalar_type(&resolved, acc_engine::facts::Shape::Scalar)
                .filter(|_| facts.shape != acc_engine::facts::Shape::Scalar),
            fields: Vec::new(),
            decl_text,
            is_global: global,
            vla,
        });
        self.var_by_decl.insert(at.start, id);
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(key, id);
        }
    }

    /// Records a typedef a function defines whose type is variably modified
    /// (`typedef double row_t[n];`): a variable declared through it is declared, for the
    /// kernels, as the type it stands for (`row_t *a` is `double (*a)[n]`), because a kernel
    /// receives the extents' variables as its own locals, after any typedef it repeats, and
    /// CUDA C++ has no such types at all (the `vla` module writes them).
    /// Returns whether it was one.
    pub(super) fn variable_typedef(&mut self, node: Node<'s>) -> bool {
        let (Some(ty), Some(d)) = (
            node.child_by_field_id(fields().ty.get()),
            node.child_by_field_id(fields().declarator.get()),
        ) else {
            return false;
        };
        let mut name = d;
        while name.node_kind() != "type_identifier" {
            match name
                .child_by_field_id(fields().declarator.get())
                .or_else(|| {
                    (name.node_kind() == "parenthesized_declarator")
                        .then(|| name.named_child(0))
                        .flatten()
                }) {
                Some(inner) => name = inner,
                None => return false,
            }
        }
        let mut template = self.text(d).to_string();
        let at = name.start_byte() - d.start_byte();
        template.replace_range(at..at + name.byte_range().len(), "\0");
        // A typedef of one (`typedef row_t plane_t[m];`) stands for the first one's type with
        // this declarator in its name's place.
        let (type_text, template, base) = match self.through_variable_typedef(ty, &template) {
            Some(through) => through,
            None if self.any_dimension_is_variable(d) => (
                self.referring_type(ty),
                template,
                self.env.base_facts(node, ty, self.src),
            ),
            None => return false,
        };
        self.variable_typedefs.push(VariableTypedef {
            name: self.text(name).to_string(),
            depth: self.scopes.len(),
            type_text,
            template,
            base,
        });
        true
    }

    /// Whether an array dimension of `declarator` is not a constant.
    fn any_dimension_is_variable(&self, declarator: Node) -> bool {
        let mut x = Some(declarator);
        while let Some(n) = x {
            if n.node_kind() == "array_declarator" {
                if let Some(size) = n.child_by_field_id(fields().size.get()) {
                    if crate::consts::eval(self.text(size), &self.env).is_none() {
                        return true;
                    }
                }
            }
            x = n.child_by_field_id(fields().declarator.get()).or_else(|| {
                (n.node_kind() == "parenthesized_declarator")
                    .then(|| n.named_child(0))
                    .flatten()
            });
        }
        false
    }

    /// A declaration whose type is a variably modified typedef in scope (see
    /// `variable_typedef`): the typedef's own type, the declarator it stands for, and the
    /// base type's facts.
    /// `declarator` is the declarator as written (without its initializer).
    fn through_variable_typedef(
        &self,
        ty: Node<'s>,
        declarator: &str,
    ) -> Option<(String, String, TypeFacts)> {
        if ty.node_kind() != "type_identifier" {
            return None;
        }
        let name = self.text(ty);
        let t = self
            .variable_typedefs
            .iter()
            .rev()
            .find(|t| t.name == name)?;
        // Only a pointer declarator binds looser than the typedef's `[]`: parentheses for it
        // alone keep the text in the plain forms the `vla` module reads (`(*c)[m][n]`).
        let inner = if declarator.trim_start().starts_with('*') {
            format!("({declarator})")
        } else {
            declarator.to_string()
        };
        let expanded = t.template.replacen('\0', &inner, 1);
        Some((t.type_text.clone(), expanded, t.base))
    }

    /// A compute construct's text naming a variably modified typedef of its function (in a
    /// declaration, a cast or `sizeof`): an error, since its kernel cannot repeat the typedef
    /// (the extents are the host's values, and CUDA C++ has no such types).
    pub(super) fn variable_typedef_in_kernel(&mut self, ty: Node<'s>) {
        // The OpenMP forms keep the region in its function, where the typedef is in scope.
        if self.computes.is_empty() || !self.for_runtime {
            return;
        }
        let mut stack = vec![ty];
        while let Some(n) = stack.pop() {
            if n.node_kind() == "type_identifier" {
                let name = self.text(n);
                if let Some(t) = self.variable_typedefs.iter().rev().find(|t| t.name == name) {
                    let spelled = t.template.replacen('\0', "", 1);
                    let pointer = t.template.replacen('\0', "(*)", 1);
                    self.diags.push(
                        Diagnostic::error(
                            Self::span(n),
                            format!(
                                "a compute construct cannot name `{name}`, a typedef of a \
                                 variably modified type"
                            ),
                        )
                        .with_note(format!(
                            "`{name}` is `{0} {1}`: write the type out inside the construct (a \
                             pointer to it is `{0} {pointer}`)",
                            t.type_text,
                            spelled.trim()
                        )),
                    );
                }
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
    }

    /// Leaves the innermost scope, with the typedefs declared in it.
    pub(super) fn pop_scope(&mut self) {
        self.scopes.pop();
        let depth = self.scopes.len();
        self.variable_typedefs.retain(|t| t.depth <= depth);
    }

    /// The members of the struct type `ty` names (a tag, a typedef of one,
    /// or an inline definition).
    pub(super) fn struct_fields_of(&self, ty: Node<'s>) -> Vec<acc_engine::facts::Field> {
        let f = crate::syntax::fields();
        match ty.node_kind() {
            "struct_specifier" => {
                if let Some(body) = ty.child_by_field_id(f.body.get()) {
                    return crate::types::struct_fields(body, self.src);
                }
                ty.child_by_field_id(f.name.get())
                    .and_then(|n| self.env.struct_fields.get(self.text(n)).cloned())
                    .unwrap_or_default()
            }
            "type_identifier" => self
                .env
                .struct_fields
                .get(self.text(ty))
                .cloned()
                .unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    /// A variable of an unknown type name is treated as a scalar; say so
    /// where it matters, on variables OpenACC constructs use.
    pub(super) fn report_unknown_types(&mut self) {
        for (var, ty_span) in std::mem::take(&mut self.unknown_types) {
            let used = self.unit.constructs.iter().any(|c| {
                c.clause_vars.iter().flatten().any(|v| *v == Some(var))
                    || c.body
                        .is_some_and(|b| self.unit.refs_in(b).iter().any(|r| r.var == var))
            });
            if used {
                let v = self.unit.var(var);
                self.diags.push(
                    Diagnostic::warning(
                        ty_span,
                        format!(
                            "{UNKNOWN_TYPE} `{}` of `{}` is treated as a scalar",
                            &self.src[ty_span.range()],
                            v.name
                        ),
                    )
                    .with_note(
                        "pass the include paths (-I) so the header that defines it can be read",
                    ),
                );
            }
        }
    }
}

/// The first identifier (or type identifier) under `node` whose text is `name`.
pub(super) fn find_named_identifier<'t>(
    node: Node<'t>,
    c: &mut tree_sitter::TreeCursor<'t>,
    name: &str,
    src: &str,
) -> Option<Node<'t>> {
    let kids: Vec<Node<'t>> = node.named_children(c).collect();
    for k in kids {
        if matches!(k.node_kind(), "identifier" | "type_identifier") && &src[k.byte_range()] == name
        {
            return Some(k);
        }
        let mut kc = k.walk();
        if let Some(found) = find_named_identifier(k, &mut kc, name, src) {
            return Some(found);
        }
    }
    None
}

pub(super) fn find_identifier(mut n: Node) -> Option<Node> {
    loop {
        if n.node_kind() == "identifier" {
            return Some(n);
        }
        n = n
            .child_by_field_id(fields().declarator.get())
            .or_else(|| n.named_child(0))?;
    }
}

pub(super) fn find_descendant<'t>(mut n: Option<Node<'t>>, kind: &str) -> Option<Node<'t>> {
    while let Some(x) = n {
        if x.node_kind() == kind {
            return Some(x);
        }
        n = x.child_by_field_id(fields().declarator.get());
    }
    None
}
