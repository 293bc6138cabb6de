//! Declarations that macros used as statements make, which tree-sitter, reading the file
//! before the preprocessor, cannot see: `parse_arg(n, argv[1]);` with `#define parse_arg(name,
//! arg) int name = atoi(arg); if (name < 0) …` (the OpenACC book's stencil codes), `DECL` with
//! `#define DECL double filter[4] = {…};`; and the declaration tree-sitter glues to a macro
//! that brings its own `;` (`RESET(q)` then `double s = 0;`, read as one mangled declaration
//! of type `RESET(q)`). The compiler sees those variables, so sema declares them: at the
//! name where the source spells it (a macro argument, the declaration after the macro), else
//! at the macro use.
//!
//! It must not record references: what the expansion reads stays with `macro_refs`.

use super::declarations::{find_identifier, find_named_identifier, type_qualifiers};
use super::preprocessor::{split_macro_args, substitute};
use super::*;

/// Where a snippet of expanded text stands: its declarations' names are looked up in the
/// source through it.
struct SnippetPlace<'s> {
    /// The macro use (the statement's span when a name is nowhere in the source).
    at: Span,
    /// The macro's arguments as written, where a declared name may be spelled.
    args: Option<Node<'s>>,
    /// The snippet's offset in the source, when it is the source's own text (the declaration
    /// glued to the macro): names are then at their place.
    offset: Option<usize>,
}

impl<'s> Walker<'s> {
    /// The expansion of a macro used as a statement at `node`: an expression statement that
    /// calls a function-like macro, or a declaration whose type is a macro whose text ends a
    /// statement (`BODY`, `RESET(q)`). Returns the macro use and the text it expands to.
    pub(super) fn statement_macro_expansion(&self, node: Node<'s>) -> Option<(Node<'s>, String)> {
        let (callee, args) = match node.node_kind() {
            "expression_statement" => {
                let e = node.named_child(0)?;
                match e.node_kind() {
                    // `DECL;`
                    "identifier" => (e, None),
                    // `DECL(filter);`, `parse_arg(n, argv[1]);`
                    "call_expression" => {
                        let callee = e.child_by_field_id(fields().function.get())?;
                        let args = e.child_by_field_id(fields().arguments.get())?;
                        (callee, Some(args))
                    }
                    _ => return None,
                }
            }
            "declaration" => {
                let ty = node.child_by_field_id(fields().ty.get())?;
                match ty.node_kind() {
                    "type_identifier" => (ty, None),
                    // `RESET(q)`: tree-sitter's macro type specifier, the argument its type.
                    "macro_type_specifier" => {
                        let name = ty.child_by_field_id(fields().name.get())?;
                        (name, Some(ty))
                    }
                    _ => return None,
                }
            }
            _ => return None,
        };
        let name = self.text(callee);
        if self.env.typedefs.contains_key(name) {
            return None;
        }
        let expansion = match args {
            None => self.env.constants.get(name)?.clone(),
            Some(list) => {
                let (params, body) = self.env.function_macros.get(name)?;
                let text = self.text(list);
                let inner = text[text.find('(')? + 1..text.rfind(')')?].trim();
                let args = split_macro_args(inner);
                if args.len() != params.len() && !(params.is_empty() && inner.is_empty()) {
                    return None;
                }
                substitute(body, params, &args)
            }
        };
        let body = expansion.trim_end();
        if node.node_kind() == "expression_statement" {
            // The statement's own `;` ends what the macro's text leaves open.
            return Some((node, format!("{expansion};")));
        }
        let statements = body.ends_with(';') || body.ends_with('}');
        statements.then_some((node.child_by_field_id(fields().ty.get())?, expansion))
    }

