//! The tree-sitter C parser.

/// A parser for C.
pub fn parser() -> tree_sitter::Parser {
    let mut p = tree_sitter::Parser::new();
    p.set_language(&tree_sitter_c::LANGUAGE.into())
        .expect("the tree-sitter-c grammar matches the tree-sitter version");
    p
}

/// Field ids of the C grammar, looked up once: `child_by_field_name`
/// compares the name against every field of the grammar on each call,
/// which dominated the walk over large files.
pub struct Fields {
    pub alternative: std::num::NonZeroU16,
    pub argument: std::num::NonZeroU16,
    pub arguments: std::num::NonZeroU16,
    pub body: std::num::NonZeroU16,
    pub condition: std::num::NonZeroU16,
    pub declarator: std::num::NonZeroU16,
    pub directive: std::num::NonZeroU16,
    pub function: std::num::NonZeroU16,
    pub initializer: std::num::NonZeroU16,
    pub label: std::num::NonZeroU16,
    pub left: std::num::NonZeroU16,
    pub index: std::num::NonZeroU16,
    pub update: std::num::NonZeroU16,
    pub right: std::num::NonZeroU16,
    pub operator: std::num::NonZeroU16,
    pub name: std::num::NonZeroU16,
    pub parameters: std::num::NonZeroU16,
    pub size: std::num::NonZeroU16,
    pub ty: std::num::NonZeroU16,
    pub value: std::num::NonZeroU16,
}

/// The field ids of [`tree_sitter_c::LANGUAGE`].
pub fn fields() -> &'static Fields {
    static FIELDS: std::sync::OnceLock<Fields> = std::sync::OnceLock::new();
    FIELDS.get_or_init(|| {
        let lang: tree_sitter::Language = tree_sitter_c::LANGUAGE.into();
        let id = |name: &str| {
            lang.field_id_for_name(name)
                .unwrap_or_else(|| panic!("the C grammar has a `{name}` field"))
        };
        Fields {
            alternative: id("alternative"),
            argument: id("argument"),
            arguments: id("arguments"),
            body: id("body"),
            condition: id("condition"),
            declarator: id("declarator"),
            directive: id("directive"),
            function: id("function"),
            initializer: id("initializer"),
            label: id("label"),
            left: id("left"),
            index: id("index"),
            update: id("update"),
            right: id("right"),
            operator: id("operator"),
            name: id("name"),
            parameters: id("parameters"),
            size: id("size"),
            ty: id("type"),
            value: id("value"),
        }
    })
}

/// Whether a declaration or definition has one of `classes` as its storage class
/// (`static`, `extern`).
pub(crate) fn has_storage_class(n: tree_sitter::Node, src: &str, classes: &[&str]) -> bool {
    let mut cursor = n.walk();
    let found = n.children(&mut cursor).any(|c| {
        c.node_kind() == "storage_class_specifier" && classes.contains(&&src[c.byte_range()])
    });
    found
}

/// The declarator kind closest to the name (what the name is: a function,
/// an array, a pointer; `None`: the type itself), and the name.
pub(crate) fn derived(d: tree_sitter::Node) -> (Option<&'static str>, Option<tree_sitter::Node>) {
    let f = fields();
    let mut d = d;
    if d.node_kind() == "init_declarator" {
        match d.child_by_field_id(f.declarator.get()) {
            Some(t) => d = t,
            None => return (None, None),
        }
    }
    let mut last = None;
    loop {
        match d.node_kind() {
            "identifier" => return (last, Some(d)),
            "parenthesized_declarator" => match d.named_child(0) {
                Some(x) => d = x,
                None => return (last, None),
            },
            k => {
                last = match k {
                    "function_declarator" => Some("function_declarator"),
                    "array_declarator" => Some("array_declarator"),
                    "pointer_declarator" => Some("pointer_declarator"),
                    _ => Some("other"),
                };
                match d.child_by_field_id(f.declarator.get()) {
                    Some(x) => d = x,
                    None => return (last, None),
                }
            }
        }
    }
}

