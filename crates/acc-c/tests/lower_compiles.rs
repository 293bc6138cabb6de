//! Random OpenACC programs built from a grammar of constructs and clauses:
//! whatever `lower_file` accepts compiles (`cc -fsyntax-only -Wall -Wextra
//! -Werror` with the runtime headers), and nothing panics.

use std::path::PathBuf;
use std::process::Command;

use proptest::prelude::*;

const COMPUTE: &[&str] = &[
    "parallel loop",
    "parallel loop gang vector",
    "parallel loop collapse(2)",
    "kernels loop independent",
    "serial loop",
    "kernels",
    "parallel",
    "parallel num_gangs(4) vector_length(32)",
];
const CLAUSES: &[&str] = &[
    "copy(a[0:n])",
    "copyin(b[0:n])",
    "copyout(c[0:n])",
    "create(t[0:n])",
    "present_or_copy(a[0:n])",
    "firstprivate(k)",
    "private(tmp)",
    "reduction(+:s)",
    "reduction(max:m)",
    "async(1)",
    "wait",
    "if(n > 2)",
    "self(n < 0)",
    "default(present)",
    "no_create(c[0:n])",
    "num_workers(2)",
];
const BODIES: &[&str] = &[
    "a[i] = b[i] + k;",
    "s += a[i];",
    "m = a[i] > m ? a[i] : m;",
    "tmp = a[i]; c[i] = tmp * 2;",
    "for (int j = 0; j < 4; j++) t[i] += j;",
    "if (a[i] > 0) c[i] = 1;",
];

fn program(compute: usize, clauses: &[usize], body: &[usize], wrap_data: bool) -> String {
    let kind = COMPUTE[compute];
    let clauses: Vec<&str> = clauses.iter().map(|&c| CLAUSES[c]).collect();
    let body: String = body
        .iter()
        .map(|&b| format!("      {}\n", BODIES[b]))
        .collect();
    let is_loop = kind.contains("loop");
    let collapse = kind.contains("collapse");
    let mut s = String::from("#include <stdlib.h>\ndouble f(int n, double *a, double *b, double *c, double *t, int k) {\n  double s = 0, m = 0, tmp = 0;\n  (void)a; (void)b; (void)c; (void)t; (void)k;\n");
    if wrap_data {
        s.push_str("  #pragma acc data copy(a[0:n], c[0:n]) copyin(b[0:n])\n  {\n");
    }
    s.push_str(&format!("  #pragma acc {kind} {}\n", clauses.join(" ")));
    if is_loop {
        if collapse {
            s.push_str("  for (int i = 0; i < n; i++)\n    for (int q = 0; q < 2; q++) {\n");
        } else {
            s.push_str("  for (int i = 0; i < n; i++) {\n");
        }
        s.push_str(&body);
        s.push_str("  }\n");
    } else {
        s.push_str("  {\n    #pragma acc loop\n    for (int i = 0; i < n; i++) {\n");
        s.push_str(&body);
        s.push_str("    }\n  }\n");
    }
    if wrap_data {
        s.push_str("  }\n");
    }
    s.push_str("  #pragma acc wait\n  (void)tmp;\n  return s + m;\n}\n");
    s
}

fn cc_ok() -> bool {
    let found = Command::new("cc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("ACC_REQUIRE_TOOLS").is_none(),
            "cc is required"
        );
        eprintln!("skipped: no cc");
    }
    found
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn accepted_programs_compile(
        compute in 0..COMPUTE.len(),
        clauses in proptest::collection::vec(0..CLAUSES.len(), 0..4),
        body in proptest::collection::vec(0..BODIES.len(), 1..4),
        wrap_data in any::<bool>(),
    ) {
        if !cc_ok() {
            return Ok(());
        }
        let src = program(compute, &clauses, &body, wrap_data);
        let opts = acc_c::lower::LowerOptions {
            file_name: "gen.c".into(),
            ..Default::default()
        };
        let (lowered, diags) = acc_c::lower::lower_file(&src, Default::default(), &opts);
        let Some(lowered) = lowered else {
            // Rejected programs have an error that says why.
            prop_assert!(diags.iter().any(|d| d.is_error()), "{src}");
            return Ok(());
        };
        let scratch = tempfile::Builder::new().prefix("acc-lower-compiles-").tempdir().unwrap();
        let dir = scratch.path();
        let file = dir.join("gen.acc.c");
        std::fs::write(&file, &lowered.host_c).unwrap();
        let include = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../acc-runtime/include");
        let out = Command::new("cc")
            .args(["-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-D_OPENACC=202211"])
            .arg("-isystem")
            .arg(&include)
            .arg(&file)
            .output()
            .unwrap();
        prop_assert!(
            out.status.success(),
            "the lowering of\n{src}\ndoes not compile:\n{}\n{}",
            String::from_utf8_lossy(&out.stderr),
            lowered.host_c
        );
    }
}
