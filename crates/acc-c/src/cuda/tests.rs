//! The CUDA support's unit tests: what goes into a module, and the text rewritings.
use super::*;
use crate::types::HeaderGlobal;
use std::collections::HashMap;

fn routines_of(src: &str) -> Vec<String> {
    routine_names(&crate::analyze_for(src, Default::default(), None).unit)
}

/// An unnamed `routine` before a prototype names that function, not the next one the
/// file defines (`main` became a device function, and its host calls did not compile in
/// the CUDA module).
#[test]
fn a_routine_directive_before_a_prototype_names_the_prototypes_function() {
    let src = "#pragma acc routine seq\nint one(void);\nint main(void) { return one(); }\n";
    assert_eq!(routines_of(src), ["one"]);
    let src = "#if 1\n#pragma acc routine seq\nextern double (*pick(int k))(double);\n#endif\nint main(void) { return 0; }\n";
    assert_eq!(routines_of(src), ["pick"]);
}

/// What a file's routines give other files and take from them: definitions without
/// `static`, and prototypes it never defines that its device code calls (a kernel, or a
/// routine it defines); a prototype nothing on the device calls needs nothing.
#[test]
fn routines_defined_here_are_provided_and_prototypes_alone_are_needed() {
    let src = "#pragma acc routine seq\ndouble far(double);\n#pragma acc routine seq\ndouble kernel_only(double);\n#pragma acc routine seq\ndouble unused(double);\n#pragma acc routine seq\nstatic double near(double x) { return far(x); }\n#pragma acc routine seq\ndouble mine(double);\n#pragma acc routine seq\ndouble mine(double x) { return near(x); }\ndouble plain(double);\nvoid k(double *a) {\n  unused(1);\n#pragma acc parallel loop\n  for (int i = 0; i < 4; i++) a[i] = kernel_only(a[i]);\n}\n";
    let t = crate::syntax::parse(src);
    let kernel = src.find("  for (int i").unwrap()..src.rfind('}').unwrap();
    let linkage = routine_linkage(src, &t, &routines_of(src), &[kernel]);
    assert_eq!(linkage.provides, ["mine"]);
    assert_eq!(linkage.needs, ["far", "kernel_only"]);
    let none = routine_linkage(
        "int f(void);\n",
        &crate::syntax::parse("int f(void);\n"),
        &[],
        &[],
    );
    assert_eq!(none, RoutineLinkage::default());
}

#[test]
fn macros_types_and_routines_come_along_and_nothing_else() {
    let src = "#include <stdio.h>\n#define N 10\ntypedef struct { int a; } pair;\nstruct s { int b; };\nstatic int sq(int x);\n#pragma acc routine(sq) seq\n#pragma acc routine seq\nstatic int poly(int x) {\n#pragma acc loop seq\n  for (;;) {}\n  return sq(x) + 1;\n}\nstatic int sq(int x) { return x * x; }\nint host_only(void) { return 1; }\nint global = 3;\n";
    let t = crate::syntax::parse(src);
    let r = routines_of(src);
    let s = support(
        &FileText {
            src,
            trees: &t,
            dead: &[],
        },
        &crate::line_map::LineMap::new(src, "t.c"),
        &[],
        &routine_globals(src, &t, &r, &Default::default()),
        &r,
        "__acc_gp_",
    )
    .unwrap();
    assert!(s.contains("#define N 10"));
    assert!(s.contains("typedef struct { int a; } pair;"));
    assert!(s.contains("struct s { int b; };"));
    assert!(s.contains("__device__ static int sq(int x);"));
    assert!(s.contains("__device__ static int poly(int x) {"));
    assert!(s.contains("__device__ static int sq(int x) { return x * x; }"));
    assert!(!s.contains("host_only"));
    assert!(!s.contains("global"));
    assert!(!s.contains("#include"));
    assert!(!s.contains("loop seq"));
}

#[test]
fn long_double_becomes_the_preludes_with_its_exact_constants() {
    let m = "long double x = 0.125L + 1e3L * 2.5e-1l - 0.1L; double long y = 10L + 3.L; /* 0.5L */ \"1.5L\"; a1.5L;";
    assert_eq!(
        cxx_types(m, false),
        "__acc_f80 x = __acc_f80(0.125) + __acc_f80(1e3) * __acc_f80(2.5e-1) - __acc_f80::bits(0xcccccccccccccccdull, 0x3ffb); __acc_f80 y = 10L + __acc_f80(3.); /* 0.5L */ \"1.5L\"; a1.5L;"
    );
    for (n, exact) in [
        ("0.5", true),
        ("0.1", false),
        ("1e-3", false),
        ("9007199254740992", true),
        ("9007199254740993", false),
        ("4.5e15", true),
        ("1e22", true),
        ("1e23", false),
        ("0.000", true),
        ("1.1102230246251565404236316680908203125e-16", true),
    ] {
        let bits = crate::f80::constant_bits(n).unwrap();
        assert_eq!(crate::f80::is_a_double(bits.0, bits.1), exact, "{n}");
    }
}

