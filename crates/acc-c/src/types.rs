//! C declarations to engine facts: the shape, constness and completeness of
//! a variable's type, through typedefs and struct tags.

use std::collections::HashMap;

use acc_engine::facts::Shape;
use tree_sitter::Node;

use crate::syntax::fields;
use crate::syntax::NodeKind;

/// What the engine needs to know of a type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypeFacts {
    pub shape: Shape,
    pub is_const: bool,
    pub is_complete: bool,
}

/// Typedefs, struct tags and integer constants (macros and enumerators)
/// seen so far, from the file itself and from its headers.
#[derive(Clone, Debug, Default)]
pub struct TypeEnv {
    pub typedefs: HashMap<String, TypeFacts>,
    pub complete_tags: std::collections::HashSet<String>,
    /// Typedefs of a struct or union tag the file had not yet defined (`typedef struct P P;`
    /// before `struct P { … };`, or a typedef through such a one): the tag, and the typedef's
    /// facts once the tag is complete.
    pub typedef_tags: HashMap<String, (String, TypeFacts)>,
    /// The members of each struct definition, by tag (and by typedef name
    /// for `typedef struct { … } name`).
    pub struct_fields: HashMap<String, Vec<acc_engine::facts::Field>>,
    /// Object-like macros and enumerators, by name, as source text.
    pub constants: HashMap<String, String>,
    /// What each typedef of an arithmetic type stands for, through other typedefs
    /// (`real_t` → `double`), so that a reduction on a `real_t` knows its type.
    pub scalar_typedefs: HashMap<String, String>,
    /// File-scope variables declared in the program's own headers (not in system headers,
    /// not in the file itself), by name: a compute construct that uses one uses a global
    /// variable, as with one the file declares.
    pub header_globals: HashMap<String, HeaderGlobal>,
    /// The lines of the main file whose `#define` or `#undef` the preprocessor obeyed, when it
    /// read the file: the others stand in arms it skipped (`#ifndef MODE` / `#define MODE 0`
    /// with `-DMODE=1`), whatever acc could tell of their conditions.
    pub live_macro_lines: Option<std::collections::HashSet<usize>>,
    /// The macros, typedefs and type definitions of the program's own headers (and of `-D`
    /// options), in order: what a CUDA module may need of them (see `cuda::header_support`).
    pub header_items: Vec<HeaderItem>,
    /// The OpenACC directives in the program's own headers, in the live branches: acc applies
    /// directives only in the file it compiles (see `preprocess::header_directives`).
    pub header_directives: Vec<HeaderDirective>,
    /// The program's own headers the preprocessor read, as it names them (see
    /// `crate::inline`: whether a header read once may move into the file).
    /// Each by the inclusions that first led to it (as `HeaderDirective::chain`).
    pub program_headers: Vec<Vec<(String, usize)>>,
    /// The functions the program's own headers define (`static inline double dist(…) {…}`),
    /// each with its header: a compute construct that calls one needs its device version,
    /// which OpenACC's implicit `routine` gives a definition in the file compiled (see
    /// `lower::lower_file_lazy`, which puts such a header into the file).
    pub header_functions: Vec<(String, String)>,
    /// The `#define` lines of feature-test macros (`_GNU_SOURCE`, `_POSIX_C_SOURCE`, …) that
    /// the program's headers give before the C library's first header: it reads them there,
    /// and acc's `acc_rt.h` now comes first (see `lower::prelude`).
    pub early_feature_macros: Vec<String>,
    /// Function-like macros, by name: their parameters and replacement text (a declarator
    /// written through one, `double POLYBENCH_2D(A, N, M, n, m)`, is read expanded).
    pub function_macros: HashMap<String, (Vec<String>, String)>,
    /// Every macro as `#define` gave it (`#undef` removes it): what expanding a use needs
    /// (see `sema::macro_directives`).
    pub macros: HashMap<String, crate::macro_expand::MacroDef>,
}

/// An OpenACC directive in one of the program's own headers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderDirective {
    /// The header, as the preprocessor names it.
    pub header: String,
    pub line: usize,
    /// The directive's text from `acc` on.
    pub text: String,
    /// The line of the file being compiled whose `#include` brings the header in.
    pub include_line: usize,
    /// The inclusions that lead to the header, from the file's: each header and the line of
    /// its includer's `#include` (the first is `include_line`, the last is `header`'s).
    pub chain: Vec<(String, usize)>,
}

