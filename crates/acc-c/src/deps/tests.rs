//! The dependence facts of small `kernels` loops: subscripts, reductions, iteration locals.

use super::*;

/// The analysis of `src` and the dependence facts of its `kernels` construct's first
/// plain loop.
fn plain_loop_deps(src: &str) -> (crate::Analysis, DepFacts) {
    let a = crate::analyze_for(src, crate::types::TypeEnv::default(), None);
    let deps = a
        .unit
        .constructs
        .iter()
        .find(|c| !c.plain_loops.is_empty())
        .and_then(|c| c.plain_loops[0].1.deps.clone())
        .expect("a kernels construct with a plain loop and its dependence facts");
    (a, deps)
}

/// The reductions the dependence facts of the one `kernels` loop of `body` (declarations
/// first) find: variable names with operator symbols.
fn reductions_of(decls: &str, body: &str) -> Vec<String> {
    let src = format!(
        "#include <math.h>\nvoid f(double *restrict a, int *restrict k, double *restrict b) {{\n{decls}\n#pragma acc kernels\nfor (int i = 0; i < 100; i++) {{ {body} }}\n}}\n"
    );
    let (a, deps) = plain_loop_deps(&src);
    deps.reductions
        .iter()
        .map(|(v, op)| format!("{}:{}", op.symbol(), a.unit.var(*v).name))
        .collect()
}

/// The subscripts the one `kernels` loop of `body` (over `i`, with `j` and `n` from
/// outside) writes `a` through.
fn written_subscripts(body: &str) -> Vec<Subscript> {
    let src = format!(
        "void f(double *restrict a, double *restrict b, int j, int n) {{\n#pragma acc kernels\nfor (int i = 0; i < 100; i++) {{ {body} }}\n}}\n"
    );
    let (_, deps) = plain_loop_deps(&src);
    deps.accesses
        .iter()
        .filter(|x| x.write)
        .flat_map(|x| x.subscripts.iter().map(|s| s.1))
        .collect()
}

/// A linear index a local of the body holds (`const int ix = n * j + i; a[ix] = …`, the
/// stencil codes' style) steps as its initializer does; one the body assigns again, or
/// whose initializer varies otherwise, stays unknown.
#[test]
fn a_local_index_steps_as_its_initializer() {
    use Subscript::*;
    for (body, want) in [
        ("const int ix = n * j + i; a[ix] = b[ix];", Affine(1)),
        ("int r = n * j; int ix = r + 2 * i; a[ix] = 1;", Affine(2)),
        ("int ix = n * j; a[ix] = i;", Invariant),
        ("int ix = i; ix += 1; a[ix] = 1;", Unknown),
        ("int ix = (int)b[i]; a[ix] = 1;", Unknown),
        (
            "for (int m = 0; m < 2; m++) { int ix = i + m; a[ix] = 1; }",
            Unknown,
        ),
    ] {
        assert_eq!(written_subscripts(body), vec![want], "{body}");
    }
}

/// The scalars the one `kernels` loop of `body` makes each iteration's own, with `before`
/// and `after` the function's code around the construct.
fn iteration_locals_of(before: &str, body: &str, after: &str) -> Vec<String> {
    let src = format!(
        "void g(double *);\nvoid f(double *restrict a, double *restrict b) {{\ndouble t, u; int k;\n{before}\n#pragma acc kernels\nfor (int i = 0; i < 100; i++) {{ {body} }}\n{after}\n}}\n"
    );
    let (a, deps) = plain_loop_deps(&src);
    deps.iteration_locals
        .iter()
        .map(|&v| a.unit.var(v).name.clone())
        .collect()
}

