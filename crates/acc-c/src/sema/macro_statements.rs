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

use super::declarations::find_identifier;
use super::macro_directives::Definitions;
use super::*;
use crate::macro_expand::{Expander, TokKind};
use crate::types::type_qualifiers;

/// What a macro use (and any code tree-sitter glued to it) expands to, as C text.
pub(super) struct Expansion {
    /// The tokens, a blank apart where the source had one or where they would run together.
    pub text: String,
    /// For each identifier of `text` the source spells (a macro argument, code after the
    /// use): its offset in `text` and in the source.
    spelled: HashMap<usize, usize>,
}

/// Where a snippet of expanded text stands: its declarations' names are looked up in the
/// source through it.
struct SnippetPlace<'e> {
    /// The macro use (the statement's span when a name is nowhere in the source).
    at: Span,
    expansion: &'e Expansion,
}

impl<'s> Walker<'s> {
    /// The expansion of a macro used as a statement at `node`: an expression statement that
    /// calls a function-like macro, or a declaration whose type is a macro whose text ends a
    /// statement (`BODY`, `RESET(q)`). Returns the macro use and the text the whole
    /// statement expands to.
    pub(super) fn statement_macro_expansion(
        &self,
        node: Node<'s>,
    ) -> Option<(Node<'s>, Expansion)> {
        let callee = match node.node_kind() {
            "expression_statement" => {
                let e = node.named_child(0)?;
                match e.node_kind() {
                    // `DECL;`
                    "identifier" => e,
                    // `DECL(filter);`, `parse_arg(n, argv[1]);`
                    "call_expression" => e.child_by_field_id(fields().function.get())?,
                    _ => return None,
                }
            }
            "declaration" => {
                let ty = node.child_by_field_id(fields().ty.get())?;
                match ty.node_kind() {
                    "type_identifier" => ty,
                    // `RESET(q)`: tree-sitter's macro type specifier, the argument its type.
                    "macro_type_specifier" => ty.child_by_field_id(fields().name.get())?,
                    _ => return None,
                }
            }
            _ => return None,
        };
        let name = self.text(callee);
        if self.env.typedefs.contains_key(name)
            || !(self.env.constants.contains_key(name)
                || self.env.function_macros.contains_key(name))
        {
            return None;
        }
        if node.node_kind() == "expression_statement" {
            // The statement's own `;` ends what the macro's text leaves open.
            return Some((node, self.expand_at(node.start_byte()..node.end_byte())?));
        }
        let used = node.child_by_field_id(fields().ty.get())?;
        let own = self.expand_at(used.start_byte()..used.end_byte())?;
        let body = own.text.trim_end();
        if !(body.ends_with(';') || body.ends_with('}')) {
            return None;
        }
        // The declaration glued to the macro (`double s = 0;`, or another macro's use) is
        // expanded with it.
        Some((used, self.expand_at(used.start_byte()..node.end_byte())?))
    }

    /// The full expansion of the source's `range`, at the definitions in effect there.
    fn expand_at(&self, range: std::ops::Range<usize>) -> Option<Expansion> {
        let defs = Definitions::new(&self.macro_events, &self.env.macros);
        let at = range.start;
        let lookup = |n: &str| defs.at(n, at);
        let tokens = Expander::new(&lookup).expand_use(self.src, range).ok()?;
        let mut text = String::new();
        let mut spelled = HashMap::new();
        for t in &tokens {
            if t.kind == TokKind::Placemarker {
                continue;
            }
            if text.ends_with(|p: char| t.space_before || glues(p, &t.text)) {
                text.push(' ');
            }
            let from = t.map.first().copied();
            let in_source = from.is_some_and(|f| {
                t.kind == TokKind::Ident
                    && self.src.get(f..f + t.text.len()) == Some(t.text.as_str())
                    && t.map.last() == Some(&(f + t.text.len() - 1))
            });
            if let (true, Some(f)) = (in_source, from) {
                spelled.insert(text.len(), f);
            }
            text.push_str(&t.text);
        }
        Some(Expansion { text, spelled })
    }

    /// Declares what the macro use at `node` declares ([`Self::statement_macro_expansion`]),
    /// with what tree-sitter glued to it.
    pub(super) fn declare_from_statement_macro(&mut self, node: Node<'s>) {
        let Some((used, expansion)) = self.statement_macro_expansion(node) else {
            return;
        };
        let place = SnippetPlace {
            at: Self::span(used),
            expansion: &expansion,
        };
        self.declare_snippet(&place);
    }

    /// Declares the variables of the declarations among the expansion's statements.
    fn declare_snippet(&mut self, place: &SnippetPlace) {
        const HEAD: &str = "void __acc_m(void) {\n";
        let snippet = format!("{HEAD}{}\n}}\n", place.expansion.text);
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
                let Some(offset) = ident.start_byte().checked_sub(HEAD.len()) else {
                    continue;
                };
                let Some((key, at)) = self.spelled_name(name, offset, place) else {
                    continue;
                };
                let declarator = snippet[written.byte_range()].to_string();
                self.declare_expanded_at(&ty_text, &declarator, key, at, base, false, global);
            }
        }
    }

    /// Where the source spells `name`, declared at `offset` of the expansion at `place`: the
    /// name's own text and the span to declare it at.
    fn spelled_name(
        &self,
        name: &str,
        offset: usize,
        place: &SnippetPlace,
    ) -> Option<(&'s str, Span)> {
        if let Some(&from) = place.expansion.spelled.get(&offset) {
            let span = Span::new(from, from + name.len());
            return Some((&self.src[span.range()], span));
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

/// Whether a token starting `next` right after the character `prev` would read as another
/// token (`a` `b`, `+` `+`).
fn glues(prev: char, next: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let tight = |c: char| "()[]{},;".contains(c);
    let Some(first) = next.chars().next() else {
        return false;
    };
    (word(prev) && word(first)) || (!word(prev) && !word(first) && !tight(prev) && !tight(first))
}
