use crate::TypeEnv;

/// The directives of `src` as (kind, the text their pragma span covers), and its errors.
fn directives(src: &str, env: TypeEnv) -> (Vec<(String, String)>, Vec<String>) {
    let a = crate::analyze_for(src, env, None);
    let dirs = a
        .unit
        .constructs
        .iter()
        .map(|c| {
            (
                c.directive.kind.name().to_string(),
                src[c.pragma_span.start..c.pragma_span.end].to_string(),
            )
        })
        .collect();
    let errors = a
        .diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{}: {}", &src[d.span.start..d.span.end], d.message))
        .collect();
    (dirs, errors)
}

const IDIOM: &str = "#define STR(...) #__VA_ARGS__\n\
#ifdef _OPENACC\n#define ACC(...) _Pragma(STR(acc __VA_ARGS__))\n#else\n#define ACC(...)\n#endif\n";

#[test]
fn the_live_definition_applies_and_the_use_is_the_directive() {
    let src = format!(
        "{IDIOM}void f(int n, double *a) {{\n  ACC(parallel loop copy(a[0:n]))\n  for (int i = 0; i < n; i++) a[i] = i;\n}}\n"
    );
    let (dirs, errors) = directives(&src, TypeEnv::default());
    assert_eq!(errors, Vec::<String>::new());
    assert_eq!(
        dirs,
        vec![(
            "parallel loop".into(),
            "ACC(parallel loop copy(a[0:n]))".into()
        )]
    );
    // With the other branch live, the use expands to nothing.
    let src = src.replace("#ifdef _OPENACC", "#ifndef _OPENACC");
    assert_eq!(directives(&src, TypeEnv::default()).0, vec![]);
}

#[test]
fn the_definition_in_effect_where_the_macro_is_used_counts() {
    let src = "#define L _Pragma(\"acc loop\")\n\
void f(int n, double *a) {\n\
  #pragma acc parallel\n  {\n    L\n    for (int i = 0; i < n; i++) a[i] = i;\n  }\n\
#undef L\n#define L\n\
  L\n  for (int i = 0; i < n; i++) a[i] = i;\n}\n";
    let (dirs, errors) = directives(src, TypeEnv::default());
    assert_eq!(errors, Vec::<String>::new());
    assert_eq!(
        dirs,
        vec![
            ("parallel".into(), "#pragma acc parallel".into()),
            ("loop".into(), "L".into())
        ]
    );
}

#[test]
fn names_in_comments_strings_definitions_and_dead_branches_are_not_uses() {
    let src = format!(
        "{IDIOM}#define K ACC(kernels)\n#if 0\nACC(parallel)\n#endif\n\
void f(void) {{\n  /* ACC(parallel) */ const char *s = \"ACC(parallel)\"; // ACC(serial)\n  (void)s;\n}}\n"
    );
    let (dirs, errors) = directives(&src, TypeEnv::default());
    assert_eq!((dirs, errors), (vec![], vec![]));
}

#[test]
fn clause_spans_point_at_the_use_and_lines_stay_the_files() {
    // A use over two lines, then an error in the directive and one after it.
    let src = format!(
        "{IDIOM}void f(int n, double *a) {{\n  ACC(parallel loop /* é */\n      copyy(a[0:n]))\n  for (int i = 0; i < n; i++) a[i] = i;\n  #pragma acc update host(zz)\n}}\n"
    );
    let a = crate::analyze_for(&src, TypeEnv::default(), None);
    let errors: Vec<(&str, usize)> = a
        .diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            let line = src[..d.span.start].matches('\n').count() + 1;
            (&src[d.span.start..d.span.end], line)
        })
        .collect();
    let use_line = src.lines().position(|l| l.contains("copyy")).unwrap() + 1;
    let update_line = src.lines().position(|l| l.contains("zz")).unwrap() + 1;
    assert!(errors.contains(&("copyy", use_line)), "{errors:?}");
    assert!(
        errors
            .iter()
            .any(|(t, l)| t.contains("zz") && *l == update_line),
        "{errors:?}"
    );
}

#[test]
fn a_header_macro_applies_through_the_headers_facts() {
    let env = crate::preprocess::learn_text(
        "#define PRAGMA(x) _Pragma(#x)\n#define ACC(x) PRAGMA(acc x)\n",
    );
    let src = "void f(int n, double *a) {\n  ACC(kernels copy(a[0:n]))\n  for (int i = 0; i < n; i++) a[i] = i;\n}\n";
    let (dirs, errors) = directives(src, env);
    assert_eq!(errors, Vec::<String>::new());
    assert_eq!(
        dirs,
        vec![("kernels".into(), "ACC(kernels copy(a[0:n]))".into())]
    );
    // Without them, it is a call of an unknown function.
    assert_eq!(directives(src, TypeEnv::default()).0, vec![]);
}

