//! Arbitrary C (and arbitrary bytes) never panic the front end, the checks
//! or the printer; `acc` mode always prints the input unchanged.

use acc_c::Mode;
use acc_engine::omp::OmpOptions;
use proptest::prelude::*;

const FRAGMENTS: &[&str] = &[
    "int x;",
    "double a[10];",
    "double *p;",
    "const int c = 1;",
    "struct s { int v; } st;",
    "typedef struct { double *d; } grid_t;",
    "grid_t g;",
    "extern int e[];",
    "void f(int n) {",
    "}",
    "{",
    "for (int i = 0; i < n; i++)",
    "for (x = 0; x < 10; ++x)",
    "while (x)",
    "if (x)",
    "else",
    "a[i] = p[i] + x;",
    "x += a[0];",
    "return;",
    "break;",
    "continue;",
    "goto L;",
    "L: ;",
    "#pragma acc parallel",
    "#pragma acc parallel loop gang vector reduction(+:x)",
    "#pragma acc loop seq private(x)",
    "#pragma acc loop worker",
    "#pragma acc kernels",
    "#pragma acc serial",
    "#pragma acc data copy(a) copyin(p[0:n])",
    "#pragma acc enter data copyin(a)",
    "#pragma acc exit data copyout(a) finalize",
    "#pragma acc update self(a[0:5]) if_present",
    "#pragma acc routine seq",
    "#pragma acc routine(f) vector",
    "#pragma acc declare create(a)",
    "#pragma acc atomic capture",
    "#pragma acc cache(a[0:2])",
    "#pragma acc wait(1) async(2)",
    "#pragma acc host_data use_device(p)",
    "#pragma acc parallel num_workers(n) vector_length(x)",
    "#pragma acc loop collapse(2) tile(2,*)",
    "#pragma acc parallel default(none)",
    "#pragma acc parallel default(present) deviceptr(p)",
    "#pragma acc loop reduction(max:x) gang",
    "_Pragma(\"acc parallel loop\")",
    "#define ACC(...) _Pragma(#__VA_ARGS__)",
    "#define PL _Pragma(\"acc parallel loop\")",
    "#define TWO _Pragma(\"acc parallel\") x;",
    "#undef PL",
    "ACC(acc kernels copy(a))",
    "ACC(acc loop,",
    "PL",
    "TWO",
    "#pragma acc",
    "#pragma acc parallel copy(",
    "#define N 4",
    "#if N",
    "#endif",
    "/* comment */",
    "// line comment",
    "\\",
    "x = f(x);",
    ";",
    "(",
    ")",
];

fn lower(src: &str) {
    let opts = acc_c::lower::LowerOptions {
        file_name: "fuzz.c".into(),
        ..Default::default()
    };
    let _ = acc_c::lower::lower_file(src, Default::default(), &opts);
}

fn translate_all_modes(src: &str) {
    lower(src);
    for mode in [Mode::Acc, Mode::Omp, Mode::AccOmp, Mode::OmpAcc] {
        for opts in [OmpOptions::default(), OmpOptions::portable()] {
            let (text, _diags) = acc_c::translate(src, Default::default(), opts, mode);
            if mode == Mode::Acc {
                assert_eq!(text, src);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn fragment_soup_never_panics(parts in proptest::collection::vec(0..FRAGMENTS.len(), 0..60)) {
        let src: String = parts.iter().map(|&i| FRAGMENTS[i]).collect::<Vec<_>>().join("\n");
        translate_all_modes(&src);
    }

    #[test]
    fn arbitrary_text_never_panics(src in "(?s).{0,400}") {
        translate_all_modes(&src);
    }

    #[test]
    fn pragma_text_never_panics(body in "[a-z_(){}\\[\\]:,+*&|^<>=! 0-9\\\\\n\"]{0,80}") {
        let src = format!("void f(int n, double *a) {{\n  double s;\n#pragma acc {body}\n  for (int i = 0; i < n; i++) s += a[i];\n}}\n");
        translate_all_modes(&src);
    }
}
