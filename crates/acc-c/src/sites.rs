//! The table of a file's constructs that profiling events report (`acc_rt_register_sites` in
//! `acc_rt.h`): each construct's first and last line, its kind (`acc_construct_t`) and the
//! function around it, registered with the runtime as the program starts. Generated calls
//! pass only a file and a line; the runtime looks the rest up here, and only while a profiling
//! library listens, so calls stay as small as they are.
//!
//! Reads the unit's facts; must not touch the lowering's edits.

use std::fmt::Write;

use acc_engine::directive::DirectiveKind;
use acc_engine::facts::Unit;

use crate::line_map::LineMap;

/// `acc_construct_t` of a directive, or `None` for those that make no runtime calls of their
/// own (a loop, an atomic, a routine, a cache directive).
fn construct_code(kind: DirectiveKind) -> Option<i32> {
    use DirectiveKind::*;
    Some(match kind {
        Parallel | ParallelLoop => 0,
        Kernels | KernelsLoop => 1,
        Data => 3,
        EnterData => 4,
        ExitData => 5,
        HostData => 6,
        Declare => 8,
        Init => 9,
        Shutdown => 10,
        Set => 11,
        Update => 12,
        Wait => 14,
        Serial | SerialLoop => 16,
        Loop | Atomic | Routine | Cache => return None,
    })
}

/// The C text of the tables and of the constructor that registers them: one table for each
/// file the constructs stand in (the file's own, and those its `#line` directives name: a
/// header `acc cc` inlined), named as the generated calls name it; empty when there is no
/// construct.
pub fn table(unit: &Unit, lines: &LineMap) -> String {
    // The rows of each file, in the order the files first appear.
    let mut files: Vec<(&str, Vec<String>)> = Vec::new();
    for c in &unit.constructs {
        let Some(code) = construct_code(c.directive.kind) else {
            continue;
        };
        let end = c
            .body
            .map_or(c.pragma_span.end, |b| b.end.saturating_sub(1));
        let place = lines.place(c.pragma_span.start);
        let last = lines.line(end.max(c.pragma_span.start));
        let (func, func_lines) = match unit.enclosing_function(c.pragma_span) {
            Some((name, span)) => (
                format!("\"{name}\""),
                (
                    lines.line(span.start),
                    lines.line(span.end.saturating_sub(1)),
                ),
            ),
            None => ("0".to_string(), (0, 0)),
        };
        let row = format!(
            "  {{{}, {last}, {code}, {func}, {}, {}}},",
            place.line, func_lines.0, func_lines.1
        );
        match files.iter_mut().find(|(f, _)| *f == place.file) {
            Some((_, rows)) => rows.push(row),
            None => files.push((place.file, vec![row])),
        }
    }
    if files.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "/* Where each construct is, for profiling events (acc_prof.h): lines, kind, function. */\n",
    );
    let mut register = String::new();
    for (i, (file, rows)) in files.iter().enumerate() {
        let name = if i == 0 {
            "__acc_sites".to_string()
        } else {
            format!("__acc_sites{i}")
        };
        let _ = writeln!(out, "static const acc_rt_site {name}[] = {{");
        for row in rows {
            let _ = writeln!(out, "{row}");
        }
        out.push_str("};\n");
        let _ = write!(
            register,
            "\n  acc_rt_register_sites({}, {name}, {});",
            crate::lower::c_string(file),
            rows.len()
        );
    }
    let _ = write!(
        out,
        "__attribute__((constructor)) static void __acc_register_sites(void) {{{register}\n}}\n"
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_names_lines_kinds_and_functions() {
        let src = "int main(void) {\n  int a[4];\n  #pragma acc data copy(a)\n  {\n    #pragma acc parallel loop\n    for (int i = 0; i < 4; i++) a[i] = i;\n  }\n  #pragma acc update self(a)\n  return 0;\n}\n";
        let a = crate::analyze_for(src, Default::default(), None);
        let t = table(&a.unit, &LineMap::new(src, "t.c"));
        assert!(t.contains("{3, 7, 3, \"main\", 1, 10},"), "{t}");
        assert!(t.contains("{5, 6, 0, \"main\", 1, 10},"), "{t}");
        assert!(t.contains("{8, 8, 12, \"main\", 1, 10},"), "{t}");
        assert!(
            t.contains("acc_rt_register_sites(\"t.c\", __acc_sites, 3);"),
            "{t}"
        );
    }

    /// Constructs after a `#line` naming another file (a header `acc cc` inlined) go into
    /// that file's table, with its lines.
    #[test]
    fn each_file_of_the_text_has_its_table() {
        let src = "#line 1 \"h.h\"\nstatic void f(int *a) {\n#pragma acc parallel loop copy(a[0:4])\n  for (int i = 0; i < 4; i++) a[i] = i;\n}\n#line 2 \"t.c\"\nint main(void) {\n  int a[4];\n#pragma acc update self(a)\n  return 0;\n}\n";
        let a = crate::analyze_for(src, Default::default(), None);
        let t = table(&a.unit, &LineMap::new(src, "t.c"));
        assert!(
            t.contains("static const acc_rt_site __acc_sites[] = {\n  {2, 3, 0, \"f\", 1, 4},\n};"),
            "{t}"
        );
        assert!(
            t.contains(
                "static const acc_rt_site __acc_sites1[] = {\n  {4, 4, 12, \"main\", 2, 6},\n};"
            ),
            "{t}"
        );
        assert!(
            t.contains("acc_rt_register_sites(\"h.h\", __acc_sites, 1);"),
            "{t}"
        );
        assert!(
            t.contains("acc_rt_register_sites(\"t.c\", __acc_sites1, 1);"),
            "{t}"
        );
    }
}