    /// Declares what the macro use at `node` declares ([`Self::statement_macro_expansion`]),
    /// and, for a declaration tree-sitter glued to the macro, what the rest of it declares.
    pub(super) fn declare_from_statement_macro(&mut self, node: Node<'s>) {
        let Some((used, expansion)) = self.statement_macro_expansion(node) else {
            return;
        };
        let args = match used.node_kind() {
            "macro_type_specifier" => Some(used),
            _ => used
                .named_child(0)
                .filter(|c| c.node_kind() == "call_expression")
                .and_then(|c| c.child_by_field_id(fields().arguments.get())),
        };
        let place = SnippetPlace {
            at: Self::span(used),
            args,
            offset: None,
        };
        self.declare_snippet(&expansion, &place);
        if node.node_kind() == "declaration" && used.end_byte() < node.end_byte() {
            let rest = &self.src[used.end_byte()..node.end_byte()];
            let place = SnippetPlace {
                at: Self::span(node),
                args: None,
                offset: Some(used.end_byte()),
            };
            self.declare_snippet(rest, &place);
        }
    }

    /// Declares the variables of the declarations among `text`'s statements.
    fn declare_snippet(&mut self, text: &str, place: &SnippetPlace<'s>) {
        const HEAD: &str = "void __acc_m(void) {\n";
        let snippet = format!("{HEAD}{text}\n}}\n");
        let Some(tree) = crate::syntax::parser().parse(&snippet, None) else {
            return;
        };
        let Some(body) = tree
            .root_node()
            .named_child(0)
            .and_then(|f| f.child_by_field_id(fields().body.get()))
        else {
            return;
        };
        let mut c = body.walk();
        let declarations: Vec<Node> = body
            .named_children(&mut c)
            .filter(|n| n.node_kind() == "declaration" && !n.has_error())
            .collect();
        for decl in declarations {
            let Some(ty) = decl.child_by_field_id(fields().ty.get()) else {
                continue;
            };
            let base = self.env.base_facts(decl, ty, &snippet);
            let global = {
                let mut c = decl.walk();
                let r = decl.children(&mut c).any(|ch| {
                    ch.node_kind() == "storage_class_specifier"
                        && matches!(&snippet[ch.byte_range()], "static" | "extern")
                });
                r
            };
            let ty_text = match type_qualifiers(decl, &snippet).as_slice() {
                [] => snippet[ty.byte_range()].to_string(),
                q => format!("{} {}", q.join(" "), &snippet[ty.byte_range()]),
            };
            let mut c = decl.walk();
            let declarators: Vec<Node> = decl
                .children_by_field_id(fields().declarator, &mut c)
                .collect();
            for d in declarators {
                let written = if d.node_kind() == "init_declarator" {
                    d.child_by_field_id(fields().declarator.get()).unwrap_or(d)
                } else {
                    d
                };
                let Some(ident) = find_identifier(written) else {
                    continue;
                };
                let name = &snippet[ident.byte_range()];
                let Some((key, at)) = self.spelled_name(name, ident, place, HEAD.len()) else {
                    continue;
                };
                let declarator = snippet[written.byte_range()].to_string();
                self.declare_expanded_at(&ty_text, &declarator, key, at, base, false, global);
            }
        }
    }

    /// Where the source spells `name`, declared by a snippet at `place` (`ident` its node in
    /// the snippet, whose text starts `head` bytes before the source's): the name's own text
    /// and the span to declare it at.
    fn spelled_name(
        &self,
        name: &str,
        ident: Node,
        place: &SnippetPlace<'s>,
        head: usize,
    ) -> Option<(&'s str, Span)> {
        if let Some(offset) = place.offset {
            let start = offset + ident.start_byte().checked_sub(head)?;
            let span = Span::new(start, start + name.len());
            let key = self.src.get(span.range()).filter(|k| *k == name)?;
            return Some((key, span));
        }
        if let Some(list) = place.args {
            let mut c = list.walk();
            if let Some(n) = find_named_identifier(list, &mut c, name, self.src) {
                return Some((self.text(n), Self::span(n)));
            }
        }
        // A name only the macro's text spells: any spelling of it after the use is the key
        // (the program names it there, or nothing needs it), the use its place.
        let after = &self.src[place.at.end..];
        let at = crate::lex::code_words(after)
            .find(|w| &after[w.start..w.end] == name)?
            .start
            + place.at.end;
        Some((&self.src[at..at + name.len()], place.at))
    }
}
