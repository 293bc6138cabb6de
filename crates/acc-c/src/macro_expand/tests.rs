use std::collections::HashMap;

use super::*;

fn def(params: Option<&[&str]>, variadic: bool, body: &str) -> MacroDef {
    MacroDef {
        params: params.map(|p| p.iter().map(|s| s.to_string()).collect()),
        variadic,
        named_variadic: false,
        body: body.into(),
    }
}

/// The expansion of the use at the end of `src` (after the last `@`), spelled with one
/// blank where the tokens had blanks, and the tokens.
fn expand_in(macros: &HashMap<&str, MacroDef>, src: &str) -> Result<(String, Vec<Tok>), String> {
    let at = src.rfind('@').map_or(0, |i| i + 1);
    let lookup = |n: &str| macros.get(n);
    let mut x = Expander::new(&lookup);
    let toks = x.expand_use(src, at..src.len())?;
    let mut s = String::new();
    for (i, t) in toks.iter().enumerate() {
        if i > 0 && t.space_before {
            s.push(' ');
        }
        s.push_str(&t.text);
    }
    Ok((s, toks))
}

fn pragma_macros() -> HashMap<&'static str, MacroDef> {
    HashMap::from([
        ("PRAGMA", def(Some(&["x"]), false, "_Pragma(#x)")),
        ("ACC", def(Some(&["x"]), false, "PRAGMA(acc x)")),
        (
            "ACCV",
            def(Some(&[]), true, "_Pragma(STR(acc __VA_ARGS__))"),
        ),
        ("STR", def(Some(&[]), true, "#__VA_ARGS__")),
        ("N", def(None, false, "100")),
        ("LOOP", def(None, false, "_Pragma(\"acc loop\")")),
    ])
}

#[test]
fn stringizing_through_two_macros_expands_the_argument_first() {
    let m = pragma_macros();
    let src = "@ACC(parallel loop copy(a[0:N]))";
    let (text, toks) = expand_in(&m, src).unwrap();
    assert_eq!(text, "_Pragma(\"acc parallel loop copy(a[0:100])\")");
    let (found, other) = pragma_operators(&toks);
    assert!(!other);
    let (dir, map) = &found[0];
    assert_eq!(dir, "acc parallel loop copy(a[0:100])");
    // `parallel` and `a` point at what the use wrote; `acc` and the expanded `100` at the
    // body's use, the name of the macro that produced them (`N`).
    let at = |word: &str| map[dir.find(word).unwrap()];
    assert_eq!(&src[at("parallel")..at("parallel") + 8], "parallel");
    assert_eq!(&src[at("a[")..at("a[") + 1], "a");
    assert_eq!(&src[at("100")..at("100") + 1], "N");
    assert_eq!(map.len(), dir.len() + 1);
}

#[test]
fn variadic_arguments_keep_their_commas() {
    let m = pragma_macros();
    let (_, toks) = expand_in(&m, "@ACCV(parallel loop gang, vector copy(a, b))").unwrap();
    let (found, other) = pragma_operators(&toks);
    assert!(!other);
    assert_eq!(found[0].0, "acc parallel loop gang, vector copy(a, b)");
}

#[test]
fn string_arguments_are_escaped_and_destringized_back() {
    let m = pragma_macros();
    let (_, toks) = expand_in(&m, "@PRAGMA(acc routine(f) bind(\"g\"))").unwrap();
    let (found, _) = pragma_operators(&toks);
    assert_eq!(found[0].0, "acc routine(f) bind(\"g\")");
}