#[cfg(test)]
thread_local! {
    /// How many times this thread called [`parse`]: a file is parsed once.
    pub(crate) static PARSES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// A node's kind from a table built once: `Node::kind` measures the name's length and checks
/// its UTF-8 on every call, which walking a large file's trees over and over notices.
pub trait NodeKind {
    fn node_kind(&self) -> &'static str;
}

impl NodeKind for tree_sitter::Node<'_> {
    fn node_kind(&self) -> &'static str {
        static NAMES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
        let names = NAMES.get_or_init(|| {
            let lang: tree_sitter::Language = tree_sitter_c::LANGUAGE.into();
            (0..lang.node_kind_count() as u16)
                .map(|id| lang.node_kind_for_id(id).unwrap_or(""))
                .map(|name| &*Box::leak(name.to_string().into_boxed_str()))
                .collect()
        });
        // Error nodes have the one symbol outside the table.
        names
            .get(self.kind_id() as usize)
            .copied()
            .unwrap_or("ERROR")
    }
}

/// The name of a preprocessing directive as its token is written: `pragma` for `#pragma` and
/// for `# pragma` (C allows blanks between `#` and the name; tree-sitter keeps them in the
/// token).
pub(crate) fn directive_name(token: &str) -> &str {
    let t = token.trim_start();
    t.strip_prefix('#').map_or(t, |r| r.trim_start())
}

/// Files below this size are parsed in one piece.
const CHUNKED_PARSE_MIN_BYTES: usize = 64 * 1024;

/// Whether a block comment is open after `line`, given whether one was open before it: a
/// rough reading (a `/*` inside a string counts), for scans that only need to stay out of
/// comments.
pub(crate) fn comment_open_after(line: &str, mut in_comment: bool) -> bool {
    let mut rest = line;
    loop {
        if in_comment {
            match rest.find("*/") {
                Some(i) => {
                    in_comment = false;
                    rest = &rest[i + 2..];
                }
                None => return true,
            }
        } else {
            match rest.find("/*") {
                Some(i) if !rest[..i].contains("//") => {
                    in_comment = true;
                    rest = &rest[i + 2..];
                }
                _ => return false,
            }
        }
    }
}

/// Parses `src`, in parallel pieces when it is large.
///
/// tree-sitter parses one file on one thread, and on a large file the parse
/// dominates translation. Top-level items are independent, so the file is
/// cut after lines that are a lone `}` in column 0 (the end of a function or
/// type at file scope in any common style) outside comments and
/// preprocessor conditionals, and the pieces are parsed on all cores with
/// included ranges, which keeps byte offsets absolute. If any piece has a
/// syntax error the cut may have been wrong, so the whole file is parsed
/// again in one piece: the result is always what a single parse gives on a
/// file without errors.
pub fn parse(src: &str) -> Vec<tree_sitter::Tree> {
    #[cfg(test)]
    PARSES.with(|n| n.set(n.get() + 1));
    let src = directive_comments_as_spaces(src);
    let src = &*complex_as_qualifier(&src);
    let src = &*macro_definitions_closed(src);
    let src = &*pragma_operators_closed(src);
    let src = &*noreturn_functions_as_names(src);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    if src.len() < CHUNKED_PARSE_MIN_BYTES || threads < 2 {
        return vec![parse_whole(src)];
    }
    let cuts = cut_points(src, threads * 4);
    if cuts.len() < 2 {
        return vec![parse_whole(src)];
    }
    let mut bounds = Vec::with_capacity(cuts.len() + 1);
    let mut start = 0;
    for cut in cuts.into_iter().chain(std::iter::once(src.len())) {
        if cut > start {
            bounds.push((start, cut));
        }
        start = cut;
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut trees: Vec<Option<tree_sitter::Tree>> = (0..bounds.len()).map(|_| None).collect();
    let results = std::sync::Mutex::new(&mut trees);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut p = parser();
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&(start, end)) = bounds.get(i) else {
                        break;
                    };
                    let range = tree_sitter::Range {
                        start_byte: start,
                        end_byte: end,
                        start_point: point_at(src, start),
                        end_point: point_at(src, end),
                    };
                    let tree = p
                        .set_included_ranges(&[range])
                        .ok()
                        .and_then(|()| p.parse(src, None));
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = tree;
                }
            });
        }
    });
    let trees: Option<Vec<tree_sitter::Tree>> = trees.into_iter().collect();
    match trees {
        Some(trees) if !trees.iter().any(|t| t.root_node().has_error()) => trees,
        _ => vec![parse_whole(src)],
    }
}

