//! Snapshots of the Rust front end's expansions: every `#[acc::…]` function of the workspace's
//! Rust tests, UI tests, benches and examples, expanded as the compiler would expand it (the
//! host path, the CUDA module's text, the routines' forms and the errors). They pin what the
//! macros generate, so a restructuring shows as no diff; a change of generated code is reviewed
//! as one. Refresh with `UPDATE_EXPECT=1 cargo test -p acc-macros snapshots`.

use std::fs;
use std::path::{Path, PathBuf};

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::visit::Visit;

use crate::expand::Construct;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Which expansion an attribute asks for, by its last path segment under `acc::`.
fn macro_of(attr: &syn::Attribute) -> Option<&'static str> {
    let path = attr.path();
    let names: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    match names.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["acc", "parallel"] => Some("parallel"),
        ["acc", "kernels"] => Some("kernels"),
        ["acc", "serial"] => Some("serial"),
        ["acc", "data"] => Some("data"),
        ["acc", "routine"] => Some("routine"),
        _ => None,
    }
}

fn expand(name: &str, attr: TokenStream, item: TokenStream) -> TokenStream {
    let construct = match name {
        "parallel" => Construct::Parallel,
        "kernels" => Construct::Kernels,
        "serial" => Construct::Serial,
        "data" => Construct::Data,
        _ => return crate::routine::expand(attr, item),
    };
    crate::expand::construct(construct, attr, item)
}

/// Every function with an `acc::` attribute, in the order of the file (nested ones too).
#[derive(Default)]
struct Expansions {
    text: String,
}

impl<'ast> Visit<'ast> for Expansions {
    fn visit_item_fn(&mut self, func: &'ast syn::ItemFn) {
        if let Some(at) = func.attrs.iter().position(|a| macro_of(a).is_some()) {
            let attr = &func.attrs[at];
            let name = macro_of(attr).unwrap();
            let args = match &attr.meta {
                syn::Meta::List(list) => list.tokens.clone(),
                _ => TokenStream::new(),
            };
            let mut item = func.clone();
            item.attrs.remove(at);
            let out = expand(name, args, item.into_token_stream());
            self.text
                .push_str(&format!("==== #[acc::{name}] fn {}\n", func.sig.ident));
            self.text.push_str(&readable(&out.to_string()));
            self.text.push('\n');
        }
        syn::visit::visit_item_fn(self, func);
    }
}

/// Token text with a line break after each `;` and `{`, so that a diff shows the statement.
fn readable(tokens: &str) -> String {
    tokens.replace("; ", ";\n").replace("{ ", "{\n")
}

#[test]
fn expansions_are_pinned() {
    let root = workspace();
    let mut files = Vec::new();
    for dir in ["tests", "benches", "examples", "src"] {
        rust_files(&root.join(dir), &mut files);
    }
    files.sort();
    let snapshots = Path::new(env!("CARGO_MANIFEST_DIR")).join("snapshots");
    let mut pinned = 0;
    for path in &files {
        let text = fs::read_to_string(path).unwrap();
        let Ok(file) = syn::parse_file(&text) else {
            continue;
        };
        let mut expansions = Expansions::default();
        expansions.visit_file(&file);
        if expansions.text.is_empty() {
            continue;
        }
        pinned += 1;
        let name = path
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('/', "__");
        expect_test::expect_file![snapshots.join(format!("{name}.txt"))]
            .assert_eq(&expansions.text);
    }
    assert!(pinned > 10, "the Rust tests are missing: {pinned} files");
}