#[test]
fn object_like_macros_and_other_tokens_are_told_apart() {
    let m = pragma_macros();
    let (_, toks) = expand_in(&m, "@LOOP").unwrap();
    assert_eq!(
        pragma_operators(&toks),
        (
            vec![(
                "acc loop".to_string(),
                pragma_operators(&toks).0[0].1.clone()
            )],
            false
        )
    );
    let mut m = pragma_macros();
    m.insert(
        "PFOR",
        def(None, false, "_Pragma(\"acc parallel loop\") for"),
    );
    let (_, toks) = expand_in(&m, "@PFOR").unwrap();
    let (found, other) = pragma_operators(&toks);
    assert_eq!(found.len(), 1);
    assert!(other, "the `for` the macro adds");
}

#[test]
fn pasting_makes_names_and_empty_arguments_vanish() {
    let mut m = pragma_macros();
    m.insert("CAT", def(Some(&["a", "b"]), false, "a ## b"));
    m.insert("accloop", def(None, false, "_Pragma(\"acc loop seq\")"));
    let (text, _) = expand_in(&m, "@CAT(acc, loop)").unwrap();
    assert_eq!(text, "_Pragma(\"acc loop seq\")");
    let (text, _) = expand_in(&m, "@CAT(, N)").unwrap();
    assert_eq!(text, "100");
    m.insert("BAD", def(Some(&["a"]), false, "a ## ("));
    assert!(expand_in(&m, "@BAD(x)")
        .unwrap_err()
        .contains("do not make one token"));
}

#[test]
fn a_macro_is_not_expanded_inside_itself() {
    let mut m = HashMap::new();
    m.insert("f", def(Some(&["x"]), false, "f(x + 1)"));
    m.insert("g", def(None, false, "g"));
    assert_eq!(expand_in(&m, "@f(1)").unwrap().0, "f(1 + 1)");
    assert_eq!(expand_in(&m, "@g").unwrap().0, "g");
    // C11 6.10.3.5's example: `f(f(z))` gives `f(f(z + 1) + 1)`.
    assert_eq!(expand_in(&m, "@f(f(z))").unwrap().0, "f(f(z + 1) + 1)");
}

#[test]
fn wrong_uses_are_errors_not_panics() {
    let m = pragma_macros();
    assert!(expand_in(&m, "@ACC(a, b)")
        .unwrap_err()
        .contains("takes 1 argument"));
    assert!(expand_in(&m, "@ACC(loop")
        .unwrap_err()
        .contains("do not end"));
    let mut m = HashMap::new();
    m.insert("X", def(None, false, "X X X X X X X X Y"));
    m.insert("Y", def(None, false, "X X X X X X X X Y"));
    // Each use of X inside Y's expansion is hidden from X only, not from Y: bounded anyway.
    assert!(expand_in(&m, "@X").is_ok());
    m.insert("H", def(Some(&["x"]), false, "#"));
    assert!(expand_in(&m, "@H(1)")
        .unwrap_err()
        .contains("not followed by a parameter"));
}

/// Token soup for definitions and uses: every input gives a result or an error, never a panic
/// or a hang (a deterministic generator, so a failure repeats).
#[test]
fn any_definitions_and_uses_expand_or_fail_cleanly() {
    const PIECES: &[&str] = &[
        "#",
        "##",
        "(",
        ")",
        ",",
        "...",
        "_Pragma",
        "\"acc loop\"",
        "\"a\\\"b\"",
        "x",
        "y",
        "A",
        "B",
        "F",
        "G",
        "__VA_ARGS__",
        "1",
        "L\"s\"",
        "'c'",
        "é",
        "/* c */",
        "\\\n",
        " ",
    ];
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    for _ in 0..3000 {
        let mut soup = |len: usize| -> String {
            (0..len)
                .map(|_| PIECES[next(PIECES.len())])
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut m = HashMap::new();
        for (name, params) in [
            ("A", None),
            ("B", None),
            ("F", Some(&["x"][..])),
            ("G", Some(&["x", "y"][..])),
        ] {
            let body = soup(6);
            m.insert(name, def(params, name == "G", &body));
        }
        let use_text = format!("@{}", soup(8));
        let _ = expand_in(&m, &use_text);
    }
}