fn parse_whole(src: &str) -> tree_sitter::Tree {
    parser()
        .parse(src, None)
        .expect("tree-sitter parses any text when no timeout or cancellation is set")
}

fn point_at(src: &str, byte: usize) -> tree_sitter::Point {
    let before = &src.as_bytes()[..byte];
    let row = before.iter().filter(|&&b| b == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    tree_sitter::Point::new(row, byte - line_start)
}

/// Byte offsets after lone-`}` lines at file scope, about `pieces` of them
/// evenly spread.
fn cut_points(src: &str, pieces: usize) -> Vec<usize> {
    let target = src.len() / pieces.max(1);
    let mut cuts = Vec::new();
    let mut last = 0;
    let mut in_comment = false;
    let mut pp_depth = 0i32;
    let mut offset = 0;
    for line in src.split_inclusive('\n') {
        offset += line.len();
        let trimmed = line.trim_start();
        if !in_comment && trimmed.starts_with('#') {
            let directive = trimmed[1..].trim_start();
            if directive.starts_with("if") {
                pp_depth += 1;
            } else if directive.starts_with("endif") {
                pp_depth -= 1;
            }
        }
        // Track block comments roughly; a cut is only made where no
        // comment could be open.
        in_comment = comment_open_after(line, in_comment);
        let lone_brace = line.trim_end() == "}";
        if lone_brace
            && !in_comment
            && pp_depth == 0
            && offset - last >= target
            && offset < src.len()
        {
            cuts.push(offset);
            last = offset;
        }
    }
    cuts
}

/// The name a declarator declares: an `identifier`, or a typedef's `type_identifier`.
pub fn declared_identifier(mut d: tree_sitter::Node) -> Option<tree_sitter::Node> {
    loop {
        if matches!(d.kind(), "identifier" | "type_identifier") {
            return Some(d);
        }
        d = d
            .child_by_field_id(fields().declarator.get())
            .or_else(|| d.named_child(0))?;
    }
}

/// Whether a declarator declares a function (not a pointer to one).
pub fn is_function_declarator(d: tree_sitter::Node) -> bool {
    derived(d).0 == Some("function_declarator")
}

/// tree-sitter-c ends a preprocessor line's text at a `/*` (its `preproc_arg` stops there),
/// so `#pragma acc parallel /* note */ copy(a)` or a comment before a `\` continuation leaves
/// the rest of the directive to be read as code. The preprocessor replaces each comment by one
/// space, and so does the parse copy here, for every comment that stands inside a directive
/// line, with the same offsets: a comment that spans lines gets a `\` before each line end it
/// holds, so the directive stays one line for tree-sitter as it is for the compiler. A comment
/// that ends a directive line is left alone (tree-sitter reads it, and printing keeps it where
/// the user wrote it). The front end reads directive text from the original, whose lexer steps
/// over comments.
fn directive_comments_as_spaces(src: &str) -> std::borrow::Cow<'_, str> {
    if !src.contains("/*") {
        return std::borrow::Cow::Borrowed(src);
    }
    let b = src.as_bytes();
    let mut out: Option<Vec<u8>> = None;
    let (mut i, mut line_start, mut in_directive) = (0, true, false);
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let Some(end) = crate::lex::comment_end(src, i) else {
                    break;
                };
                let rest = src[end..].split('\n').next().unwrap_or("");
                let rest = rest.trim_start_matches([' ', '\t', '\r', '\x0c', '\x0b']);
                if in_directive && !rest.is_empty() && !rest.starts_with("//") {
                    let o = out.get_or_insert_with(|| b.to_vec());
                    for k in i..end {
                        o[k] = match b.get(k + 1) {
                            Some(b'\n') | Some(b'\r') if !matches!(b[k], b'\n' | b'\r') => b'\\',
                            _ if matches!(b[k], b'\n' | b'\r') => b[k],
                            _ => b' ',
                        };
                    }
                }
                line_start = false;
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                // To the line's end; a `\` before it continues the comment.
                i += 2;
                while i < b.len() && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            q @ (b'"' | b'\'') => {
                // To the closing quote, or the line's end for a stray one (`#error don't`).
                line_start = false;
                i += 1;
                while i < b.len() && b[i] != q && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += usize::from(b.get(i) == Some(&q));
            }
            b'\\' if matches!(b.get(i + 1), Some(b'\n') | Some(b'\r')) => {
                i += if b[i + 1..].starts_with(b"\r\n") {
                    3
                } else {
                    2
                };
            }
            b'\n' => {
                (line_start, in_directive) = (true, false);
                i += 1;
            }
            b' ' | b'\t' | b'\r' | b'\x0c' | b'\x0b' => i += 1,
            c => {
                in_directive |= line_start && c == b'#';
                line_start = false;
                i += 1;
            }
        }
    }
    match out {
        // Only ASCII bytes of comments were replaced by ASCII bytes.
        Some(o) => std::borrow::Cow::Owned(
            String::from_utf8(o).expect("comment bytes replaced whole keep UTF-8"),
        ),
        None => std::borrow::Cow::Borrowed(src),
    }
}

