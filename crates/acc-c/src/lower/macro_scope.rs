//! Macros a kernel uses that the file changes after the construct (an `#undef`, another
//! `#define`), or defines only after it. The kernel functions are written at the end of the
//! file, where such a macro means something else or nothing, so the construct's site saves
//! each one's definition (`#pragma push_macro`; an undefined macro is saved as undefined) and
//! its kernel functions bring it back (`#pragma pop_macro`); the preprocessor of GCC and clang
//! knows both. Saves stack up, so the kernel functions that restore go after the others in the
//! reverse order of their constructs: each takes back its own. The CUDA module, whose kernels
//! follow every definition of the file, switches such a macro to its meaning at the site
//! around the kernel's body (`#undef`, the site's `#define`) and back, from the file's text.
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

/// One `#define` or `#undef` line of the file: the macro, where the line starts, and for a
/// `#define` its logical line (continuations joined).
pub(super) struct MacroLine {
    pub(super) name: String,
    at: usize,
    define: Option<String>,
}

/// The file's `#define` and `#undef` lines, in order.
pub(super) fn macro_lines(src: &str) -> Vec<MacroLine> {
    let mut out = Vec::new();
    let mut at = 0;
    let mut lines = src.split_inclusive('\n');
    while let Some(line) = lines.next() {
        let start = at;
        at += line.len();
        let Some((kind, name)) = crate::lex::macro_line(line) else {
            continue;
        };
        let mut logical = line.trim_end().to_string();
        while logical.ends_with('\\') {
            let Some(next) = lines.next() else { break };
            at += next.len();
            logical.pop();
            logical.push(' ');
            logical.push_str(next.trim_end());
        }
        out.push(MacroLine {
            name: name.to_string(),
            at: start,
            define: (kind == "define").then_some(logical),
        });
    }
    out
}

impl Lowerer<'_> {
    /// The macros the construct's statement names, or the declarations of the variables it
    /// uses (the kernel repeats their types: `int b[N]`), whose meaning at the end of the file
    /// may differ from the site's: changed ([`changed_macros`]), or first defined after it.
    pub(super) fn macros_to_save(&self, body: Span) -> Vec<String> {
        // Each macro's first line in the file, once: a `#define` after the statement.
        let mut first: std::collections::HashMap<&str, &MacroLine> = Default::default();
        for l in self.live_macro_lines() {
            first.entry(l.name.as_str()).or_insert(l);
        }
        let later = |w: &str| {
            first
                .get(w)
                .is_some_and(|l| l.define.is_some() && l.at >= body.end)
        };
        let mut text = self.src[body.start..body.end].to_string();
        let refs = &self.unit.refs;
        let first = refs.partition_point(|r| r.span.start < body.start);
        let mut declared = std::collections::HashSet::new();
        for r in refs[first..].iter().take_while(|r| r.span.start < body.end) {
            if declared.insert(r.var) {
                text.push('\n');
                text.push_str(&self.unit.var(r.var).decl_text);
            }
        }
        let mut names: Vec<String> = Vec::new();
        for w in text
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
        {
            if (self.changed_macros.iter().any(|m| m == w) || later(w))
                && !names.iter().any(|n| n == w)
            {
                names.push(w.to_string());
            }
        }
        names
    }

    /// The macro lines outside the `#if` arms the compiler does not see.
    fn live_macro_lines(&self) -> impl Iterator<Item = &MacroLine> + '_ {
        self.macro_lines.iter().filter(|l| {
            !self
                .unit
                .dead_branches
                .iter()
                .any(|d| d.start <= l.at && l.at < d.end)
        })
    }

    /// For the CUDA version of a kernel of the construct at `at`: the lines that give each of
    /// `names` its meaning at the site, and those that give back its meaning at the end of the
    /// file, as the file's text says. A macro the file's first line of names `#undef`s comes
    /// from elsewhere (a header, `-D`) and is left as it is.
    pub(super) fn site_macro_lines(&self, names: &[String], at: usize) -> (String, String) {
        let (mut before, mut after) = (String::new(), String::new());
        for name in names {
            let lines: Vec<&MacroLine> = self
                .live_macro_lines()
                .filter(|l| &l.name == name)
                .collect();
            if lines.first().is_none_or(|l| l.define.is_none()) {
                continue;
            }
            let state = |end: usize| {
                lines
                    .iter()
                    .rev()
                    .find(|l| l.at < end)
                    .and_then(|l| l.define.clone())
            };
            before.push_str(&format!("#undef {name}\n"));
            if let Some(d) = state(at) {
                before.push_str(&format!("{d}\n"));
            }
            after.push_str(&format!("#undef {name}\n"));
            if let Some(d) = state(self.src.len()) {
                after.push_str(&format!("{d}\n"));
            }
        }
        (before, after)
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
