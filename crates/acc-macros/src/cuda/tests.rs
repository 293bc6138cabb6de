use super::*;

fn params() -> HashMap<String, Outer> {
    let mut p = HashMap::new();
    p.insert("x".into(), Outer::Slice(Ty::F32, false));
    p.insert("y".into(), Outer::Slice(Ty::F32, true));
    p.insert("v".into(), Outer::Slice(Ty::I64, true));
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
    let t = translate(&Input {
        function: "k",
        entry: "k0".into(),
        params: &params,
        levels: &levels,
        body: &body,
        reductions: &reductions,
        per_chunk: &[],
        privates: &[],
    })?;
    let text = acc_engine::cuda::emit_kernel(&t.kernel);
    Ok((text, t))
}

fn ok(body: &str) -> String {
    match kernel(body, &[]) {
        Ok((t, _)) => t,
        Err(e) => panic!("{body}: {}", e.0),
    }
}

fn why(body: &str) -> String {
    match kernel(body, &[]) {
        Ok((t, _)) => panic!("{body}: translated:\n{t}"),
        Err(e) => e.0,
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
    assert_eq!(t.reductions, vec![Ty::F64]);
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
    assert!(why("y[i] = foo(x[i]);").contains("`foo (x [i])`: calls to functions"));
    assert!(why("println!(\"{}\", i);").contains("macros inside a kernel"));
    assert!(why("let (p, q) = (1, 2);").contains("only `let name` patterns"));
    assert!(why("y[i] = x.iter().sum();").contains("a slice is used other than"));
    assert!(why("y[i] = s;").contains("outside the CUDA subset"));
    assert!(why("let m = x[i].tanh(); y[i] = m;").contains("a method outside the CUDA subset"));
    assert!(why("a = 1.0;").contains("neither private nor a reduction variable"));
    // A local whose type nothing decides.
    assert!(why("let w = t; y[i] = 0.0;").contains("the type of `t` cannot be inferred"));
    // Types that disagree are never guessed.
    assert!(why("y[i] = x[i] + 1;").contains("types of its operands differ"));
}
