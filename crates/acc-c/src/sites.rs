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

/// The 1-based line of each offset (sorted or not), in one pass over `src`.
fn lines_of(src: &str, offsets: &[usize]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..offsets.len()).collect();
    order.sort_by_key(|&i| offsets[i]);
    let mut lines = vec![0; offsets.len()];
    let (mut at, mut line) = (0, 1);
    let bytes = src.as_bytes();
    for i in order {
        let to = offsets[i].min(bytes.len());
        line += bytes[at..to].iter().filter(|&&b| b == b'\n').count();
        at = to;
        lines[i] = line;
    }
    lines
}

/// The C text of the table and of the constructor that registers it, for the file whose
/// generated calls name it `file` (a C string literal); empty when there is no construct.
pub fn table(unit: &Unit, src: &str, file: &str) -> String {
    let mut rows = Vec::new();
    let mut offsets = Vec::new();
    for c in &unit.constructs {
        let Some(code) = construct_code(c.directive.kind) else {
            continue;
        };
        let end = c
            .body
            .map_or(c.pragma_span.end, |b| b.end.saturating_sub(1));
        let func = unit.enclosing_function(c.pragma_span);
        offsets.extend([c.pragma_span.start, end.max(c.pragma_span.start)]);
        match func {
            Some((_, span)) => offsets.extend([span.start, span.end.saturating_sub(1)]),
            None => offsets.extend([0, 0]),
        }
        rows.push((code, func.map(|f| f.0.as_str())));
    }
    if rows.is_empty() {
        return String::new();
    }
    let lines = lines_of(src, &offsets);
    let mut out = String::from(
        "/* Where each construct is, for profiling events (acc_prof.h): lines, kind, function. */\n\
         static const acc_rt_site __acc_sites[] = {\n",
    );
    for (k, (code, func)) in rows.iter().enumerate() {
        let l = &lines[4 * k..4 * k + 4];
        let (func, func_lines) = match func {
            Some(name) => (format!("\"{name}\""), (l[2], l[3])),
            None => ("0".to_string(), (0, 0)),
        };
        let _ = writeln!(
            out,
            "  {{{}, {}, {code}, {func}, {}, {}}},",
            l[0], l[1], func_lines.0, func_lines.1
        );
    }
    let _ = write!(
        out,
        "}};\n__attribute__((constructor)) static void __acc_register_sites(void) {{\n  \
         acc_rt_register_sites({file}, __acc_sites, {});\n}}\n",
        rows.len()
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_come_from_one_pass_in_any_order() {
        let src = "a\nb\n\nc\n";
        assert_eq!(lines_of(src, &[6, 0, 2, 4]), vec![4, 1, 2, 3]);
    }

    #[test]
    fn the_table_names_lines_kinds_and_functions() {
        let src = "int main(void) {\n  int a[4];\n  #pragma acc data copy(a)\n  {\n    #pragma acc parallel loop\n    for (int i = 0; i < 4; i++) a[i] = i;\n  }\n  #pragma acc update self(a)\n  return 0;\n}\n";
        let a = crate::analyze_for(src, Default::default(), None);
        let t = table(&a.unit, src, "\"t.c\"");
        assert!(t.contains("{3, 7, 3, \"main\", 1, 10},"), "{t}");
        assert!(t.contains("{5, 6, 0, \"main\", 1, 10},"), "{t}");
        assert!(t.contains("{8, 8, 12, \"main\", 1, 10},"), "{t}");
        assert!(
            t.contains("acc_rt_register_sites(\"t.c\", __acc_sites, 3);"),
            "{t}"
        );
    }
}
