//! The tree-sitter C parser.

/// A parser for C.
pub fn parser() -> tree_sitter::Parser {
    let mut p = tree_sitter::Parser::new();
    p.set_language(&tree_sitter_c::LANGUAGE.into())
        .expect("the tree-sitter-c grammar matches the tree-sitter version");
    p
}
