use super::*;

fn params() -> HashMap<String, Outer> {
    let mut p = HashMap::new();
    p.insert("x".into(), Outer::Slice(Ty::F32.into(), false));
    p.insert("y".into(), Outer::Slice(Ty::F32.into(), true));
    p.insert("v".into(), Outer::Slice(Ty::I64.into(), true));
    p.insert("a".into(), Outer::Scalar(Ty::F32));
    p.insert("n".into(), Outer::Scalar(Ty::I32));
    p.insert("s".into(), Outer::Other);
    p
}

/// Translates `for i in 0..y.len() { body }` (or with `reds`) and returns the kernel text.
fn kernel(body: &str, reds: &[(ReductionOp, &str)]) -> Result<(String, Translated), Unsupported> {
    let params = params();
    let body: syn::Block = syn::parse_str(&format!("{{ {body} }}")).unwrap();
    let levels = [Level {
        var: Some("i".into()),
        lo: syn::parse_quote!(0),
        hi: syn::parse_quote!(y.len()),
    }];
    let reductions: Vec<(ReductionOp, String)> =
        reds.iter().map(|(o, v)| (*o, v.to_string())).collect();
    let locals = HashSet::from(["f".to_string()]);
    let t = translate(&Input {
        function: "k",
        entry: "k0".into(),
        params: &params,
        levels: &levels,
        body: &body,
        reductions: &reductions,
        per_chunk: &[],
        privates: &[],
        locals: &locals,
    })?;
    let text = acc_engine::cuda::emit_kernel(&t.kernel);
    Ok((text, t))
}

fn ok(body: &str) -> String {
    match kernel(body, &[]) {
        Ok((t, _)) => t,
        Err(e) => panic!("{body}: {}", e.why),
    }
}

fn why(body: &str) -> String {
    match kernel(body, &[]) {
        Ok((t, _)) => panic!("{body}: translated:\n{t}"),
        Err(e) => e.why,
    }
}

#[test]
fn saxpy_reads_slices_through_checked_indices() {
    let t = ok("y[i] += a * x[i];");
    assert!(t.contains("float *const y_ptr"), "{t}");
    assert!(t.contains("const float *const x_ptr"), "{t}");
    assert!(t.contains("const float a_cap"), "{t}");
    assert!(
        t.contains("__acc_index(i_, x_len, \"k\", \"x [i]\")"),
        "{t}"
    );
    assert!(t.contains("__acc_rs_mul(a_cap, "), "{t}");
    // The index is usize: indexing decides it.
    assert!(t.contains("const unsigned long long i_ ="), "{t}");
}

#[test]
fn arguments_follow_the_slices_values_and_bounds() {
    let (_, t) = kernel("y[i] = a * x[i];", &[]).unwrap();
    assert_eq!(
        t.args,
        vec![
            ArgSpec::Slice("y".into()),
            ArgSpec::Len("y".into()),
            ArgSpec::Slice("x".into()),
            ArgSpec::Len("x".into()),
            ArgSpec::Value("a".into(), Ty::F32),
            ArgSpec::Lo(0, Ty::Usize),
            ArgSpec::Count(0),
        ]
    );
}

#[test]
fn literals_take_their_type_from_use() {
    // `0.0` is f32 here, as Rust infers it, not f64.
    let t = ok("let mut t = 0.0; t += x[i]; y[i] = t;");
    assert!(t.contains("float t_ = 0.0f;"), "{t}");
    // Unconstrained literals default as in Rust.
    let t = ok("let k = 3; let f = 1.5; y[i] = (k as f32) * (f as f32);");
    assert!(t.contains("int k_ = ((int)3ULL);"), "{t}");
    assert!(t.contains("double f_ = 1.5;"), "{t}");
    let t = ok("let k = 7u8; let m = k << 2; v[i] = m as i64;");
    assert!(
        t.contains("unsigned char m_ = __acc_rs_shl(k_, ((int)2ULL));"),
        "{t}"
    );
}

#[test]
fn casts_keep_rust_semantics() {
    let t = ok("v[i] = x[i] as i64;");
    assert!(t.contains("__acc_f2i<long long>((double)("), "{t}");
    let t = ok("y[i] = (i as u8) as f32;");
    assert!(t.contains("((float)(((unsigned char)(i_))))"), "{t}");
    assert!(why("y[i] = (i != 0) as f32;").contains("a cast from `bool` to a float"));
}