/// A file-scope variable a header declares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderGlobal {
    pub facts: TypeFacts,
    /// Its type specifiers and qualifiers (`const long long`).
    pub type_text: String,
    /// A declaration of it without storage class or initializer (`long long n`).
    pub decl_text: String,
    /// Where the name is in `decl_text`.
    pub decl_name: std::ops::Range<usize>,
    /// Its initializer, when it is a constant: the object itself `const`, not a pointer (nor
    /// holding one), and initialized. A CUDA module defines it on the device from this.
    pub constant_initializer: Option<String>,
}

/// Whether a declarator makes a pointer anywhere (`*p`, `*t[4]`, `(*f)(void)`): a `const`
/// in front of it qualifies what is pointed to, and the object holds an address.
pub fn holds_pointer(declarator: Node) -> bool {
    let mut d = Some(declarator);
    while let Some(n) = d {
        if matches!(n.kind(), "pointer_declarator" | "function_declarator") {
            return true;
        }
        d = n.child_by_field_id(fields().declarator.get());
    }
    false
}

/// A top-level item of a header that a CUDA module may need: a macro, a typedef, a struct,
/// union or enum definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderItem {
    /// The names it defines (a macro's, typedef names, a tag, enumerators).
    pub names: Vec<String>,
    pub text: String,
    /// The header it comes from, as the preprocessor names it.
    pub header: String,
}

/// GCC's and clang's arithmetic types beyond C's, which tree-sitter reads as type names.
const GNU_SCALARS: &[&str] = &[
    "__int128",
    "__int128_t",
    "__uint128_t",
    "__float128",
    "_Float16",
    "_Float32",
    "_Float64",
    "_Float128",
    "__fp16",
    "__bf16",
];

/// Typedef names from the C standard headers that are scalars, for when the
/// headers were not preprocessed.
const STANDARD_SCALARS: &[&str] = &[
    "size_t",
    "ssize_t",
    "ptrdiff_t",
    "intptr_t",
    "uintptr_t",
    "int8_t",
    "int16_t",
    "int32_t",
    "int64_t",
    "uint8_t",
    "uint16_t",
    "uint32_t",
    "uint64_t",
    "intmax_t",
    "uintmax_t",
    "wchar_t",
    "bool",
    // A keyword, which the grammar reads as a type's name.
    "_Bool",
    "float_t",
    "double_t",
    "off_t",
    "time_t",
    "clock_t",
];