/// A scalar from outside that each pass assigns before reading, and that nothing reads
/// after the loop, is each iteration's own; read first, read after (also by the next pass
/// of a loop around), or reachable through its address, it is the shared one.
#[test]
fn scalars_each_pass_assigns_first_are_its_own() {
    let own = |before: &str, body: &str, after: &str| iteration_locals_of(before, body, after);
    let temp = "t = a[i] * 2; b[i] = t + 1;";
    assert_eq!(own("", temp, ""), ["t"]);
    assert_eq!(own("", temp, "t = 0; b[0] = t;"), ["t"]);
    assert_eq!(
        own("", "for (k = 0; k < 4; k++) { t = a[k]; b[i] += t; }", ""),
        ["t", "k"]
    );
    assert!(own("", temp, "b[0] = t;").is_empty());
    assert!(own("", "b[i] = t; t = a[i];", "").is_empty());
    // The header reads it: each pass's condition sees the body's value.
    let (_, deps) = plain_loop_deps(
        "void f(double *restrict b) {\n  int i, n = 100;\n#pragma acc kernels\n  for (i = 0; i < n; i++) { n = 50; b[i] = n; }\n}\n",
    );
    assert!(deps.iteration_locals.is_empty());
    assert!(own("", "if (a[i] > 0) t = a[i]; b[i] = t;", "").is_empty());
    assert!(own("g(&t);", temp, "").is_empty());
    assert!(own("for (k = 0; k < 9; k++) { b[k] = t;", temp, "}").is_empty());
    // A block after the loop whose only mention is a loop assigning it first, then a read.
    assert!(own(
        "",
        temp,
        "{ for (k = 0; k < 2; k++) { t = 1; b[k] = t; } } b[5] = t;"
    )
    .is_empty());
    assert_eq!(
        own(
            "",
            temp,
            "{ for (k = 0; k < 2; k++) { u = 1; t = u; b[k] = t; } }"
        ),
        ["t"]
    );
}

/// An array the loop's body declares is each pass's own (C 6.2.4): writing it is no
/// dependence, and the `kernels` loop runs on the gangs; one declared before the loop and
/// written at a fixed element is still shared.
#[test]
fn arrays_the_body_declares_are_each_pass_own() {
    let info = |decl: &str, body: &str| {
        let src = format!(
            "void f(double *restrict o) {{\n{decl}\n#pragma acc kernels copyout(o[0:100])\nfor (int i = 0; i < 100; i++) {{ {body} }}\n}}\n"
        );
        let (lowered, diags) = crate::lower::lower_test_file(&src);
        let lowered = lowered.unwrap_or_else(|| panic!("{diags:?}"));
        lowered.info.join("\n")
    };
    let body = "for (int j = 0; j < 4; j++) t[j] = i + j; o[i] = t[3] - t[0];";
    let local = info("", &format!("double t[4]; {body}"));
    assert!(
        local.contains("loop: gang (independent by the dependence test)"),
        "{local}"
    );
    let shared = info("double t[4];", body);
    assert!(shared.contains("loop: sequential"), "{shared}");
}

/// A `kernels` gang loop whose `private(t)` array its iterations write is as independent as
/// one that declares `t` (the clause gives each iteration its own).
#[test]
fn private_arrays_are_each_iterations_own() {
    let src = |clauses: &str| {
        format!(
            "void f(double *restrict o) {{
double t[4];
#pragma acc kernels copyout(o[0:100])
{{
#pragma acc loop gang {clauses}
for (int i = 0; i < 100; i++) {{ for (int j = 0; j < 4; j++) t[j] = i + j; o[i] = t[3] - t[0]; }}
}}
}}
"
        )
    };
    let info = |clauses: &str| {
        let (lowered, diags) = crate::lower::lower_test_file(&src(clauses));
        let lowered = lowered.unwrap_or_else(|| panic!("{diags:?}"));
        lowered.info.join("\n")
    };
    let private = info("private(t)");
    assert!(private.ends_with("loop: gang"), "{private}");
    let shared = info("");
    assert!(
        shared.contains("loop: sequential (not parallelized: `t`"),
        "{shared}"
    );
}

/// Every store that is no subscript, with whether it writes the variable's own storage:
/// `s.x` does, `*p` and `q->x` do not, `a[1].x` cannot be told without the element's type.
#[test]
fn stores_say_whether_they_go_through_a_pointer() {
    let src = "struct P { double x; };\nvoid f(double *p, struct P *q, struct P *a) {\n#pragma acc kernels\nfor (int i = 0; i < 100; i++) { struct P s; double t; s.x = i; t = s.x; *p = t; q->x = t; (*q).x = t; a[1].x = t; }\n}\n";
    let (a, deps) = plain_loop_deps(src);
    let stores: Vec<String> = deps
        .stores
        .iter()
        .map(|s| format!("{}:{:?}", a.unit.var(s.var).name, s.through_pointer))
        .collect();
    assert_eq!(
        stores,
        [
            "s:Some(false)",
            "t:Some(false)",
            "p:Some(true)",
            "q:Some(true)",
            "q:Some(true)",
            "a:None"
        ]
    );
}

