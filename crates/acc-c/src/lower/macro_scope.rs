//! Macros a kernel uses that the file changes after the construct (an `#undef`, another
//! `#define`). The kernel functions are written at the end of the file, where such a macro
//! means something else or nothing, so the construct's site saves each one's definition
//! (`#pragma push_macro`) and its kernel functions bring it back (`#pragma pop_macro`); the
//! preprocessor of GCC and clang knows both. Saves stack up, so the kernel functions that
//! restore go after the others in the reverse order of their constructs: each takes back its
//! own.
//!
//! It must not know what a kernel does; it only brackets the text the lowering writes.

use super::*;

/// The macros the main file `#undef`s or `#define`s more than once: the only ones whose
/// meaning at a construct can differ from their meaning at the end of the file.
pub(super) fn changed_macros(src: &str) -> Vec<String> {
    let mut defined: Vec<&str> = Vec::new();
    let mut changed: Vec<String> = Vec::new();
    for line in src.lines() {
        let Some((kind, name)) = crate::lex::macro_line(line) else {
            continue;
        };
        let undef = kind == "undef";
        let again = !undef && defined.contains(&name);
        if (undef || again) && !changed.iter().any(|c| c == name) {
            changed.push(name.to_string());
        }
        defined.push(name);
    }
    changed
}

impl Lowerer<'_> {
    /// The changed macros ([`changed_macros`]) that the construct's statement names.
    pub(super) fn macros_to_save(&self, body: Span) -> Vec<String> {
        if self.changed_macros.is_empty() {
            return Vec::new();
        }
        let text = &self.src[body.start..body.end];
        let mut names: Vec<String> = Vec::new();
        for w in text
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
        {
            if self.changed_macros.iter().any(|m| m == w) && !names.iter().any(|n| n == w) {
                names.push(w.to_string());
            }
        }
        names
    }

    /// `#pragma push_macro("M")` (or `pop_macro`) lines for `names`.
    pub(super) fn macro_pragmas(names: &[String], verb: &str) -> String {
        names
            .iter()
            .map(|m| format!("#pragma {verb}_macro(\"{m}\")\n"))
            .collect()
    }

    /// The kernel functions of one construct, whose macros its site saved: kept apart, to be
    /// written after the others (see the module's doc).
    pub(super) fn keep_restoring(&mut self, names: &[String], functions: String) {
        self.restoring_kernels
            .push(Self::macro_pragmas(names, "pop") + &functions);
    }

    /// The restoring kernel functions, last construct first, after the others.
    pub(super) fn append_restoring_kernels(&mut self) {
        while let Some(text) = self.restoring_kernels.pop() {
            self.kernels.push_str(&text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::changed_macros;

    #[test]
    fn only_macros_undefined_or_defined_again_are_changed() {
        let src = "#define N 8\n#define A(i) a[i]\n  #  undef A\n#define S 1\n#define S 2\n\
                   #define STR \"#undef X\"\n#undefine_not Y\n";
        assert_eq!(changed_macros(src), ["A", "S"]);
    }
}