/// tree-sitter-c takes `noreturn` for `<stdnoreturn.h>`'s function specifier wherever it
/// stands, but without that header it is an ordinary name in C, and programs name functions
/// so (`int noreturn (int x)`, a GCC test's routine): the function then had no name for the
/// analysis. Where `noreturn` is followed by `(`, which the specifier never is, the parse
/// reads a name of the same length (the analysis reads names from the file).
fn noreturn_functions_as_names(src: &str) -> std::borrow::Cow<'_, str> {
    const WORD: &str = "noreturn";
    if !src.contains(WORD) {
        return std::borrow::Cow::Borrowed(src);
    }
    let mut out: Option<Vec<u8>> = None;
    for at in whole_words(src, WORD) {
        let end = at + WORD.len();
        if src[end..].trim_start_matches([' ', '\t']).starts_with('(') {
            out.get_or_insert_with(|| src.as_bytes().to_vec())[at..end]
                .copy_from_slice(b"noreturN");
        }
    }
    match out {
        // Only ASCII letters changed: still UTF-8.
        Some(bytes) => String::from_utf8(bytes).map_or(std::borrow::Cow::Borrowed(src), Into::into),
        None => std::borrow::Cow::Borrowed(src),
    }
}

/// tree-sitter-c reads `_Pragma ("acc loop")`, with blanks before the parenthesis, after
/// another `_Pragma` operator as something other than a call (the pair then holds no
/// directive the walk can see). Parsing a copy where the blanks follow the parenthesis
/// (`_Pragma( "acc loop")`) gives the tree of the operator as usually written, with the
/// string literal, and every token but the `(`, at its offset.
fn pragma_operators_closed(src: &str) -> std::borrow::Cow<'_, str> {
    if !src.contains("_Pragma ") && !src.contains("_Pragma\t") {
        return std::borrow::Cow::Borrowed(src);
    }
    let b = src.as_bytes();
    let mut out = b.to_vec();
    for at in whole_words(src, "_Pragma") {
        let end = at + "_Pragma".len();
        let blanks = b[end..]
            .iter()
            .take_while(|&&c| c == b' ' || c == b'\t')
            .count();
        if blanks > 0 && b.get(end + blanks) == Some(&b'(') {
            out[end] = b'(';
            out[end + 1..=end + blanks].copy_from_slice(&b[end..end + blanks]);
        }
    }
    // Only ASCII bytes moved: still UTF-8.
    String::from_utf8(out).map_or(std::borrow::Cow::Borrowed(src), Into::into)
}

/// Where `word` stands in `src` as a whole identifier (no identifier character on either side).
fn whole_words<'a>(src: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    let b = src.as_bytes();
    src.match_indices(word)
        .map(|(at, _)| at)
        .filter(move |&at| {
            let end = at + word.len();
            (at == 0 || !crate::lex::is_word(b[at - 1]))
                && b.get(end).is_none_or(|&c| !crate::lex::is_word(c))
        })
}