proptest::proptest! {
    /// Any text: the constants found are pieces of it that end in `L` or `l`, and the
    /// rewriting never panics.
    #[test]
    fn long_double_constants_are_found_in_any_text(text in "[0-9a-fA-FxXpPeElL.+\\-/*\"' é_]{0,40}") {
        for (r, value) in long_double_constants(&text) {
            let piece = text.get(r).unwrap_or("");
            proptest::prop_assert!(piece.ends_with(['l', 'L']), "{piece}");
            proptest::prop_assert!(value.starts_with("__acc_f80"));
        }
        let _ = cxx_types(&text, true);
    }
}

/// C's compound literals of scalar and struct types become C++'s `__acc_id<T>{…}`; calls,
/// conditions, casts, function bodies and array literals stay.
#[test]
fn compound_literals_become_cxx() {
    let m = "v = (vec2){1, 2}; return (struct s) {.a = 1}; f((const double){x}, (int *){p});\n\
             if (x) {} while (ok (y)) {} int main(void)\n{ (double)(x); g (a) {}\n\
             int *q = (int[]){1, 2}; h(/* c */ (T){0}); return /* r */ (U){1}; z = (a + b) {};";
    assert_eq!(
        c_tokens_as_c_means_them(m),
        "v = __acc_id<vec2>{1, 2}; return __acc_id<struct s> {.a = 1}; f(__acc_id<const double>{x}, __acc_id<int *>{p});\n\
         if (x) {} while (ok (y)) {} int main(void)\n{ (double)(x); g (a) {}\n\
         int *q = (int[]){1, 2}; h(/* c */ __acc_id<T>{0}); return /* r */ __acc_id<U>{1}; z = (a + b) {};"
    );
}

#[test]
fn character_constants_are_ints_as_in_c() {
    let m = "#define SEP '/'\n#if SEP == '/' \\\n  && 'a'\n#endif\nint n = sizeof('a') + L'b' + u'c';\n/* 'x' */ \"'y'\" // 'z'\ncase '\\'': x1'2';";
    assert_eq!(
        c_tokens_as_c_means_them(m),
        "#define SEP ((int)'/')\n#if SEP == '/' \\\n  && 'a'\n#endif\nint n = sizeof(((int)'a')) + L'b' + u'c';\n/* 'x' */ \"'y'\" // 'z'\ncase ((int)'\\''): x1'2';"
    );
    assert_eq!(
        c_tokens_as_c_means_them("auto int t; auto real_t x; auto p *q; auto y = 2; autos z;"),
        "/* auto */ int t; /* auto */ real_t x; /* auto */ p *q; auto y = 2; autos z;"
    );
    assert_eq!(
        c_tokens_as_c_means_them(
            "double f(register const double *a) { register int i; registers r; }"
        ),
        "double f(/* register */ const double *a) { /* register */ int i; registers r; }"
    );
    // GNU's imaginary constants.
    assert_eq!(
        c_tokens_as_c_means_them("z = 2.0i + 1.5fI * 3j + 1e3L + 0x1p2 + 12u + x1i;"),
        "z = __acc_cdouble(0.0, 2.0) + __acc_cfloat(0.0f, 1.5f) * __acc_cdouble(0.0, 3.0) + 1e3L + 0x1p2 + 12u + x1i;"
    );
    // The preludes are acc's C++ and stay as they are.
    let with_prelude = format!("{}char c = 'q';", acc_engine::cuda::PRELUDE);
    assert!(c_tokens_as_c_means_them(&with_prelude).ends_with("char c = ((int)'q');"));
}

#[test]
fn array_parameters_lose_the_extent_c_ignores_and_variable_ones_become_vla_arguments() {
    let src = "int f(int n, double a[n], const float w[static 4], int m[n][3], int *p) { int l[4]; return 0; }\nint g(int k, char s[k]);\ndouble *h(int n, int m, const double v[n][m], float c[2][n][m + 1]) { return 0; }\nvoid k(int n, int m, double v[][m]);\nvoid r(double (*a)[8], const int (*b)[2][3]);\n";
    let trees = crate::syntax::parse(src);
    let items = items(&trees);
    let texts: Vec<String> = items
        .iter()
        .filter(|n| matches!(n.node_kind(), "function_definition" | "declaration"))
        .map(|n| parameters::device_parameters(*n, src))
        .collect();
    assert_eq!(
        texts,
        [
            "int f(int n, double a[], const float w[], int m[][3], int *p) { int l[4]; return 0; }",
            "int g(int k, char s[]);",
            "double *h(int n, int m, __acc_vla_arg<const double> __acc_vla_arg_v, __acc_vla_arg<float> __acc_vla_arg_c) { __acc_vla<const double, 2> v = {(const double *)__acc_vla_arg_v.p, {(long long)(m)}}; (void)v; __acc_vla<float, 3> c = {(float *)__acc_vla_arg_c.p, {(long long)(n), (long long)(m + 1)}}; (void)c; return 0; }",
            "void k(int n, int m, __acc_vla_arg<double> v);",
            "void r(double (*a)[8], const int (*b)[2][3]);"
        ]
    );
}