#[test]
fn integer_arithmetic_wraps_and_division_checks() {
    let t = ok("v[i] = -(v[i] * 3) / (n as i64) % 5;");
    assert!(t.contains("__acc_rs_neg(__acc_rs_mul("), "{t}");
    assert!(t.contains("__acc_rs_div("), "{t}");
    assert!(t.contains("__acc_rs_rem("), "{t}");
    assert!(SUPPORT.contains("attempt to divide by zero"));
    assert!(SUPPORT.contains("(T)((U)a * (U)b)"));
}

#[test]
fn control_flow_and_methods() {
    let t = ok("let mut s = 0.0f32; \
                for j in 0..=n { if j % 2 == 0 { continue; } s += (j as f32).sqrt(); } \
                let mut k = 0; while k < 3 { k += 1; if k == 2 { break; } } \
                y[i] = f32::max(s, a).mul_add(2.0, x[i].abs()) + if k > 1 { 1.0 } else { 0.0 };");
    assert!(t.contains("do {"), "{t}");
    assert!(t.contains("while (__acc_c"), "{t}");
    assert!(t.contains("__acc_rs_sqrt("), "{t}");
    assert!(
        t.contains("__acc_rs_mul_add(__acc_rs_max(s_, a_cap), 2.0f, "),
        "{t}"
    );
    assert!(t.contains("break;") && t.contains("continue;"), "{t}");
    assert!(t.contains(" ? 1.0f : 0.0f)"), "{t}");
}

#[test]
fn shadowing_gets_fresh_names() {
    let t = ok("let t = x[i]; let t = t as f64; y[i] = t as f32;");
    assert!(
        t.contains("float t_ = ") && t.contains("double t_2 = "),
        "{t}"
    );
}

#[test]
fn reductions_use_the_slot_convention() {
    let (text, t) = kernel("sum += x[i] as f64;", &[(ReductionOp::Add, "sum")]).unwrap();
    assert_eq!(t.reductions, vec![Some(Ty::F64)]);
    assert!(
        text.contains("double sum_ = *(double *)__acc_slot[0];"),
        "{text}"
    );
    assert!(
        text.contains("__acc_block_reduce<double>(sum_, __acc_add())"),
        "{text}"
    );
    // The reduction's original value is the runtime's, not an argument.
    assert!(!t
        .args
        .iter()
        .any(|a| matches!(a, ArgSpec::Value(v, _) if v == "sum")));
}

#[test]
fn constructs_outside_the_subset_give_a_reason() {
    assert!(why("y[i] = f(x[i]);").contains("`f` is a local variable"));
    assert!(why("let m = Some(x[i]);").contains("only `#[acc::routine]` functions"));
    assert!(why("y[i] = Wrap::new(x[i]);").contains("only `#[acc::routine]` functions"));
    assert!(why("y[i] = half::<f32>(x[i]);").contains("generic functions"));
    assert!(why("v[i] = i64::pow(2, 3);").contains("a method outside the CUDA subset"));
    assert!(why("println!(\"{}\", i);").contains("macros inside a kernel"));
    assert!(why("let (p, q) = (1, 2);").contains("only `let name` patterns"));
    assert!(why("y[i] = x.iter().sum();").contains("a slice is used other than"));
    assert!(why("y[i] = s;").contains("outside the CUDA subset"));
    assert!(
        why("let m = x[i].to_degrees(); y[i] = m;").contains("a method outside the CUDA subset")
    );
    assert!(why("a = 1.0;").contains("neither private nor a reduction variable"));
    // A local whose type nothing decides.
    assert!(why("let w = t; y[i] = 0.0;").contains("the type of `t` cannot be inferred"));
    // Types that disagree are never guessed.
    assert!(why("y[i] = x[i] + 1;").contains("types of its operands differ"));
}

// ---- routines ----------------------------------------------------------------------------------

fn routine(
    params: &[(&str, Outer, bool)],
    ret: Option<Ty>,
    body: &str,
) -> Result<TranslatedRoutine, Unsupported> {
    let params: Vec<(String, Outer, bool)> = params
        .iter()
        .map(|(n, o, m)| (n.to_string(), o.clone(), *m))
        .collect();
    let body: syn::Block = syn::parse_str(&format!("{{ {body} }}")).unwrap();
    translate_routine(&RoutineInput {
        function: "r",
        params: &params,
        ret: ret.map(Elem::Ty),
        body: &body,
        locals: &HashSet::new(),
    })
}

fn routine_ok(params: &[(&str, Outer, bool)], ret: Option<Ty>, body: &str) -> TranslatedRoutine {
    routine(params, ret, body).unwrap_or_else(|e| panic!("{body}: {}", e.why))
}