/// tree-sitter-c reads a `#define` line that ends in blanks (`#define EMPTY ` with a trailing
/// space, as editors and generated headers leave them) as a definition whose replacement is
/// the next line, which then vanishes from the tree (a declaration, or the next `#define`).
/// Parsing a copy where the newline comes before those blanks gives the right tree with the
/// same offsets for every token: the blanks only move to the start of the next line.
fn macro_definitions_closed(src: &str) -> std::borrow::Cow<'_, str> {
    if !src.contains("define") {
        return std::borrow::Cow::Borrowed(src);
    }
    let mut out: Option<Vec<u8>> = None;
    let mut line_start = 0;
    while line_start < src.len() {
        let end = src[line_start..]
            .find('\n')
            .map_or(src.len(), |e| line_start + e);
        let line = &src[line_start..end];
        let code = line.strip_suffix('\r').unwrap_or(line);
        let body = code.trim_end_matches([' ', '\t']);
        let is_define = code
            .trim_start()
            .strip_prefix('#')
            .is_some_and(|d| d.trim_start().starts_with("define"));
        if is_define && body.len() < code.len() && !body.ends_with('\\') && end < src.len() {
            let blanks = line_start + body.len()..line_start + code.len();
            let newline = &src[blanks.end..=end];
            let out = out.get_or_insert_with(|| src.as_bytes().to_vec());
            let moved: Vec<u8> = newline.bytes().chain(src[blanks.clone()].bytes()).collect();
            out[blanks.start..=end].copy_from_slice(&moved);
        }
        line_start = end + 1;
    }
    match out {
        // Only ASCII bytes moved: still UTF-8.
        Some(bytes) => String::from_utf8(bytes).map_or(std::borrow::Cow::Borrowed(src), Into::into),
        None => std::borrow::Cow::Borrowed(src),
    }
}