impl TypeEnv {
    /// Records what a top-level item declares: typedefs, complete struct
    /// tags, enumerators, object-like macros.
    pub fn learn(&mut self, node: Node, src: &str) {
        if let Some((name, def)) = crate::sema::macro_directives::macro_definition(node, src) {
            match def {
                Some(def) => self.macros.insert(name, def),
                None => self.macros.remove(&name),
            };
        }
        match node.node_kind() {
            "type_definition" => {
                let Some(ty) = node.child_by_field_id(fields().ty.get()) else {
                    return;
                };
                let base = self.base_facts(node, ty, src);
                // The tag an incomplete base waits for.
                let pending_tag = match ty.node_kind() {
                    "struct_specifier" | "union_specifier" if !base.is_complete => ty
                        .child_by_field_id(fields().name.get())
                        .map(|n| src[n.byte_range()].to_string()),
                    "type_identifier" => self
                        .typedef_tags
                        .get(&src[ty.byte_range()])
                        .map(|(tag, _)| tag.clone()),
                    _ => None,
                };
                let mut c = node.walk();
                let members = match (ty.node_kind(), ty.child_by_field_id(fields().body.get())) {
                    ("struct_specifier", Some(body)) => Some(struct_fields(body, src)),
                    ("struct_specifier", None) => ty
                        .child_by_field_id(fields().name.get())
                        .and_then(|n| self.struct_fields.get(&src[n.byte_range()]).cloned()),
                    _ => None,
                };
                for d in node.children_by_field_id(fields().declarator, &mut c) {
                    if let Some(tag) = &pending_tag {
                        let completed = TypeFacts {
                            is_complete: true,
                            ..base
                        };
                        if let Some((name, facts)) = self.declarator_facts(completed, d, src, false)
                        {
                            self.typedef_tags
                                .insert(name.to_string(), (tag.clone(), facts));
                        }
                    }
                    if let Some((name, facts)) = self.declarator_facts(base, d, src, false) {
                        if d.node_kind() == "type_identifier" && facts.shape == Shape::Scalar {
                            let mut written = type_qualifiers(node, src);
                            written.push(&src[ty.byte_range()]);
                            let spec = self.resolve_scalar(&written.join(" "));
                            self.scalar_typedefs.insert(name.to_string(), spec);
                        }
                        self.typedefs.insert(name.to_string(), facts);
                        if let Some(m) = members.clone().filter(|_| facts.shape == Shape::Aggregate)
                        {
                            self.struct_fields.insert(name.to_string(), m);
                        }
                    }
                }
                self.learn_specifier(ty, src);
            }
            "declaration" => {
                if let Some(ty) = node.child_by_field_id(fields().ty.get()) {
                    self.learn_specifier(ty, src);
                }
            }
            "struct_specifier" | "union_specifier" | "enum_specifier" => {
                self.learn_specifier(node, src)
            }
            "preproc_function_def" => {
                let (Some(name), Some(params)) = (
                    node.child_by_field_id(fields().name.get()),
                    node.child_by_field_id(fields().parameters.get()),
                ) else {
                    return;
                };
                let mut c = params.walk();
                let names: Vec<String> = params
                    .named_children(&mut c)
                    .map(|p| src[p.byte_range()].to_string())
                    .collect();
                let body = node
                    .child_by_field_id(fields().value.get())
                    .map_or(String::new(), |v| {
                        crate::lex::without_comments(&src[v.byte_range()])
                    });
                self.function_macros
                    .insert(src[name.byte_range()].to_string(), (names, body));
            }
            "preproc_def" => {
                // An empty one too (`#define EXTRA`): a directive naming it has it replaced by
                // nothing (OpenACC 3.3 2.1), as the compiler does.
                if let Some(name) = node.child_by_field_id(fields().name.get()) {
                    let value = node
                        .child_by_field_id(fields().value.get())
                        .map_or(String::new(), |v| {
                            crate::lex::without_comments(&src[v.byte_range()])
                        });
                    self.constants
                        .insert(src[name.byte_range()].to_string(), value);
                }
            }
            _ => {}
        }
    }

    fn learn_specifier(&mut self, ty: Node, src: &str) {
        match ty.node_kind() {
            "struct_specifier" | "union_specifier" => {
                if let (Some(name), Some(body)) = (
                    ty.child_by_field_id(fields().name.get()),
                    ty.child_by_field_id(fields().body.get()),
                ) {
                    let tag = src[name.byte_range()].to_string();
                    let fields = struct_fields(body, src);
                    // The typedefs made before the definition name its members too.
                    let waiting: Vec<String> = self
                        .typedef_tags
                        .iter()
                        .filter(|(_, (t, facts))| *t == tag && facts.shape == Shape::Aggregate)
                        .map(|(name, _)| name.clone())
                        .collect();
                    for name in waiting {
                        self.struct_fields.insert(name, fields.clone());
                    }
                    self.struct_fields.insert(tag.clone(), fields);
                    self.complete_tags.insert(tag);
                }
            }
            "enum_specifier" => {
                let Some(body) = ty.child_by_field_id(fields().body.get()) else {
                    return;
                };
                let mut next = 0i64;
                let mut c = body.walk();
                for e in body.named_children(&mut c) {
                    if e.node_kind() != "enumerator" {
                        continue;
                    }
                    let Some(name) = e.child_by_field_id(fields().name.get()) else {
                        continue;
                    };
                    if let Some(v) = e.child_by_field_id(fields().value.get()) {
                        if let Some(x) = crate::consts::eval(&src[v.byte_range()], self) {
                            next = x;
                        }
                    }
                    self.constants
                        .insert(src[name.byte_range()].to_string(), next.to_string());
                    next += 1;
                }
            }
            _ => {}
        }
    }