#[test]
fn enums_are_their_integer_types_where_the_text_names_them() {
    let m = "enum shape { A, B };\ntypedef enum { X = -1, Y } kind_t;\ntypedef enum tag { P } t2;\nenum fwd;\nenum shape s = i % 3; kind_t k = 1; /* enum shape */ \"enum shape\"; x = (enum shape)2; unsigned_enum y;";
    assert_eq!(
        enums_as_integers(m),
        "enum shape { A, B };\ntypedef enum { X = -1, Y } __acc_enum_kind_t; typedef __underlying_type(__acc_enum_kind_t) kind_t;\ntypedef enum tag { P } __acc_enum_t2; typedef __underlying_type(__acc_enum_t2) t2;\nenum fwd;\n__underlying_type(enum shape) s = i % 3; kind_t k = 1; /* enum shape */ \"enum shape\"; x = (__underlying_type(enum shape))2; unsigned_enum y;"
    );
}

proptest::proptest! {
    /// Any text: the enum rewriting never panics.
    #[test]
    fn enums_rewrite_any_text(text in "(enum|typedef|[a-z{};'\"/* ]){0,30}") {
        let _ = enums_as_integers(&text);
    }

    /// Any text: the rewriting never panics, and only adds the casts (no `i` or `j`, which
    /// would make imaginary constants of numbers).
    #[test]
    fn character_constants_rewrite_any_text(text in "[#a-hk-z0-9'\"/*\\\n\r ]{0,40}") {
        let out = c_tokens_as_c_means_them(&text);
        // Each cast adds `((int)` and `)`; the generated text has no parentheses of its own.
        proptest::prop_assert_eq!(out.len(), text.len() + 7 * out.matches("((int)").count());
    }
}

#[test]
fn complex_types_become_the_preludes() {
    let m = "float _Complex a; _Complex double b; double  complex c = 1.0 + 2.0 * I;\nint I_x; float real; complex_float d;";
    assert_eq!(
        cxx_types(m, true),
        "__acc_cfloat a; __acc_cdouble b; __acc_cdouble c = 1.0 + 2.0 * __acc_I;\nint I_x; float real; complex_float d;"
    );
    // Without <complex.h>, `complex` and `I` are the program's own names.
    assert_eq!(
        cxx_types("double complex; int I;", false),
        "double complex; int I;"
    );
}

#[test]
fn routines_reach_declared_globals_through_device_pointers() {
    let src = "#define N 4\ndouble g[N];\nstatic const int k = 2, *p;\nint h;\n#pragma acc routine seq\nstatic double f(int i) {\n  return g[i] * k;\n}\n";
    let t = crate::syntax::parse(src);
    let r = routines_of(src);
    let bound = routine_globals(src, &t, &r, &Default::default());
    let found: Vec<(&str, usize)> = bound.iter().map(|g| (g.name.as_str(), g.at)).collect();
    assert_eq!(
        found,
        [
            ("g", src.find("g[i]").unwrap()),
            ("k", src.find("k;\n}").unwrap())
        ]
    );
    let at = src.find("g[i]").unwrap();
    assert_eq!(bound[0].uses.len(), 1);
    assert_eq!(bound[0].uses[0], at..at + 1);
    let s = support(
        &FileText {
            src,
            trees: &t,
            dead: &[],
        },
        &crate::line_map::LineMap::new(src, "t.c"),
        &["g".into(), "k".into()],
        &bound,
        &r,
        "__acc_gp_",
    )
    .unwrap();
    assert!(s.contains("__device__ double (*__acc_gp_g)[N];\n__device__ const int (*__acc_gp_k);\n#define g (*__acc_gp_g)\n#define k (*__acc_gp_k)\n"), "{s}");
    assert!(s.find("#define g").unwrap() < s.find("__device__ static double f").unwrap());
    assert!(s.ends_with("}\n#undef g\n#undef k\n"), "{s}");
    assert!(!s.contains("__acc_gp_h"));
}

