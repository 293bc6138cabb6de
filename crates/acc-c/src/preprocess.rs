//! Header facts through the user's preprocessor.
//!
//! The original text is what we analyse and print, so macros and comments
//! survive; but typedefs, struct tags and macros from headers are only in
//! the preprocessed text. `$CC -E -dD` (with `_OPENACC` defined, as an
//! OpenACC compiler would) gives both, and we learn them from it.

use std::path::Path;
use std::process::Command;

use crate::types::TypeEnv;

/// `_OPENACC` for OpenACC 3.3 (November 2022).
pub const OPENACC_VERSION: &str = "202211";

/// Runs the preprocessor over `file` and learns the file-scope facts of
/// everything it includes. `args` are the user's `-I`, `-D`, `-U`, `-std=`.
pub fn header_facts(cc: &str, file: &Path, args: &[String]) -> Result<TypeEnv, String> {
    let out = Command::new(cc)
        .arg("-E")
        .arg("-dD")
        .arg(format!("-D_OPENACC={OPENACC_VERSION}"))
        .args(args)
        .arg(file)
        .output()
        .map_err(|e| format!("cannot run the preprocessor `{cc}`: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "the preprocessor `{cc} -E` failed on {}:\n{}",
            file.display(),
            String::from_utf8_lossy(&out.stderr).trim_end()
        ));
    }
    let text = crate::text::decode(out.stdout);
    Ok(learn_text(&text))
}

/// The facts of already preprocessed text.
pub fn learn_text(text: &str) -> TypeEnv {
    let mut env = TypeEnv::default();
    // `-dD` writes an empty macro as `#define NAME ` with a trailing space,
    // and tree-sitter then takes the next line as its value (swallowing,
    // say, the typedef after an include guard). Offsets do not matter
    // here, so trailing blanks go.
    let trimmed: String = text
        .lines()
        .map(|l| format!("{}\n", l.trim_end()))
        .collect();
    let text = trimmed.as_str();
    for tree in crate::syntax::parse(text) {
        let root = tree.root_node();
        let mut c = root.walk();
        for n in root.children(&mut c) {
            env.learn(n, text);
        }
    }
    env
}

#[cfg(test)]
mod tests {
    use super::learn_text;

    #[test]
    fn empty_macros_do_not_swallow_the_next_line() {
        let env = learn_text("#define HEAT_H \ntypedef double real;\n#define N 8 \n");
        assert!(env.typedefs.contains_key("real"));
        assert_eq!(env.constants.get("N").map(String::as_str), Some("8"));
    }
}