    /// Facts of the type specifier of a declaration, with its qualifiers.
    pub fn base_facts(&self, decl: Node, ty: Node, src: &str) -> TypeFacts {
        let mut is_const = false;
        let mut c = decl.walk();
        for ch in decl.children(&mut c) {
            if ch.node_kind() == "type_qualifier" && &src[ch.byte_range()] == "const" {
                is_const = true;
            }
        }
        let mut facts = match ty.node_kind() {
            "struct_specifier" | "union_specifier" => {
                let complete = ty.child_by_field_id(fields().body.get()).is_some()
                    || ty
                        .child_by_field_id(fields().name.get())
                        .is_some_and(|n| self.complete_tags.contains(&src[n.byte_range()]));
                TypeFacts {
                    shape: Shape::Aggregate,
                    is_const: false,
                    is_complete: complete,
                }
            }
            "type_identifier" => {
                let name = &src[ty.byte_range()];
                // A typedef made before its struct was defined, which it is now.
                if let Some((_, facts)) = self
                    .typedef_tags
                    .get(name)
                    .filter(|(tag, _)| self.complete_tags.contains(tag))
                {
                    return TypeFacts {
                        is_const: facts.is_const || is_const,
                        ..*facts
                    };
                }
                self.typedefs.get(name).copied().unwrap_or(TypeFacts {
                    shape: Shape::Scalar,
                    is_const: false,
                    is_complete: true,
                })
            }
            "primitive_type" if &src[ty.byte_range()] == "void" => TypeFacts {
                shape: Shape::Scalar,
                is_const: false,
                is_complete: false,
            },
            _ => TypeFacts {
                shape: Shape::Scalar,
                is_const: false,
                is_complete: true,
            },
        };
        facts.is_const |= is_const;
        facts
    }