#[test]
fn statements_of_one_reduction_operator_are_reductions() {
    let d = "double s = 0, m = 0; float fm = 0; int n = 0; unsigned u = 0; long p = 1;";
    for (body, want) in [
        ("s += a[i];", "+:s"),
        ("s -= a[i] * 2;", "+:s"),
        ("s = s + a[i];", "+:s"),
        ("s = (a[i] + s);", "+:s"),
        ("s = s - a[i];", "+:s"),
        ("s *= a[i];", "*:s"),
        ("m = fmax(m, fabs(a[i]));", "max:m"),
        ("fm = fminf(a[i], fm);", "min:fm"),
        ("if (a[i] > 0) n++;", "+:n"),
        ("--n;", "+:n"),
        ("n += k[i] * 2 + 1;", "+:n"),
        ("n += (a[i] > 0.5);", "+:n"),
        ("u |= k[i];", "|:u"),
        ("u ^= 1u << (i % 8);", "^:u"),
        ("p *= k[i]; p = p * 2;", "*:p"),
        ("if (a[i] > m) m = a[i];", "max:m"),
        ("if (m > a[i]) { m = a[i]; }", "min:m"),
        ("if (k[i] < n) n = k[i];", "min:n"),
        ("m = a[i] > m ? a[i] : m;", "max:m"),
        ("m = (m <= a[i]) ? m : a[i];", "min:m"),
        ("n = n > k[i] ? n : k[i];", "max:n"),
    ] {
        assert_eq!(reductions_of(d, body), vec![want.to_string()], "{body}");
    }
}

#[test]
fn other_uses_of_the_variable_are_no_reductions() {
    let d = "double s = 0; int n = 0; struct { double t; } st; _Bool any = 0; double *q = 0;";
    for body in [
        "s = a[i] - s;",
        "b[i] = s; s += a[i];",
        "s += a[i]; s *= 2;",
        "s += a[i] + s;",
        "b[i] = (s += a[i]);",
        "s = s / a[i];",
        "n += a[i];",
        "n += k[i] * 0.5;",
        "n = fmax(n, k[i]);",
        "st.t += a[i];",
        "any = any || a[i] > 0;",
        "q++;",
        "s += a[i]; if (s > 10) b[i] = 1;",
        "if (a[i] > s) s = a[i]; else b[i] = 0;",
        "if (a[i] > s) s = b[i];",
        "if (a[i] > s) { s = a[i]; b[i] = 1; }",
        "s = a[i] > s ? b[i] : s;",
        "s = a[i] > 0 ? a[i] : s;",
    ] {
        assert_eq!(reductions_of(d, body), Vec::<String>::new(), "{body}");
    }
}

fn macros(defs: &[(&str, Option<&[&str]>, &str)]) -> Macros {
    defs.iter()
        .map(|(n, ps, b)| {
            let def = crate::macro_expand::MacroDef {
                params: ps.map(|ps| ps.iter().map(|p| p.to_string()).collect()),
                variadic: false,
                named_variadic: false,
                body: b.to_string(),
            };
            (n.to_string(), def)
        })
        .collect()
}

#[test]
fn a_macro_that_only_computes_is_no_call_of_unknown_effect() {
    let m = macros(&[
        ("AT", Some(&["i", "j"]), "((i) * n + (j))"),
        ("SQ", Some(&["x"]), "((x) * (x))"),
        ("DIST", Some(&["a", "b"]), "sqrt(SQ(a) + SQ(b))"),
        ("SIZE", Some(&["t"]), "(sizeof (t) * 2)"),
        (
            "CMP",
            Some(&["a", "b"]),
            "((a) <= (b) && (a) != (b) && (a) >= 0 && (b) == 1)",
        ),
        ("BUMP", Some(&["x"]), "((x)++)"),
        ("SET", Some(&["x"]), "((x) = 0)"),
        ("ADD", Some(&["x"]), "((x) += 2)"),
        ("LOG", Some(&["x"]), "printf(\"%d\\n\", x)"),
        ("APPLY", Some(&["f", "x"]), "f(x)"),
        ("LOOP", Some(&["x"]), "LOOP(x)"),
        ("fabsr", None, "fabsf"),
        ("norm", None, "DIST"),
        ("say", None, "printf"),
        ("N", None, "100"),
    ]);
    for pure in ["AT", "SQ", "DIST", "SIZE", "CMP", "fabsr", "norm"] {
        assert!(pure_macro(pure, &m, 0), "{pure}");
    }
    for effect in [
        "BUMP",
        "SET",
        "ADD",
        "LOG",
        "APPLY",
        "LOOP",
        "UNDEFINED",
        "say",
        "N",
    ] {
        assert!(!pure_macro(effect, &m, 0), "{effect}");
    }
}