/// tree-sitter-c does not know `_Complex` (nor `complex` from
/// `<complex.h>`), and `float _Complex z` then parses as a declaration of
/// `_Complex`. Parsing a copy where they are qualifiers of the same length
/// (`volatile`, `_Atomic`) gives the right tree with the same offsets; the
/// front end reads names and types from the original text, so `_Complex`
/// is still what it sees.
fn complex_as_qualifier(src: &str) -> std::borrow::Cow<'_, str> {
    if !src.contains("complex") && !src.contains("_Complex") {
        return std::borrow::Cow::Borrowed(src);
    }
    let bytes = src.as_bytes();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80;
    let mut out = src.as_bytes().to_vec();
    // Bytes, not `str` slices: `i` walks every byte, also inside a multi-byte character.
    let word_at = |i: usize, w: &str| {
        bytes[i..].starts_with(w.as_bytes())
            && (i == 0 || !is_ident(bytes[i - 1]))
            && bytes.get(i + w.len()).is_none_or(|&b| !is_ident(b))
    };
    let prev_word = |i: usize| {
        let before = src[..i].trim_end();
        before
            .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .next()
            .unwrap_or("")
    };
    let mut i = 0;
    while i < bytes.len() {
        if word_at(i, "_Complex") {
            out[i..i + 8].copy_from_slice(b"volatile");
            i += 8;
        } else if word_at(i, "complex") && matches!(prev_word(i), "float" | "double") {
            out[i..i + 7].copy_from_slice(b"_Atomic");
            i += 7;
        } else {
            i += 1;
        }
    }
    // Only ASCII bytes were replaced by ASCII bytes.
    std::borrow::Cow::Owned(String::from_utf8(out).expect("ASCII substitution keeps UTF-8"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sexp_all(trees: &[tree_sitter::Tree]) -> Vec<String> {
        trees
            .iter()
            .flat_map(|t| {
                let root = t.root_node();
                let mut c = root.walk();
                root.children(&mut c)
                    .map(|n| format!("{}@{:?}", n.to_sexp(), n.byte_range()))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// An empty definition written with trailing blanks keeps the line after it: the next
    /// declaration and the next definition are items of their own, at their offsets.
    #[test]
    fn definitions_ending_in_blanks_end_at_their_line() {
        let src = "#define EMPTY \t\nint kept;\n#define FN(x) \r\n#define NEXT worker \nint b;\n";
        let moved = macro_definitions_closed(src);
        assert_eq!(moved.len(), src.len());
        assert_eq!(
            moved,
            "#define EMPTY\n \tint kept;\n#define FN(x)\r\n #define NEXT worker\n int b;\n"
        );
        let trees = parse(src);
        let kinds: Vec<(&str, &str)> = {
            let root = trees[0].root_node();
            let mut c = root.walk();
            root.children(&mut c)
                .map(|n| (n.kind(), src[n.byte_range()].trim()))
                .collect()
        };
        assert_eq!(
            kinds,
            [
                ("preproc_def", "#define EMPTY"),
                ("declaration", "int kept;"),
                ("preproc_function_def", "#define FN(x)"),
                ("preproc_def", "#define NEXT worker"),
                ("declaration", "int b;")
            ]
        );
    }

    /// Two `_Pragma` operators in a row, the second spaced from its parenthesis: both are
    /// calls of the parse, their literals where the file has them.
    #[test]
    fn spaced_pragma_operators_parse_as_calls() {
        let src =
            "void f(void) {\n_Pragma(\"acc parallel\") _Pragma (\"acc loop\") for (;;) ;\n}\n";
        let closed = pragma_operators_closed(src);
        assert_eq!(closed.len(), src.len());
        assert!(closed.contains("_Pragma( \"acc loop\")"), "{closed}");
        assert_eq!(pragma_operators_closed("my_Pragma (x)"), "my_Pragma (x)");
        let trees = parse(src);
        let text = trees[0].root_node().to_sexp();
        assert_eq!(text.matches("call_expression").count(), 2, "{text}");
    }

    /// A function named `noreturn` is a function of that name to the parse.
    #[test]
    fn functions_named_noreturn_have_their_name() {
        let src = "int noreturn (int x) { return x; }\nint g(void) { return noreturn(1); }\n";
        let trees = parse(src);
        let root = trees[0].root_node();
        let first = root.named_child(0).unwrap();
        assert_eq!(first.kind(), "function_definition", "{}", root.to_sexp());
        let (_, name) = derived(first.child_by_field_name("declarator").unwrap());
        assert_eq!(&src[name.unwrap().byte_range()], "noreturn");
        assert_eq!(
            noreturn_functions_as_names("noreturn void f(void);"),
            "noreturn void f(void);"
        );
    }

    #[test]
    fn complex_is_found_beside_multi_byte_characters() {
        let src = "/* é */ float complex z; /* \u{10FFAA} */ double é_Complex; double _Complex w;";
        let out = super::complex_as_qualifier(src);
        assert_eq!(out.len(), src.len());
        assert!(out.contains("float _Atomic z") && out.contains("double volatile w"));
        assert!(out.contains("é_Complex"), "not a word of its own: {out}");
    }

    #[test]
    fn comments_inside_directive_lines_are_spaces_for_the_parse() {
        let src = "#pragma acc parallel /* a */ copy(x) \\\n  /* b\r\n c */ gang /* end */\n\
                   int y; /* code */ int z;\n#define F(v) /* c */ (v) // note\n\
                   char *s = \"#x /* s */ y\";\n";
        let out = directive_comments_as_spaces(src);
        assert_eq!(out.len(), src.len());
        assert!(
            out.starts_with("#pragma acc parallel         copy(x) \\\n"),
            "{out}"
        );
        assert!(
            out.contains("\n     \\\r\n      gang /* end */\n"),
            "a comment's line ends continue: {out}"
        );
        assert!(
            out.contains("int y; /* code */"),
            "code's comments stay: {out}"
        );
        assert!(out.contains("#define F(v)         (v) // note"), "{out}");
        assert!(out.contains("\"#x /* s */ y\""), "not in a string: {out}");
        let tree = parse_whole(&out);
        assert!(
            !tree.root_node().has_error(),
            "{}",
            tree.root_node().to_sexp()
        );
    }

    #[test]
    fn chunked_parse_equals_whole_parse() {
        let mut src =
            String::from("#include <stdio.h>\n#if X\nint f(void) {\n  return 1;\n}\n#endif\n");
        for k in 0..3000 {
            src.push_str(&format!(
                "/* item {k} }} */\nstatic int g{k}(int n) {{\n  #pragma acc parallel loop\n  for (int i = 0; i < n; i++) {{ n += i; }}\n  return n;\n}}\n"
            ));
        }
        let chunked = parse(&src);
        let whole = vec![parse_whole(&src)];
        assert_eq!(sexp_all(&chunked), sexp_all(&whole));
    }

    #[test]
    fn a_bad_cut_falls_back_to_one_parse() {
        // A lone `}` that closes an initializer split across lines: cutting
        // there would give errors, so the result is the single parse.
        let mut src = String::new();
        for k in 0..4000 {
            src.push_str(&format!("int a{k}[] = {{\n  1, 2\n}}\n;\n"));
        }
        let trees = parse(&src);
        assert!(!trees.iter().any(|t| t.root_node().has_error()));
        assert_eq!(sexp_all(&trees), sexp_all(&[parse_whole(&src)]));
    }
}