    /// Records a top-level item of one of the program's own headers: a type or macro for
    /// CUDA modules, or the file-scope variables it declares.
    pub fn learn_header_item(&mut self, node: Node, src: &str) {
        let text = src[node.byte_range()].trim_end().to_string();
        let mut names = Vec::new();
        match node.node_kind() {
            "preproc_def" | "preproc_function_def" => {
                if let Some(n) = node.child_by_field_id(fields().name.get()) {
                    names.push(src[n.byte_range()].to_string());
                }
            }
            "type_definition" => {
                let mut c = node.walk();
                for d in node.children_by_field_id(fields().declarator, &mut c) {
                    if let Some(id) = crate::syntax::declared_identifier(d) {
                        names.push(src[id.byte_range()].to_string());
                    } else if src[d.byte_range()]
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'_')
                    {
                        // `typedef int bool;`: the grammar reads the name as a type.
                        names.push(src[d.byte_range()].to_string());
                    }
                }
                if let Some(ty) = node.child_by_field_id(fields().ty.get()) {
                    names.extend(tag_and_enumerators(ty, src));
                }
            }
            "declaration" => {
                let Some(ty) = node.child_by_field_id(fields().ty.get()) else {
                    return;
                };
                let mut c = node.walk();
                let declarators: Vec<Node> = node
                    .children_by_field_id(fields().declarator, &mut c)
                    .collect();
                if declarators.is_empty() {
                    names.extend(tag_and_enumerators(ty, src));
                } else {
                    self.learn_header_globals(node, ty, &declarators, src);
                    return;
                }
            }
            "struct_specifier" | "union_specifier" | "enum_specifier" => {
                names.extend(tag_and_enumerators(node, src));
            }
            _ => return,
        }
        if !names.is_empty() {
            let text = if node.node_kind().ends_with("_specifier") {
                format!("{text};")
            } else {
                text
            };
            self.header_items.push(HeaderItem {
                names,
                text,
                header: String::new(),
            });
        }
    }

    /// The object declarations of a header's declaration (not its functions).
    fn learn_header_globals(&mut self, decl: Node, ty: Node, declarators: &[Node], src: &str) {
        let base = self.base_facts(decl, ty, src);
        let mut qualifiers = Vec::new();
        let mut c = decl.walk();
        for ch in decl.children(&mut c) {
            if ch.node_kind() == "type_qualifier" {
                qualifiers.push(&src[ch.byte_range()]);
            }
        }
        let mut type_text = qualifiers.join(" ");
        if !type_text.is_empty() {
            type_text.push(' ');
        }
        type_text.push_str(&src[ty.byte_range()]);
        for &d in declarators {
            let declarator = if d.node_kind() == "init_declarator" {
                d.child_by_field_id(fields().declarator.get()).unwrap_or(d)
            } else {
                d
            };
            if crate::syntax::is_function_declarator(declarator) {
                continue;
            }
            let Some((name, facts)) = self.declarator_facts(base, d, src, false) else {
                continue;
            };
            let Some(id) = crate::syntax::declared_identifier(declarator) else {
                continue;
            };
            let decl_text = format!("{type_text} {}", &src[declarator.byte_range()]);
            let start = type_text.len() + 1 + (id.start_byte() - declarator.start_byte());
            let constant_initializer = d
                .child_by_field_id(fields().value.get())
                .filter(|_| qualifiers.contains(&"const") && !holds_pointer(declarator))
                .map(|v| src[v.byte_range()].to_string());
            self.header_globals.insert(
                name.to_string(),
                HeaderGlobal {
                    facts,
                    type_text: type_text.clone(),
                    decl_text,
                    decl_name: start..start + name.len(),
                    constant_initializer,
                },
            );
        }
    }

    /// `type_text` (a declaration's specifiers and qualifiers) with each typedef name of an
    /// arithmetic type replaced by what it stands for: `const real_t` → `const double`; and each
    /// macro that names a type (`#define DATA_TYPE double`), as the compiler will see it.
    pub fn resolve_scalar(&self, type_text: &str) -> String {
        type_text
            .split_whitespace()
            .map(|w| {
                self.scalar_typedefs
                    .get(w)
                    .map(String::as_str)
                    .or_else(|| self.macro_type(w))
                    .unwrap_or(w)
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The type an object-like macro stands for, when its replacement is one
    /// (`#define DATA_TYPE double`): type keywords and known typedef names only.
    pub fn macro_type(&self, name: &str) -> Option<&str> {
        let value = self.constants.get(name)?;
        let is_type_word = |w: &str| {
            matches!(
                w,
                "void"
                    | "char"
                    | "short"
                    | "int"
                    | "long"
                    | "float"
                    | "double"
                    | "signed"
                    | "unsigned"
                    | "_Bool"
                    | "bool"
                    | "_Complex"
                    | "complex"
                    | "const"
                    | "volatile"
            ) || self.typedefs.contains_key(w)
                || STANDARD_SCALARS.contains(&w)
        };
        (!value.is_empty() && value.split_whitespace().all(is_type_word)).then_some(value.as_str())
    }

    /// Is this type name known (a typedef of the file or its headers, or a
    /// standard scalar)?
    pub fn knows_type(&self, name: &str) -> bool {
        self.typedefs.contains_key(name)
            || STANDARD_SCALARS.contains(&name)
            || GNU_SCALARS.contains(&name)
            || self.macro_type(name).is_some()
    }

    /// The declared name and its facts, walking the declarator from the
    /// outside in; `None` for a function declarator.
    pub fn declarator_facts<'t>(
        &self,
        base: TypeFacts,
        declarator: Node<'t>,
        src: &'t str,
        is_parameter: bool,
    ) -> Option<(&'t str, TypeFacts)> {
        // Collect the derivations from outermost to innermost, then apply
        // the innermost (the one next to the name) last: it decides the
        // variable's own shape.
        let mut derivations = Vec::new();
        let mut d = declarator;
        // The derivation next to the name makes a function (`f(int)`), not an object: a
        // pointer to a function (`(*fn)(int)`) is a pointer.
        let mut innermost_is_function = false;
        let name = loop {
            match d.node_kind() {
                "identifier" | "type_identifier" if innermost_is_function => return None,
                "identifier" | "type_identifier" => break &src[d.byte_range()],
                "function_declarator" => {
                    innermost_is_function = true;
                    d = d.child_by_field_id(fields().declarator.get())?;
                }
                "init_declarator" | "parenthesized_declarator" | "attributed_declarator" => {
                    d = d
                        .child_by_field_id(fields().declarator.get())
                        .or_else(|| d.named_child(0))?;
                }
                "pointer_declarator" => {
                    let mut c = d.walk();
                    let is_const = d.children(&mut c).any(|ch| {
                        ch.node_kind() == "type_qualifier" && &src[ch.byte_range()] == "const"
                    });
                    derivations.push((Shape::Pointer, is_const, true));
                    innermost_is_function = false;
                    d = d.child_by_field_id(fields().declarator.get())?;
                }
                "array_declarator" => {
                    let sized = d.child_by_field_id(fields().size.get()).is_some();
                    derivations.push((Shape::Array, false, sized));
                    innermost_is_function = false;
                    d = d.child_by_field_id(fields().declarator.get())?;
                }
                _ => return None,
            }
        };
        let mut facts = base;
        if let Some(&(shape, is_const, sized)) = derivations.last() {
            facts = match shape {
                // An array parameter is a pointer.
                Shape::Array if is_parameter => TypeFacts {
                    shape: Shape::Pointer,
                    is_const: false,
                    is_complete: true,
                },
                Shape::Array => {
                    // The elements are whatever the outer derivations make.
                    let elem_const = derivations.len() == 1 && base.is_const
                        || derivations[..derivations.len() - 1]
                            .last()
                            .is_some_and(|x| x.1);
                    let elem_complete = derivations.len() > 1 || base.is_complete;
                    let has_init = declarator.node_kind() == "init_declarator"
                        && declarator.child_by_field_id(fields().value.get()).is_some();
                    TypeFacts {
                        shape: Shape::Array,
                        is_const: elem_const,
                        is_complete: (sized || has_init) && elem_complete,
                    }
                }
                _ => TypeFacts {
                    shape: Shape::Pointer,
                    is_const,
                    is_complete: true,
                },
            };
        }
        Some((name, facts))
    }
}

/// The arithmetic type of a scalar declared with `type_text` (qualifiers
/// and all), for reductions.
pub fn scalar_type(type_text: &str, shape: Shape) -> Option<acc_engine::facts::ScalarType> {
    use acc_engine::facts::ScalarType as S;
    if shape != Shape::Scalar {
        return None;
    }
    let words: Vec<&str> = type_text
        .split_whitespace()
        .filter(|w| {
            !matches!(*w, "const" | "volatile" | "restrict" | "signed" | "int") || *w == "int"
        })
        .collect();
    let unsigned = type_text.split_whitespace().any(|w| w == "unsigned");
    let has = |w: &str| type_text.split_whitespace().any(|x| x == w);
    let longs = type_text
        .split_whitespace()
        .filter(|w| *w == "long")
        .count();
    if has("_Complex") || has("complex") {
        return match () {
            _ if has("float") => Some(S::C32),
            _ if has("double") && longs == 0 => Some(S::C64),
            _ => None,
        };
    }
    Some(match () {
        _ if has("_Bool") || has("bool") => S::Bool,
        _ if has("float") => S::F32,
        // `long double` has no reduction support in the runtime yet.
        _ if has("double") && longs > 0 => return None,
        _ if has("double") => S::F64,
        _ if has("char") => {
            if unsigned {
                S::U8
            } else {
                S::I8
            }
        }
        _ if has("short") => {
            if unsigned {
                S::U16
            } else {
                S::I16
            }
        }
        _ if longs >= 1 => {
            if unsigned {
                S::U64
            } else {
                S::I64
            }
        }
        _ if has("int") || unsigned || has("signed") => {
            if unsigned {
                S::U32
            } else {
                S::I32
            }
        }
        _ => match words.last().copied().unwrap_or("") {
            "int8_t" => S::I8,
            "int16_t" => S::I16,
            "int32_t" => S::I32,
            "int64_t" | "ptrdiff_t" | "ssize_t" | "intptr_t" | "intmax_t" | "off_t" => S::I64,
            "uint8_t" => S::U8,
            "uint16_t" => S::U16,
            "uint32_t" => S::U32,
            "uint64_t" | "size_t" | "uintptr_t" | "uintmax_t" => S::U64,
            _ => return None,
        },
    })
}

/// The type qualifiers a declaration writes (`const`, `volatile`, `_Complex`), as `src`
/// spells them: tree-sitter keeps them beside the type specifier, not in it.
pub fn type_qualifiers<'t>(decl: Node, src: &'t str) -> Vec<&'t str> {
    let mut c = decl.walk();
    let r = decl
        .children(&mut c)
        .filter(|ch| ch.node_kind() == "type_qualifier")
        .map(|ch| &src[ch.byte_range()])
        .collect();
    r
}

