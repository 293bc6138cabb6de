//! Tests of the directive walk: what `visit_pragma` and its checks accept, refuse and warn
//! about, on small functions analysed whole.

fn analysis(body: &str) -> crate::Analysis {
    let src = format!("void f(int n, double *a, double *b) {{\n{body}\n}}\n");
    crate::analyze_for(&src, Default::default(), None)
}

/// `collapse` with an argument that is no constant is an error at the argument (it was
/// taken as 1); a constant one through a macro is not.
#[test]
fn collapse_needs_a_constant() {
    let errors = |clause: &str| -> Vec<String> {
        analysis(&format!(
            "#define TWO 2\nint k = n;\n#pragma acc parallel loop {clause} copy(a[0:n])\nfor (int i = 0; i < n; i++) for (int j = 0; j < n; j++) a[i] += j;"
        ))
        .diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.message.clone())
        .collect()
    };
    assert!(errors("collapse(TWO)").is_empty());
    assert!(errors("collapse(2)").is_empty());
    for bad in ["collapse(k)", "collapse(99999999999999999999)"] {
        let e = errors(bad);
        assert!(
            e.iter()
                .any(|m| m.contains("`collapse` needs a constant positive integer")),
            "{bad}: {e:?}"
        );
    }
}

/// `#pragma ACC` (upper case) is no OpenACC directive: warned at the sentinel.
#[test]
fn an_upper_case_sentinel_is_warned_about() {
    let an =
        analysis("#pragma ACC parallel loop copy(a[0:n])\nfor (int i = 0; i < n; i++) a[i] = i;");
    assert!(
        an.diags
            .iter()
            .any(|d| d.message.contains("`#pragma ACC` is no OpenACC directive")),
        "{:?}",
        an.diags
    );
}

/// Directives in the wrong place: an executable one outside a function, a declaration
/// under `atomic`.
#[test]
fn directives_refused_where_c_has_no_statement() {
    let file = |src: &str| -> Vec<String> {
        crate::analyze_for(src, Default::default(), None)
            .diags
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.message.clone())
            .collect()
    };
    for d in [
        "parallel",
        "update device(g)",
        "enter data copyin(g)",
        "wait",
    ] {
        let e = file(&format!(
            "int g;\n#pragma acc {d}\nint h;\nint main(void) {{ return g + h; }}\n"
        ));
        assert!(
            e.iter().any(|m| m.contains("must be inside a function")),
            "{d}: {e:?}"
        );
    }
    // Between a function's parameters and its body (an old PGI sample): said once, not with
    // the parameters it names as undeclared.
    let e = file(
        "void f(float *out, int n)\n#pragma acc kernels copyout(out[0:n])\n{\n  out[0] = n;\n}\n",
    );
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].contains("must be inside a function"), "{e:?}");
    assert!(file("int g;\n#pragma acc declare create(g)\n#pragma acc routine seq\nint f(void) { return 1; }\n").is_empty());
    let e = file(
        "double g[8], h[8];\n#pragma acc declare copy(g) create(h)\nint main(void) { return 0; }\n",
    );
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].contains("`copy` is not allowed on a `declare` outside a function"));
    let e = file("void f(double *a, double *s) {\n#pragma acc parallel loop copy(a[0:8], s[0:1])\nfor (int i = 0; i < 8; i++) {\n#pragma acc atomic\ndouble t = a[i];\ns[0] += t;\n}\n}\n");
    assert!(
        e.iter().any(|m| m.contains("a declaration is not one")),
        "{e:?}"
    );
}