#[test]
fn a_routine_that_uses_an_undeclared_global_has_no_cuda_form() {
    let src = "double g[4];\nint k = 2, *p;\n#pragma acc routine seq\nstatic double f(int i) {\n  return g[i] * k;\n}\n";
    let t = crate::syntax::parse(src);
    let r = routines_of(src);
    let (at, why) = support(
        &FileText {
            src,
            trees: &t,
            dead: &[],
        },
        &crate::line_map::LineMap::new(src, "t.c"),
        &["k".into()],
        &routine_globals(src, &t, &r, &Default::default()),
        &r,
        "__acc_gp_",
    )
    .unwrap_err();
    assert_eq!(at, src.find("g[i]").unwrap());
    assert!(why.contains("`g`"), "{why}");
    assert!(why.contains("declare create(g)"), "{why}");
}

/// A global of the program's header reaches routines as the file's own do: through a device
/// pointer when a `declare` names it (declared as the header declares it), as the error of an
/// undeclared global otherwise. A parameter or a local of the name hides it.
#[test]
fn routines_reach_the_headers_globals_and_not_the_names_they_hide() {
    let src = "#pragma acc routine seq\nstatic double f(int i) {\n  return scale * i;\n}\n\
               #pragma acc routine seq\nstatic int g(int scale) { return scale + 1; }\n\
               #pragma acc routine seq\nstatic int h(int i) { if (i) { int scale = i; return scale; } return 0; }\n";
    let t = crate::syntax::parse(src);
    let r = routines_of(src);
    let headers = HashMap::from([header_global("real_t", "scale", None)]);
    let bound = routine_globals(src, &t, &r, &headers);
    assert_eq!(bound.len(), 1, "{bound:?}");
    let at = src.find("scale * i").unwrap();
    assert_eq!(bound[0].uses.len(), 1);
    assert_eq!(bound[0].uses[0], at..at + 5);
    let file = FileText {
        src,
        trees: &t,
        dead: &[],
    };
    let lines = crate::line_map::LineMap::new(src, "t.c");
    let s = support(&file, &lines, &["scale".into()], &bound, &r, "__acc_gp_").unwrap();
    assert!(
        s.contains("__device__ real_t (*__acc_gp_scale);\n#define scale (*__acc_gp_scale)\n"),
        "{s}"
    );
    let (at, why) = support(&file, &lines, &[], &bound, &r, "__acc_gp_").unwrap_err();
    assert_eq!(at, src.find("scale * i").unwrap());
    assert!(why.contains("declare create(scale)"), "{why}");
}

/// A constant (`const`, initialized, not a pointer) that a routine uses without a `declare`
/// gets a definition of the module's own, from the file or the header; the kernels set no
/// pointer for it. One with a `declare` goes through its device copy.
#[test]
fn constants_without_declare_are_the_modules_own() {
    let src = "static const double bias = 2.0;\nstatic const int table[4] = {1, 2, 3, 4};\nconst char *name = \"x\";\n\
               #pragma acc routine seq\nstatic double f(int i) {\n  return bias + table[i] + offset + name[0];\n}\n";
    let t = crate::syntax::parse(src);
    let r = routines_of(src);
    let headers = HashMap::from([header_global("const double", "offset", Some("0.25"))]);
    let bound = routine_globals(src, &t, &r, &headers);
    let constants: Vec<Option<&str>> = bound.iter().map(|g| g.constant.as_deref()).collect();
    assert_eq!(
        constants,
        [
            Some("static __device__ const double bias = 2.0;"),
            Some("static __device__ const int table[4] = {1, 2, 3, 4};"),
            None,
            Some("static __device__ const double offset = 0.25;"),
        ]
    );
    let file = FileText {
        src,
        trees: &t,
        dead: &[],
    };
    let lines = crate::line_map::LineMap::new(src, "t.c");
    let declared = ["name".to_string(), "table".to_string()];
    let s = support(&file, &lines, &declared, &bound, &r, "__acc_gp_").unwrap();
    assert!(
        s.contains("static __device__ const double bias = 2.0;\n"),
        "{s}"
    );
    assert!(
        s.contains("__device__ const int (*__acc_gp_table)[4];"),
        "{s}"
    );
    assert!(
        !s.contains("__acc_gp_bias") && !s.contains("__acc_gp_offset"),
        "{s}"
    );
    let through: Vec<bool> = bound.iter().map(|g| g.through_pointer(&declared)).collect();
    assert_eq!(through, [false, true, true, false]);
}

/// A scalar global `name` of type `ty` as a program header's facts give it.
fn header_global(ty: &str, name: &str, constant: Option<&str>) -> (String, HeaderGlobal) {
    let decl = HeaderGlobal {
        facts: crate::types::TypeFacts {
            shape: acc_engine::facts::Shape::Scalar,
            is_const: false,
            is_complete: true,
        },
        type_text: ty.into(),
        decl_text: format!("{ty} {name}"),
        decl_name: ty.len() + 1..ty.len() + 1 + name.len(),
        constant_initializer: constant.map(str::to_string),
    };
    (name.to_string(), decl)
}
