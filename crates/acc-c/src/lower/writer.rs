//! A small C writer: lines at a depth of two spaces a level, blocks that open with a head and
//! close with a brace, comments, `#line` markers (always at column 0), and text laid out
//! elsewhere (the user's statements, declarations already a line each) placed as it is. The
//! code generated at file scope is shaped through it, one way everywhere: the kernel
//! functions and their declarations, custom reductions' functions, the host file's assembly
//! and the two units of `crate::split`. What the lowering writes inside the user's lines (a
//! launch replacing a directive, a gang loop's header) stays on the user's line structure,
//! through `edit`.
//!
//! It knows nothing of OpenACC, the tree or the runtime: only how C text is laid out. It must
//! reproduce the lowering's output byte for byte (the snapshot tests pin it), so it does not
//! reformat what it is given. No crate fits: `genco` and `codegen` are built for Rust and C++
//! and format in their own way, which would change every generated file.

use std::fmt::Write as _;

/// C text being written; [`CWriter::finish`] gives it back.
#[derive(Debug, Default)]
pub(crate) struct CWriter {
    out: String,
    depth: usize,
}

impl CWriter {
    pub(crate) fn new() -> CWriter {
        CWriter::default()
    }

    /// A writer whose lines start `depth` levels in (declarations inside a function).
    pub(crate) fn at(depth: usize) -> CWriter {
        CWriter {
            out: String::new(),
            depth,
        }
    }

    fn indent(&mut self) {
        for _ in 0..self.depth {
            self.out.push_str("  ");
        }
    }

    /// One line at the current depth.
    pub(crate) fn line(&mut self, text: &str) -> &mut CWriter {
        self.indent();
        self.out.push_str(text);
        self.out.push('\n');
        self
    }

    /// An empty line.
    pub(crate) fn blank(&mut self) -> &mut CWriter {
        self.out.push('\n');
        self
    }

    /// `/* text */` on a line of its own.
    pub(crate) fn comment(&mut self, text: &str) -> &mut CWriter {
        self.line(&format!("/* {text} */"))
    }

    /// `head {`, then the lines inside one level deeper until [`CWriter::close`].
    pub(crate) fn open(&mut self, head: &str) -> &mut CWriter {
        self.line(&format!("{head} {{"));
        self.depth += 1;
        self
    }

    /// The `}` that ends the innermost [`CWriter::open`].
    pub(crate) fn close(&mut self) -> &mut CWriter {
        self.depth = self.depth.saturating_sub(1);
        self.line("}")
    }

    /// `#line N FILE` (`file` a C string literal): what follows is line `line` of the
    /// user's file.
    pub(crate) fn line_marker(&mut self, line: usize, file: &str) -> &mut CWriter {
        let _ = writeln!(self.out, "#line {line} {file}");
        self
    }

    /// A GCC line marker `# N FILE 3`: what follows is line `line` of `file` (a C string
    /// literal), a system header's, whose warnings the compiler does not show.
    pub(crate) fn line_marker_system(&mut self, line: usize, file: &str) -> &mut CWriter {
        let _ = writeln!(self.out, "# {line} {file} 3");
        self
    }

    /// A GCC line marker `# N FILE` without flags: what follows is line `line` of `file`,
    /// out of the system header a [`CWriter::line_marker_system`] began.
    pub(crate) fn line_marker_flagless(&mut self, line: usize, file: &str) -> &mut CWriter {
        let _ = writeln!(self.out, "# {line} {file}");
        self
    }

    /// A preprocessor line (`#ifdef …`), at column 0.
    pub(crate) fn directive(&mut self, text: &str) -> &mut CWriter {
        self.out.push_str(text);
        self.out.push('\n');
        self
    }

    /// Text laid out elsewhere (whole lines, or the user's statement), as it is.
    pub(crate) fn text(&mut self, text: &str) -> &mut CWriter {
        self.out.push_str(text);
        self
    }

    /// Ends the current line of [`CWriter::text`].
    pub(crate) fn end_line(&mut self) -> &mut CWriter {
        self.out.push('\n');
        self
    }

    /// What is written so far.
    pub(crate) fn as_str(&self) -> &str {
        &self.out
    }

    pub(crate) fn finish(self) -> String {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::CWriter;

    #[test]
    fn blocks_indent_and_markers_do_not() {
        let mut w = CWriter::new();
        w.comment("k")
            .open("static void f(void)")
            .line("int x = 0;")
            .line_marker(3, "\"a.c\"")
            .text("x++;")
            .end_line()
            .close();
        assert_eq!(
            w.finish(),
            "/* k */\nstatic void f(void) {\n  int x = 0;\n#line 3 \"a.c\"\nx++;\n}\n"
        );
        let mut d = CWriter::at(1);
        d.line("int y;").directive("#endif");
        assert_eq!(d.finish(), "  int y;\n#endif\n");
    }
}