#[test]
fn a_routine_returns_its_tail_and_early_returns() {
    let r = routine_ok(
        &[
            ("v", Outer::Scalar(Ty::F64), false),
            ("k", Outer::Scalar(Ty::I32), true),
        ],
        Some(Ty::F64),
        "if v < 0.0 { return 0.0; } k += 1; let w = v * k as f64; if w > 10.0 { 10.0 } else { w }",
    );
    assert_eq!(r.ret, "double");
    // A `mut` parameter is assignable; the others are `const`.
    assert_eq!(r.params, "const double v_, int k_");
    assert_eq!(r.param_types, ["double", "int"]);
    let b = &r.body;
    assert!(b.starts_with("{\n") && b.ends_with("}\n"), "{b}");
    assert!(b.contains("return 0.0;"), "{b}");
    assert!(
        b.contains("if ((w_ > 10.0)) {\n    return 10.0;\n  } else {\n    return w_;"),
        "{b}"
    );
    // Unit routines: `return;`, and no value.
    let r = routine_ok(
        &[("y", Outer::Slice(Ty::F32.into(), true), false)],
        None,
        "if y.is_empty() { return; } y[0] = 1.0;",
    );
    assert_eq!(r.ret, "void");
    assert!(r.body.contains("return;"), "{}", r.body);
    let r = routine_ok(&[], Some(Ty::U8), "7");
    assert_eq!(
        (r.params.as_str(), r.body.as_str()),
        ("void", "{\n  return ((unsigned char)7ULL);\n}\n")
    );
}

#[test]
fn a_routine_takes_slices_as_a_pointer_and_a_length() {
    let r = routine_ok(
        &[
            ("x", Outer::Slice(Ty::F32.into(), false), false),
            ("y", Outer::Slice(Ty::I64.into(), true), false),
        ],
        Some(Ty::F32),
        "let mut s = 0.0; for j in 0..x.len() { s += x[j]; y[j] = j as i64; } s",
    );
    assert_eq!(
        r.params,
        "const float *const x_ptr, const unsigned long long x_len, \
         long long *const y_ptr, const unsigned long long y_len"
    );
    assert_eq!(r.param_types, ["", ""]);
    // Bounds checks name the routine.
    assert!(
        r.body.contains("__acc_index(j_, x_len, \"r\", \"x [j]\")"),
        "{}",
        r.body
    );
    assert!(r.body.contains("return s_;"), "{}", r.body);
}

#[test]
fn a_routine_sees_only_its_parameters_and_locals() {
    let e = routine(
        &[("v", Outer::Scalar(Ty::F64), false)],
        Some(Ty::F64),
        "v * SCALE",
    )
    .err()
    .unwrap();
    assert!(
        e.why.contains("`SCALE`: a name from outside the routine"),
        "{}",
        e.why
    );
    let e = routine(&[("s", Outer::Other, false)], None, "")
        .err()
        .unwrap();
    assert!(
        e.why.contains("`s` has a type outside the CUDA subset"),
        "{}",
        e.why
    );
    // `return` belongs to routines; a kernel has none.
    assert!(why("return;").contains("outside the CUDA subset"));
}

#[test]
fn calls_go_through_an_alias_of_the_path() {
    let (text, t) = kernel("y[i] = util::half(x[i]) + ::ext::g(a, n);", &[]).unwrap();
    assert!(
        text.contains("__acc_rs_add(__acc_call_4util_4half(x_ptr[__acc_index(i_, x_len"),
        "{text}"
    );
    assert!(
        text.contains("__acc_call_g_3ext_1g(a_cap, n_cap)"),
        "{text}"
    );
    let sites: Vec<_> = t
        .calls
        .iter()
        .map(|c| (text_of(&c.path), c.alias.as_str(), c.args.clone(), c.ret))
        .collect();
    assert_eq!(
        sites,
        [
            (
                "util :: half".to_string(),
                "__acc_call_4util_4half",
                vec![ArgTy::Value(Ty::F32)],
                Some(Ty::F32)
            ),
            (
                ":: ext :: g".to_string(),
                "__acc_call_g_3ext_1g",
                vec![ArgTy::Value(Ty::F32), ArgTy::Value(Ty::I32)],
                Some(Ty::F32)
            ),
        ]
    );
}