#[test]
fn short_uses_and_uses_as_unbraced_bodies_apply_to_the_statement_after_them() {
    let src = "#define L _Pragma(\"acc loop\")\n#define P _Pragma(\"acc parallel\")\n\
void f(int n, double *a) {\nP\n{\nfor (int j = 0; j < n; j++)\nL\nfor (int i = 0; i < n; i++) a[i] = i;\n}\n}\n";
    let (dirs, errors) = directives(src, TypeEnv::default());
    assert_eq!(errors, Vec::<String>::new());
    assert_eq!(
        dirs,
        vec![("parallel".into(), "P".into()), ("loop".into(), "L".into())]
    );
    let a = crate::analyze_for(src, TypeEnv::default(), None);
    let body = a.unit.constructs[1].body.expect("the loop's statement");
    assert!(src[body.start..body.end].starts_with("for (int i = 0"));
}

#[test]
fn macros_that_give_other_pragmas_are_left_to_the_compiler() {
    let src = "#define DIAG(x) _Pragma(#x)\n#define PUSH _Pragma(\"GCC diagnostic push\")\n\
#define OMP(...) _Pragma(\"omp parallel for\") __VA_OPT__(x)\n\
void f(int n, double *a) {\n  PUSH\n  DIAG(GCC diagnostic ignored \"-Wall\")\n  OMP(1)\n  for (int i = 0; i < n; i++) a[i] = i;\n  DIAG(a, b)\n}\n";
    let (dirs, errors) = directives(src, TypeEnv::default());
    assert_eq!((dirs, errors), (vec![], vec![]));
    // The same failure on a use that says `acc` is an error.
    let src = src.replace("DIAG(a, b)", "DIAG(acc loop, seq)");
    let (_, errors) = directives(&src, TypeEnv::default());
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("takes 1 argument"), "{errors:?}");
}

/// A use at the end of a function the file does not close: the `}` the parser supplies stands
/// after the use, so the printer's edit of the function's end does not fall inside it.
#[test]
fn a_use_before_a_missing_brace_prints_without_overlap() {
    let src =
        "#define PL _Pragma(\"acc parallel loop\")\n#pragma acc routine seq\nvoid f(int n) {\nPL";
    for mode in [crate::Mode::Omp, crate::Mode::AccOmp, crate::Mode::OmpAcc] {
        let _ = crate::translate(src, TypeEnv::default(), Default::default(), mode);
    }
}

/// An object-like macro that expands to nothing (a qualifier a portability header defines
/// away) is not read as a type: the variable keeps its own type, and what a kernel declares of
/// it is the declaration as written (the macro stays defined for the compiler).
#[test]
fn an_empty_macro_before_a_type_is_not_the_type() {
    let src = "#define QUAL\ntypedef struct { double c[4]; } vec;\nvoid f(QUAL vec *const v, int n) {\n#pragma acc parallel loop copy(v[0:1])\n  for (int i = 0; i < n; i++) v->c[i] = i;\n}\n";
    let a = crate::analyze_for(src, TypeEnv::default(), None);
    let warnings: Vec<&str> = a.diags.iter().map(|d| d.message.as_str()).collect();
    assert!(warnings.is_empty(), "{warnings:?}");
    let v = a.unit.vars.iter().find(|v| v.name == "v").unwrap();
    assert_eq!(v.decl_text, "vec *const v");
    // Not where the compiler does not expand it: before its definition, in a comment or a
    // string, on a preprocessor line.
    let src = "typedef int QUAL;\nQUAL before;\n#define QUAL\n/* QUAL */ const char *s = \"QUAL\";\n#ifdef QUAL\nQUAL int after;\n#endif\n";
    let a = crate::analyze_for(src, TypeEnv::default(), None);
    let ty = |name: &str| {
        a.unit
            .vars
            .iter()
            .find(|v| v.name == name)
            .map(|v| v.decl_text.clone())
    };
    assert_eq!(ty("before").as_deref(), Some("QUAL before"));
    assert_eq!(ty("after").as_deref(), Some("int after"));
    assert!(a.diags.iter().all(|d| !d.is_error()), "{:?}", a.diags);
}