/// A list item may name its variable through an object-like macro (OpenACC 3.3 2.1
/// replaces a directive's macros): `copy(ARR[0:n])` with `#define ARR buf`.
#[test]
fn list_items_through_object_like_macros() {
    let an = analysis(
        "#define ARR b\n#define SUM s\ndouble s = 0;\n#pragma acc parallel loop copy(ARR[0:n]) reduction(+:SUM)\nfor (int i = 0; i < n; i++) s += b[i];",
    );
    assert!(!an.diags.iter().any(|d| d.is_error()), "{:?}", an.diags);
    let c = an
        .unit
        .constructs
        .iter()
        .find(|c| c.directive.kind.is_compute())
        .expect("the construct");
    let names: Vec<&str> = c
        .clause_vars
        .iter()
        .flatten()
        .flatten()
        .map(|v| an.unit.var(*v).name.as_str())
        .collect();
    assert_eq!(names, ["b", "s"]);
}

/// Two operators for one variable on one loop are one error (the promotion to the compute
/// construct said it again, of a "sibling loop" there is none of); on sibling loops, the
/// promotion's error is the one.
#[test]
fn conflicting_reduction_operators_are_said_once() {
    let errors = |body: &str| -> Vec<String> {
        analysis(body)
            .diags
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.message.clone())
            .collect()
    };
    let one_loop = errors("double s = 0;\n#pragma acc parallel loop reduction(+:s) reduction(max:s) copyin(a[0:n])\nfor (int i = 0; i < n; i++) s += a[i];");
    assert_eq!(one_loop.len(), 1, "{one_loop:?}");
    assert!(one_loop[0].contains("appears in two reductions"));
    let siblings = errors("double s = 0;\n#pragma acc parallel copyin(a[0:n])\n{\n#pragma acc loop reduction(+:s)\nfor (int i = 0; i < n; i++) s += a[i];\n#pragma acc loop reduction(max:s)\nfor (int i = 0; i < n; i++) s = a[i];\n}");
    assert_eq!(siblings.len(), 1, "{siblings:?}");
    assert!(siblings[0].contains("conflicting reduction operators"));
}

/// A macro that expands to nothing in a directive (`#define EXTRA`, then `serial copy(v)
/// EXTRA`) is replaced by nothing, as the compiler replaces it (it was an unknown clause).
#[test]
fn empty_macros_in_directives_vanish() {
    let an = analysis("#define EXTRA\nint v = 0;\n#pragma acc serial copy(v) EXTRA\nv = 5;");
    assert!(!an.diags.iter().any(|d| d.is_error()), "{:?}", an.diags);
}

/// A section of a const pointer (`double *const c`) names writable elements: `create` and
/// `copyout` take it; of a pointer to const (`const double *c`) they do not.
#[test]
fn a_const_pointers_elements_are_writable() {
    let errors = |decl: &str| {
        analysis(&format!(
            "{decl}\n#pragma acc data create(c[0:n]) copyout(c2[0:n])\n{{ }}"
        ))
        .diags
        .iter()
        .filter(|d| d.is_error() && d.message.contains("is `const`"))
        .count()
    };
    assert_eq!(errors("double *const c = a, *const c2 = b;"), 0);
    assert_eq!(errors("const double *c = a, *c2 = b;"), 2);
    assert_eq!(
        errors("double const *const c = a; double *const c2 = b;"),
        1
    );
}

/// A section bound that is a floating constant, or a negative constant length, is an
/// error at it; integer bounds through macros and variables are not.
#[test]
fn section_bounds_are_integers_and_lengths_not_negative() {
    let errors = |item: &str| -> usize {
        analysis(&format!(
            "#define HALF 32\n#pragma acc parallel loop copyin({item}) copyout(b[0:n])\nfor (int i = 0; i < n; i++) b[i] = a[i];"
        ))
        .diags
        .iter()
        .filter(|d| d.is_error() && d.message.contains("subarray's"))
        .count()
    };
    assert_eq!(errors("a[0:2.5]"), 1);
    assert_eq!(errors("a[1e0:n]"), 1);
    assert_eq!(errors("a[8:-1]"), 1);
    assert_eq!(errors("a[0:HALF - 40]"), 1);
    for ok in ["a[0:n]", "a[HALF:HALF]", "a[0x1e:2]", "a[n - 1:1]"] {
        assert_eq!(errors(ok), 0, "{ok}");
    }
}