/// The members of a struct body: name, type text, array dimensions.
pub fn struct_fields(body: Node, src: &str) -> Vec<acc_engine::facts::Field> {
    let f = fields();
    let mut out = Vec::new();
    let mut c = body.walk();
    for decl in body.named_children(&mut c) {
        if decl.node_kind() != "field_declaration" {
            continue;
        }
        let Some(ty) = decl.child_by_field_id(f.ty.get()) else {
            continue;
        };
        let type_text = src[ty.byte_range()].to_string();
        let mut c2 = decl.walk();
        for d in decl.children_by_field_id(f.declarator, &mut c2) {
            let mut dims = Vec::new();
            let mut n = d;
            while n.node_kind() == "array_declarator" {
                if let Some(size) = n.child_by_field_id(f.size.get()) {
                    dims.insert(0, src[size.byte_range()].to_string());
                }
                match n.child_by_field_id(f.declarator.get()) {
                    Some(x) => n = x,
                    None => break,
                }
            }
            // Pointer members and nested declarators are not arithmetic data: recorded with a
            // type text a reduction will refuse, `T *` for a plain pointer (`*p`, `**p`), the
            // declarator's text after the type otherwise (`double *a[4]`, `int (*f)(int)`).
            let mut id = n;
            let mut plain_pointer = true;
            while id.node_kind() != "field_identifier" {
                plain_pointer &= id.node_kind() == "pointer_declarator";
                match id.child_by_field_id(f.declarator.get()) {
                    Some(x) => id = x,
                    None => break,
                }
            }
            let name = src[id.byte_range()].to_string();
            let type_text = if n.node_kind() == "field_identifier" {
                type_text.clone()
            } else if plain_pointer && id.node_kind() == "field_identifier" {
                format!("{type_text} *")
            } else {
                format!("{type_text} {}", &src[n.byte_range()])
            };
            out.push(acc_engine::facts::Field {
                name,
                type_text,
                dims,
            });
        }
    }
    out
}