fn text_of(p: &syn::Path) -> String {
    quote::quote!(#p).to_string()
}

#[test]
fn slices_are_passed_as_a_pointer_and_a_length() {
    let (text, t) = kernel("y[i] = sum(x, i);", &[]).unwrap();
    assert!(text.contains("__acc_call_3sum(x_ptr, x_len, i_)"), "{text}");
    assert_eq!(
        t.calls[0].args,
        [ArgTy::Slice(Ty::F32.into(), false), ArgTy::Value(Ty::Usize)]
    );
    // The kernel receives the slice it passes.
    assert!(t.args.contains(&ArgSpec::Slice("x".into())));
    // A statement's call has no result type.
    let (text, t) = kernel("fill(v, i);", &[]).unwrap();
    assert!(
        text.contains("    __acc_call_4fill(v_ptr, v_len, i_);\n"),
        "{text}"
    );
    assert_eq!(t.calls[0].args[0], ArgTy::Slice(Ty::I64.into(), true));
    assert_eq!(t.calls[0].ret, None);
}

#[test]
fn types_only_the_signature_decides_take_its_names() {
    // Rust types `3`, `2.5` and `s` from `scale`'s signature, which this macro cannot see: the
    // C text names them by the runtime's `#define`s.
    let (text, t) = kernel("let s = scale(3, 2.5); y[i] = s as f32 + x[i];", &[]).unwrap();
    assert!(
        text.contains("__acc_call_5scale_r s_ = __acc_call_5scale(((__acc_call_5scale_a0)3ULL), "),
        "{text}"
    );
    assert!(
        text.contains("(sizeof(__acc_call_5scale_a1) == sizeof(float) ? (__acc_call_5scale_a1)(2.5f) : (__acc_call_5scale_a1)(2.5))"),
        "{text}"
    );
    // A cast from such a type saturates when it is a float.
    assert!(text.contains("__acc_as<float>(s_)"), "{text}");
    assert_eq!(t.calls[0].args, [ArgTy::Signature, ArgTy::Signature]);
    assert_eq!(t.calls[0].ret, None);
    assert!(SUPPORT
        .contains("template <class To> static __device__ __forceinline__ To __acc_as(double v)"));
    // A reduction of routine results: the slot's type is the signature's.
    let (text, t) = kernel("sum += weight(x[i]);", &[(ReductionOp::Add, "sum")]).unwrap();
    assert_eq!(t.reductions, [None]);
    assert!(
        text.contains("__acc_call_6weight_r sum_ = *(__acc_call_6weight_r *)__acc_slot[0];"),
        "{text}"
    );
    // A captured value that only the call types is passed unchecked (rustc checked it).
    let (_, t) = kernel("y[i] = x[i] + scale2(k);", &[]).unwrap();
    assert!(t.args.contains(&ArgSpec::Signature("k".into())));
}

#[test]
fn recursion_calls_the_routine_by_its_own_alias() {
    let r = routine_ok(
        &[("n", Outer::Scalar(Ty::U64), false)],
        Some(Ty::U64),
        "if n == 0 { 1 } else { n * fact(n - 1) }",
    );
    assert!(
        r.body.contains("return __acc_rs_mul(n_, __acc_call_4fact(__acc_rs_sub(n_, ((unsigned long long)1ULL))));"),
        "{}",
        r.body
    );
    assert_eq!(text_of(&r.calls[0].path), "fact");
    assert_eq!(r.calls[0].ret, Some(Ty::U64));
}

#[test]
fn calls_that_may_write_slices_keep_rust_order() {
    let y = [("y", Outer::Slice(Ty::F32.into(), true), false)];
    let r = routine_ok(
        &y,
        Some(Ty::F32),
        "bump(y); let a: f32 = bump(y); y[0] = bump(y); y[1] += bump(y); bump(y)",
    );
    assert!(
        r.body.contains("  __acc_call_4bump(y_ptr, y_len);\n"),
        "{}",
        r.body
    );
    assert!(
        r.body.contains("return __acc_call_4bump(y_ptr, y_len);"),
        "{}",
        r.body
    );
    // Inside a larger expression, C's order of evaluation is not Rust's.
    let e = routine(&y, Some(Ty::F32), "y[0] + bump(y)").err().unwrap();
    assert!(e.why.contains("may write a slice"), "{}", e.why);
    // A shared slice is only read: any position.
    let x = [("x", Outer::Slice(Ty::F32.into(), false), false)];
    routine_ok(&x, Some(Ty::F32), "x[0] + first(x)");
}

// ---- user types ------------------------------------------------------------------------------

fn user_kernel(body: &str) -> Result<(String, Translated), Unsupported> {
    let named = |t: &str| Named::from_type(&syn::parse_str(t).unwrap()).unwrap();
    let mut params = HashMap::new();
    params.insert("p".into(), Outer::Slice(Elem::Named(named("P")), false));
    params.insert(
        "q".into(),
        Outer::Slice(Elem::Named(named("[f64; 3]")), true),
    );
    params.insert("y".into(), Outer::Slice(Ty::F32.into(), true));
    kernel_over(&params, body)
}

/// Translates `for i in 0..y.len() { body }` over `params` and returns the kernel text.
fn kernel_over(
    params: &HashMap<String, Outer>,
    body: &str,
) -> Result<(String, Translated), Unsupported> {
    let body: syn::Block = syn::parse_str(&format!("{{ {body} }}")).unwrap();
    let levels = [Level {
        var: Some("i".into()),
        lo: syn::parse_quote!(0),
        hi: syn::parse_quote!(y.len()),
    }];
    let t = translate(&Input {
        function: "k",
        entry: "k0".into(),
        params,
        levels: &levels,
        body: &body,
        reductions: &[],
        per_chunk: &[],
        privates: &[],
        locals: &HashSet::new(),
    })?;
    Ok((acc_engine::cuda::emit_kernel(&t.kernel), t))
}

#[test]
fn fields_of_structs_are_typed_by_their_use_or_by_decltype() {
    let (t, tr) = user_kernel("y[i] = p[i].x * 2.0; let c = p[i]; let z = c.y + 1.0;")
        .unwrap_or_else(|e| panic!("{}", e.why));
    assert!(t.contains("const __acc_type_P *const p_ptr"), "{t}");
    // `p[i].x` is an `f32` (it is stored into `y[i]`); `c.y` only `decltype` knows.
    assert!(
        t.contains("(p_ptr[__acc_index(i_, p_len, \"k\", \"p [i]\")]).x"),
        "{t}"
    );
    assert!(t.contains("decltype(((__acc_type_P *)0)->y) z_"), "{t}");
    assert!(t.contains("__acc_type_P c_ = "), "{t}");
    assert_eq!(
        tr.types
            .iter()
            .map(|n| n.alias.as_str())
            .collect::<Vec<_>>(),
        ["__acc_type_P"]
    );
}

#[test]
fn struct_literals_and_arrays_keep_rusts_order_and_bounds() {
    let (t, _) = user_kernel(
        "let s = P { y: y[i], x: 1.0 }; let a = [s.x, s.y, 0.5]; q[i] = [0.0; 3]; \
         for (k, v) in a.iter().enumerate() { q[i][k] = v as f64; }",
    )
    .unwrap_or_else(|e| panic!("{}", e.why));
    // Fields are assigned in the order written.
    assert!(t.contains("__acc_s.y = "), "{t}");
    assert!(
        t.find("__acc_s.y").unwrap() < t.find("__acc_s.x").unwrap(),
        "{t}"
    );
    // The elements' type is the fields', which only `decltype` knows.
    assert!(
        t.contains("__acc_arr<decltype(((__acc_type_P *)0)->x), 3ULL> a_"),
        "{t}"
    );
    assert!(t.contains("__acc_at(q_ptr["), "{t}");
    assert!(t.contains("const unsigned long long k_ = "), "{t}");
}

#[test]
fn user_types_outside_the_subset_give_a_reason() {
    let why = |b: &str| match user_kernel(b) {
        Ok((t, _)) => panic!("{b}: translated:\n{t}"),
        Err(e) => e.why,
    };
    assert!(why("let c = p[i] + p[i];").contains("an operator on a `P`"));
    assert!(why("let c = P { ..p[i] };").contains("give every field"));
    assert!(why("let c = p[i].0;").contains("a tuple field"));
    assert!(why("let c = [0.0; 1 + 2];").contains("positive integer literal"));
}

#[test]
fn zero_and_one_of_a_type_parameter_are_its_literals() {
    let t = generic("T");
    let mut params = HashMap::new();
    params.insert("x".into(), Outer::Slice(Elem::Generic(t.clone()), false));
    params.insert("y".into(), Outer::Slice(Elem::Generic(t), true));
    let (k, _) = kernel_over(
        &params,
        "let mut s = T::zero(); s += x[i] * T::one(); y[i] = s;",
    )
    .unwrap_or_else(|e| panic!("{}", e.why));
    assert!(k.contains("__acc_gen_T s_ = ((__acc_gen_T)0.0);"), "{k}");
    assert!(k.contains("((__acc_gen_T)1.0)"), "{k}");
    let why = match kernel_over(&params, "y[i] = T::two();") {
        Ok((k, _)) => panic!("translated:\n{k}"),
        Err(e) => e.why,
    };
    assert!(why.contains("other than `zero()` and `one()`"), "{why}");
}
