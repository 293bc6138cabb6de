//! The preprocessor as the walk sees it: which branch of a `#if` is live (from the macros the
//! file and its headers define), references to object-like macros, and macros expanded in
//! directive text.
//!
//! It must not declare variables or read directives; it answers the walk's questions.

use super::*;

impl<'s> Walker<'s> {
    /// The items of the branch of a `#if`/`#ifdef` chain the compiler will see, when its
    /// conditions are certain: they name only `_OPENACC` (defined, as for any OpenACC
    /// compiler), `_OPENMP` (defined only where the preprocessor said so), and macros the file
    /// or its headers define (all of them, `-D` flags included, when the preprocessor read the
    /// file), with `defined`, `!`, `&&`, `||`, comparisons and numbers. `None` otherwise (a
    /// name a `-D` option may define): then every branch is read.
    pub(super) fn live_branch(&self, node: Node<'s>) -> Option<Vec<Node<'s>>> {
        let Some(n) = self.live_arm(node)? else {
            return Some(Vec::new());
        };
        let alternative = n.child_by_field_id(fields().alternative.get());
        let mut c = n.walk();
        let items: Vec<Node<'s>> = n
            .children(&mut c)
            .filter(|x| {
                x.is_named()
                    && Some(*x) != n.child_by_field_id(fields().condition.get())
                    && Some(*x) != n.child_by_field_id(fields().name.get())
                    && Some(*x) != alternative
            })
            .collect();
        Some(items)
    }

    /// The arm of a `#if` chain whose condition holds (`Some(None)`: none does), when the
    /// conditions are certain (see [`Self::live_branch`]).
    fn live_arm(&self, node: Node<'s>) -> Option<Option<Node<'s>>> {
        let mut n = node;
        loop {
            let truth = match n.node_kind() {
                "preproc_ifdef" | "preproc_elifdef" => {
                    let name = self.text(n.child_by_field_id(fields().name.get())?);
                    let directive = crate::syntax::directive_name(self.text(n));
                    let negated =
                        directive.starts_with("ifndef") || directive.starts_with("elifndef");
                    self.macro_defined(name, n.start_byte())? != negated
                }
                "preproc_if" | "preproc_elif" => {
                    let cond = self.text(n.child_by_field_id(fields().condition.get())?);
                    self.eval_condition(cond, n.start_byte())? != 0
                }
                "preproc_else" => true,
                _ => return None,
            };
            if truth {
                return Some(Some(n));
            }
            match n.child_by_field_id(fields().alternative.get()) {
                Some(a) => n = a,
                None => return Some(None),
            }
        }
    }

    /// The arms of a `#if` chain the compiler will not see, each from its `#if`, `#elif` or
    /// `#else` line to the next arm, when the live one is certain.
    pub(super) fn dead_arms(&self, node: Node<'s>) -> Vec<Span> {
        let Some(live) = self.live_arm(node) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut n = Some(node);
        while let Some(arm) = n {
            let next = arm.child_by_field_id(fields().alternative.get());
            if Some(arm) != live {
                let end = next.map_or(arm.end_byte(), |a| a.start_byte());
                out.push(Span::new(arm.start_byte(), end));
            }
            n = next;
        }
        out
    }

    /// Whether a macro is defined for the preprocessor, when acc can know: with the headers
    /// read through the preprocessor (with the command line's `-D` and `-U`), every macro it
    /// knows at the end of the file, and no other.
    pub(super) fn macro_defined(&self, name: &str, at: usize) -> Option<bool> {
        if name == "_OPENACC" {
            return Some(true);
        }
        if let Some(defined) = self.own_macro_state(name, at)? {
            return Some(defined);
        }
        if self.env.constants.contains_key(name) || self.env.function_macros.contains_key(name) {
            return Some(true);
        }
        if !self.env.macros.is_empty() {
            return Some(self.env.macros.contains_key(name));
        }
        (name == "_OPENMP").then_some(false)
    }

    /// What the file's own `#define` and `#undef` lines say of `name` at byte `at`, since the
    /// macros acc knows are those the file ends with: `Some(Some(defined))` from the last of
    /// them before `at` that the compiler surely reads (arms acc knows dead skipped);
    /// `Some(None)` when they say nothing (the macros the file ends with do); `None` when the
    /// state here is unknown: the last one is in an arm acc could not decide, or the file only
    /// changes the macro later (`#ifndef N` / `#define N 64` / `#endif`: `N` is defined at the
    /// end either way).
    fn own_macro_state(&self, name: &str, at: usize) -> Option<Option<bool>> {
        let lines = self.own_macro_lines.iter().filter(|l| l.0 == name);
        let mut later = false;
        for &(_, line, defines) in lines.rev() {
            if line >= at {
                later = true;
                continue;
            }
            if self
                .dead_branches
                .iter()
                .any(|d| d.start <= line && line < d.end)
            {
                continue;
            }
            if let Some(chain) = self
                .undecided_chains
                .iter()
                .rev()
                .find(|d| d.start <= line && line < d.end)
            {
                // `#ifndef N` / `#define N 64` / `#endif`: defined after it either way.
                return self.guards(*chain, name).then_some(Some(true));
            }
            return Some(Some(defines));
        }
        if later {
            None
        } else {
            Some(None)
        }
    }

    /// Whether the `#if` chain at `chain` is a default for `name`: `#ifndef name` (or `#if
    /// !defined(name)`) with no `#else`, whose arm defines it and never undefines it.
    fn guards(&self, chain: Span, name: &str) -> bool {
        let text = &self.src[chain.start..chain.end];
        let first = text.lines().next().unwrap_or("");
        let directive = crate::syntax::directive_name(first);
        let condition = directive.strip_prefix("ifndef").map(str::trim).or_else(|| {
            let c = directive
                .strip_prefix("if")?
                .trim_start()
                .strip_prefix('!')?;
            let c = c.trim_start().strip_prefix("defined")?.trim();
            Some(c.trim_start_matches('(').trim_end_matches(')').trim())
        });
        let inner = |d: &str| {
            text.lines().skip(1).any(|l| {
                let l = crate::syntax::directive_name(l);
                l.starts_with(d)
            })
        };
        condition == Some(name)
            && !inner("else")
            && !inner("elif")
            && !self.own_macro_lines.iter().any(|&(n, at, defines)| {
                n == name && !defines && chain.start <= at && at < chain.end
            })
    }

    /// A `#if` condition's value at byte `at`, when every name in it is one `macro_defined`
    /// knows.
    pub(super) fn eval_condition(&self, cond: &str, at: usize) -> Option<i64> {
        let position = at;
        // `defined X` and `defined(X)` first, then the constant expression.
        let mut text = String::with_capacity(cond.len());
        let mut rest = cond;
        while let Some(at) = rest.find("defined") {
            let before_ok = rest[..at]
                .chars()
                .last()
                .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
            let after = &rest[at + "defined".len()..];
            let trimmed = after.trim_start();
            let (name, tail) = if let Some(inner) = trimmed.strip_prefix('(') {
                let close = inner.find(')')?;
                (inner[..close].trim(), &inner[close + 1..])
            } else {
                let end = trimmed
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(trimmed.len());
                (&trimmed[..end], &trimmed[end..])
            };
            if !before_ok || name.is_empty() {
                text.push_str(&rest[..at + "defined".len()]);
                rest = after;
                continue;
            }
            text.push_str(&rest[..at]);
            text.push_str(if self.macro_defined(name, position)? {
                "1"
            } else {
                "0"
            });
            rest = tail;
        }
        text.push_str(rest);
        // Any name left must be a macro the file or its headers define; with every macro known
        // (the preprocessor read the file), one it does not define is 0, as C says.
        let complete = !self.env.macros.is_empty();
        let mut zeroed = String::with_capacity(text.len());
        let (b, mut at, mut i) = (text.as_bytes(), 0, 0);
        while i < b.len() {
            if !crate::lex::is_word(b[i]) {
                i += 1;
                continue;
            }
            let start = i;
            while i < b.len() && crate::lex::is_word(b[i]) {
                i += 1;
            }
            let w = &text[start..i];
            if w == "_OPENACC" {
                // The word only: `ENABLE_OPENACC` is a name of the program's.
                zeroed.push_str(&text[at..start]);
                zeroed.push_str(crate::preprocess::OPENACC_VERSION);
                at = i;
                continue;
            }
            if w.starts_with(|c: char| c.is_ascii_digit()) {
                continue;
            }
            // A macro the file defines or undefines: its value here is the one the file ends
            // with only where nothing changes it after this line.
            if self.own_macro_lines.iter().any(|l| l.0 == w)
                && (self
                    .own_macro_lines
                    .iter()
                    .any(|l| l.0 == w && l.1 >= position)
                    || self.own_macro_state(w, position)?.is_none())
            {
                return None;
            }
            if self.env.constants.contains_key(w) {
                continue;
            }
            if !complete || self.env.macros.contains_key(w) {
                return None;
            }
            zeroed.push_str(&text[at..start]);
            zeroed.push('0');
            at = i;
        }
        zeroed.push_str(&text[at..]);
        crate::consts::eval(&zeroed, &self.env)
    }

    /// The variables a macro's expansion may use (`_PB_NI` for `POLYBENCH_LOOP_BOUND(NI, ni)`
    /// uses the parameter `ni`; `IDX(i, j)` for `((i) * n + (j))` uses `n`), as references at
    /// the macro's name: the construct uses what the compiler will see. Every name in the
    /// replacement text counts (nested macros expanded, a function-like macro's parameters
    /// left out, since its arguments are in the source): a superset, which costs at most an
    /// unused copy.
    pub(super) fn macro_refs(&mut self, name: &str, span: Span) {
        if !self.env.constants.contains_key(name) && !self.env.function_macros.contains_key(name) {
            return;
        }
        let mut seen: Vec<String> = vec![name.to_string()];
        let mut queue: Vec<String> = vec![name.to_string()];
        let mut vars: Vec<VarId> = Vec::new();
        while let Some(m) = queue.pop() {
            if seen.len() > 256 {
                break;
            }
            let (text, params): (String, Vec<String>) = match self.env.function_macros.get(&m) {
                Some((params, body)) => (body.clone(), params.clone()),
                None => match self.env.constants.get(&m) {
                    Some(value) => (value.clone(), Vec::new()),
                    None => continue,
                },
            };
            for w in text
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty() && !w.starts_with(|c: char| c.is_ascii_digit()))
            {
                if params.iter().any(|p| p == w) || seen.iter().any(|s| s == w) {
                    continue;
                }
                seen.push(w.to_string());
                let found = self.lookup(w).or_else(|| self.header_var(w));
                match found {
                    Some(v) => vars.push(v),
                    None => queue.push(w.to_string()),
                }
            }
        }
        for var in vars {
            self.unit.refs.push(Ref {
                var,
                span,
                implied: true,
            });
        }
    }

    /// The directive's text with the macros among its words replaced, as the preprocessor
    /// replaces them in `#pragma acc` lines (`#define LOOP loop` then `#pragma acc parallel LOOP
    /// copy(x)`; `#define DATA copy(a[0:n])`), and the map from the result's bytes to the
    /// text's (a replacement's bytes map into the macro's name). Words outside parentheses
    /// are replaced, and inside them the uses of function-like macros; other words there keep
    /// their text (the compiler expands them where acc writes them) and their spans. `None`
    /// when no word is a macro.
    pub(super) fn expand_directive_macros(&self, text: &str) -> Option<(String, Vec<usize>)> {
        let is_macro = |w: &str| {
            self.env.constants.contains_key(w) || self.env.function_macros.contains_key(w)
        };
        let bytes = text.as_bytes();
        let word_at = |i: usize| -> usize {
            let mut j = i;
            while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_') {
                j += 1;
            }
            j
        };
        // Inside a clause's parentheses, a function-like macro's use is replaced too: it may
        // be a whole list item (`#define SECT(a) a[0:N]`, `copyin(SECT(u))`), which acc must
        // read, not leave to the compiler.
        let is_call = |i: usize, j: usize| {
            self.env.function_macros.contains_key(&text[i..j])
                && text[j..].trim_start().starts_with('(')
        };
        // So is an object-like macro whose replacement is no value (`#define SECTION a[0:N]`,
        // `#define VARS a, b`, `#define OP +`, an empty one): it shapes the list or the
        // operator, which acc must read. One that is a value (`N`, `(N * 2)`, another name)
        // stays as written, for the constant reader and the printer; but not as a reduction's
        // operator, which is a keyword of the directive (`#define OP max`).
        let shapes_clause = |i: usize, j: usize| {
            self.env.constants.get(&text[i..j]).is_some_and(|value| {
                !is_value_like(value) || is_reduction_operator_position(&text[..i])
            })
        };
        let replaced = |depth: i32, first_word: bool, i: usize, j: usize| -> bool {
            (depth == 0 && !first_word && is_macro(&text[i..j]))
                || (depth > 0 && (is_call(i, j) || shapes_clause(i, j)))
        };
        // A first pass: is any top-level word (after `acc`) a macro?
        let mut depth = 0i32;
        let mut i = 0;
        let mut any = false;
        let mut first_word = true;
        while i < bytes.len() {
            let b = bytes[i];
            if b == b'(' {
                depth += 1;
            } else if b == b')' {
                depth -= 1;
            } else if (b.is_ascii_alphabetic() || b == b'_')
                && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric())
            {
                let j = word_at(i);
                if replaced(depth, first_word, i, j) {
                    any = true;
                    break;
                }
                first_word = false;
                i = j;
                continue;
            }
            i += 1;
        }
        if !any {
            return None;
        }
        let mut out = String::with_capacity(text.len() + 32);
        let mut map: Vec<usize> = Vec::with_capacity(text.len() + 33);
        let mut depth = 0i32;
        let mut i = 0;
        let mut first_word = true;
        while i < bytes.len() {
            let b = bytes[i];
            let starts_word = (b.is_ascii_alphabetic() || b == b'_')
                && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric());
            if starts_word {
                let j = word_at(i);
                let word = &text[i..j];
                if replaced(depth, first_word, i, j) {
                    let (replacement, end) = self.expand_word(text, i, j, 0);
                    let len = (end - i).max(1);
                    for (k, _) in replacement.bytes().enumerate() {
                        map.push(i + k.min(len - 1));
                    }
                    out.push_str(&replacement);
                    i = end;
                    continue;
                }
                first_word = false;
                out.push_str(word);
                map.extend(i..j);
                i = j;
                continue;
            }
            if b == b'(' {
                depth += 1;
            } else if b == b')' {
                depth -= 1;
            }
            let ch_len = text[i..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&text[i..i + ch_len]);
            map.extend(i..i + ch_len);
            i += ch_len;
        }
        map.push(text.len());
        Some((out, map))
    }

    /// The replacement of the macro named by `text[i..j]`, its top-level words expanded in
    /// turn (a few levels deep), and where the macro's use ends (after a function-like
    /// macro's arguments).
    pub(super) fn expand_word(
        &self,
        text: &str,
        i: usize,
        j: usize,
        depth: usize,
    ) -> (String, usize) {
        let word = &text[i..j];
        let (body, end) = if let Some((params, body)) = self.env.function_macros.get(word) {
            let rest = &text[j..];
            let open = rest.len() - rest.trim_start().len();
            if !rest[open..].starts_with('(') {
                return (word.to_string(), j);
            }
            let mut level = 0i32;
            let mut close = None;
            for (k, c) in rest[open..].char_indices() {
                match c {
                    '(' => level += 1,
                    ')' => {
                        level -= 1;
                        if level == 0 {
                            close = Some(j + open + k);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let Some(close) = close else {
                return (word.to_string(), j);
            };
            let args = split_macro_args(&text[j + open + 1..close]);
            if args.len() != params.len() {
                return (word.to_string(), j);
            }
            (substitute(body, params, &args), close + 1)
        } else if let Some(value) = self.env.constants.get(word) {
            (value.clone(), j)
        } else {
            return (word.to_string(), j);
        };
        if depth >= 8 {
            return (body, end);
        }
        // Words of the replacement that are macros too, outside its parentheses.
        let mut out = String::with_capacity(body.len());
        let b = body.as_bytes();
        let (mut k, mut level) = (0, 0i32);
        while k < b.len() {
            let c = b[k];
            if (c.is_ascii_alphabetic() || c == b'_')
                && (k == 0 || !b[k - 1].is_ascii_alphanumeric())
            {
                let mut e = k;
                while e < b.len() && (b[e].is_ascii_alphanumeric() || b[e] == b'_') {
                    e += 1;
                }
                let w = &body[k..e];
                if level == 0
                    && w != word
                    && (self.env.constants.contains_key(w)
                        || self.env.function_macros.contains_key(w))
                {
                    let (r, stop) = self.expand_word(&body, k, e, depth + 1);
                    out.push_str(&r);
                    k = stop;
                } else {
                    out.push_str(w);
                    k = e;
                }
                continue;
            }
            if c == b'(' {
                level += 1;
            } else if c == b')' {
                level -= 1;
            }
            let n = body[k..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&body[k..k + n]);
            k += n;
        }
        (out, end)
    }
}

/// A macro call's arguments: its text split at the commas outside parentheses and brackets.
pub(super) fn split_macro_args(text: &str) -> Vec<&str> {
    let mut args = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                args.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    args.push(text[start..].trim());
    args
}

/// A function-like macro's replacement with its parameters replaced by the arguments, word
/// by word (no `#` or `##`, which declarators do not use).
pub(super) fn substitute(body: &str, params: &[String], args: &[&str]) -> String {
    let mut out = String::with_capacity(body.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        match params.iter().position(|p| p == word) {
            Some(k) => out.push_str(args[k]),
            None => out.push_str(word),
        }
        word.clear();
    };
    for c in body.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Whether a macro's replacement reads as one value where a clause's list has an item or an
/// expression: a name, a number, an expression of them; not empty, not an operator alone, and
/// nothing that builds a list or a section (`,` outside parentheses, `[`, `]`, `:`).
fn is_value_like(replacement: &str) -> bool {
    let r = replacement.trim();
    let mut depth = 0i32;
    let mut top_level_comma = false;
    for c in r.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => top_level_comma = true,
            _ => {}
        }
    }
    r.chars().any(|c| c.is_ascii_alphanumeric()) && !top_level_comma && !r.contains(['[', ']', ':'])
}

/// Whether `before` (a directive's text up to a word) ends with `reduction(`: the word is the
/// clause's operator.
fn is_reduction_operator_position(before: &str) -> bool {
    before
        .trim_end()
        .strip_suffix('(')
        .is_some_and(|b| b.trim_end().ends_with("reduction"))
}

#[cfg(test)]
mod tests {
    /// The directives the walk reads (by line) and the dead arms it knows, for `src`.
    fn read(src: &str) -> (Vec<usize>, usize) {
        let a = crate::analyze_for(src, Default::default(), None);
        let lines = a
            .unit
            .constructs
            .iter()
            .map(|c| src[..c.pragma_span.start].lines().count() + 1)
            .collect();
        (lines, a.unit.dead_branches.len())
    }

    #[test]
    fn a_macro_the_file_defines_is_known_where_the_file_has_defined_it() {
        // A default (`#ifndef N` / `#define N`): defined after it either way, with its value.
        let default = "#ifndef N\n#define N 64\n#endif\nvoid f(double *a) {\n\
                       #if N > 32\n#pragma acc parallel loop\n#else\n#pragma acc serial loop\n#endif\n\
                       for (int i = 0; i < 8; i++) a[i] = 0;\n}\n";
        assert_eq!(read(default), (vec![6], 1));
        // Defined only in an arm acc cannot decide: unknown after it, both arms read.
        let unknown = "#ifdef FEATURE\n#define FAST\n#endif\nvoid f(double *a) {\n\
                       #ifdef FAST\n#pragma acc parallel loop\n#else\n#pragma acc serial loop\n#endif\n\
                       for (int i = 0; i < 8; i++) a[i] = 0;\n}\n";
        assert_eq!(read(unknown).1, 0);
        // Defined after the test: the file's final macros do not say what holds here.
        let later = "void f(double *a) {\n#ifdef LATE\n#pragma acc parallel loop\n#else\n\
                     #pragma acc serial loop\n#endif\nfor (int i = 0; i < 8; i++) a[i] = 0;\n}\n\
                     #define LATE 1\n";
        assert_eq!(read(later).1, 0);
        // Undefined before the test: not defined there, whatever comes later.
        let undone = "#define X 1\n#undef X\nvoid f(double *a) {\n#ifdef X\n#pragma acc serial loop\n\
                      #else\n#pragma acc parallel loop\n#endif\nfor (int i = 0; i < 8; i++) a[i] = 0;\n}\n";
        assert_eq!(read(undone), (vec![7], 1));
    }
}