/// A bitwise reduction of a floating variable, or `max` of a complex one, is refused at
/// the item (OpenACC 3.3 2.5.15); of integers, and `+` of any type, is not.
#[test]
fn reduction_operators_fit_their_variables_types() {
    let refused = |decl: &str, clause: &str| {
        analysis(&format!(
            "{decl}\n#pragma acc parallel loop reduction({clause}) copyin(a[0:n])\nfor (int i = 0; i < n; i++) s = s;"
        ))
        .diags
        .iter()
        .any(|d| d.is_error() && d.message.contains("reduction needs"))
    };
    assert!(refused("double s = 1;", "&:s"));
    assert!(refused("float s = 0;", "^:s"));
    assert!(refused("double _Complex s = 0;", "max:s"));
    assert!(!refused("unsigned s = 0;", "|:s"));
    assert!(!refused("double s = 0;", "max:s"));
    assert!(!refused("double _Complex s = 0;", "+:s"));
}

#[test]
fn a_cache_directive_in_no_loop_of_its_region_is_warned() {
    let cached = |body: &str| {
        analysis(body)
            .diags
            .iter()
            .any(|d| d.message.contains("`acc cache` is in no loop"))
    };
    // At the top of a `kernels` block, even with a loop of the host around the region.
    assert!(cached("#pragma acc kernels copy(a[0:n])\n{\n#pragma acc cache(a[0:n])\nfor (int i = 0; i < n; i++) a[i] += 1;\n}"));
    assert!(cached("for (int t = 0; t < 3; t++) {\n#pragma acc kernels copy(a[0:n])\n{\n#pragma acc cache(a[0:n])\nfor (int i = 0; i < n; i++) a[i] += 1;\n}\n}"));
    // At the top of a loop's body.
    assert!(!cached("#pragma acc parallel loop copy(a[0:n])\nfor (int i = 0; i < n; i++) {\n#pragma acc cache(a[i:1])\na[i] += 1;\n}"));
}

#[test]
fn a_loop_whose_body_is_a_directive_is_one_statement_of_its_block() {
    let an = analysis(
        "#pragma acc kernels copy(a[0:n], b[0:n])\n{\n#pragma acc loop\nfor (int i = 0; i < n; i++)\n#pragma acc loop\nfor (int j = 0; j < n; j++) a[j] += i;\nfor (int i = 0; i < n; i++)\n  _Pragma(\"acc loop\")\n  for (int j = 0; j < n; j++) b[j] += i;\nb[0] = 1;\n}",
    );
    let k = an
        .unit
        .constructs
        .iter()
        .find(|c| c.directive.kind.is_compute())
        .unwrap();
    assert_eq!(k.statements.len(), 3);
    // The loop without a directive whose body `_Pragma` stands for is not taken as a plain
    // loop of the region: its node ends before its body.
    assert!(k.plain_loops.is_empty());
}

#[test]
fn a_constant_section_past_a_fixed_size_array_is_warned() {
    let past = |decl: &str, clause: &str| {
        let src = format!(
            "#define N 32\nvoid f(void) {{\n  {decl};\n#pragma acc data {clause}\n  {{ }}\n}}\n"
        );
        crate::analyze_for(&src, Default::default(), None)
            .diags
            .iter()
            .filter(|d| d.message.contains("past the"))
            .map(|d| d.message.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        past("float a[N][N]", "copyin(a[0:N*N])"),
        ["this section of `a` runs from element 0 to 1023, past the 32 elements its first dimension has (`N`): the transfer reaches memory the array does not have"]
    );
    assert_eq!(past("float a[N][N]", "copyin(a[2:4][30:3])").len(), 1);
    assert!(past("float a[N][N]", "copyin(a[0:N][0:N], a[N-1:1])").is_empty());
    // Bounds the front end cannot compute are left to the run time.
    assert!(past("float a[N][N]; int n = 40", "copyin(a[0:n])").is_empty());
}