/// The tag of a struct, union or enum specifier with a body, and an enum's enumerators.
fn tag_and_enumerators(ty: Node, src: &str) -> Vec<String> {
    let mut out = Vec::new();
    if !matches!(
        ty.node_kind(),
        "struct_specifier" | "union_specifier" | "enum_specifier"
    ) {
        return out;
    }
    let Some(body) = ty.child_by_field_id(fields().body.get()) else {
        return out;
    };
    if let Some(n) = ty.child_by_field_id(fields().name.get()) {
        out.push(src[n.byte_range()].to_string());
    }
    if ty.node_kind() == "enum_specifier" {
        let mut c = body.walk();
        for e in body.named_children(&mut c) {
            if let Some(n) = e.child_by_field_id(fields().name.get()) {
                out.push(src[n.byte_range()].to_string());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    /// The unknown-type warnings of `src`'s analysis, by the type named.
    fn unknown_types(src: &str) -> Vec<String> {
        let a = crate::analyze_for(src, Default::default(), None);
        a.diags
            .iter()
            .filter(|d| d.message.starts_with(crate::sema::UNKNOWN_TYPE))
            .map(|d| src[d.span.start..d.span.end].to_string())
            .collect()
    }

    /// A typedef of a pointer to a function is a pointer type, and GCC's `__int128` a
    /// scalar: neither is an unknown type (whose warning asks for include paths).
    #[test]
    fn function_pointer_typedefs_and_gnu_integers_are_known_types() {
        let src = "typedef int (*fn_t)(int);\ntypedef fn_t table_t[2];\n\
                   static int inc(int x) { return x + 1; }\n\
                   int main(void) {\n  fn_t f = inc;\n  __int128 w = 3;\n  mystery_t m;\n  int a[4];\n\
                   #pragma acc parallel loop copyout(a)\n  for (int i = 0; i < 4; i++) a[i] = i + (int)w + (int)sizeof m + (f != 0);\n\
                   return f(a[0]);\n}\n";
        assert_eq!(unknown_types(src), ["mystery_t"]);
    }
}
