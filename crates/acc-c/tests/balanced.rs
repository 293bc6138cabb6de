//! Which gang loops the lowering deals out in balanced blocks: those whose iterations differ
//! in work (an inner loop bounded by the loop's variable), and no others.

use acc_c::lower::{lower_file, LowerOptions};

fn lowered(body: &str) -> acc_c::lower::Lowered {
    let src = format!(
        "void k(int n, const int *row, double *a) {{\n#pragma acc parallel loop copy(a[0:n*n]) copyin(row[0:n+1])\n{body}\n}}\n"
    );
    let opts = LowerOptions {
        file_name: "k.c".into(),
        ..Default::default()
    };
    let (l, d) = lower_file(&src, Default::default(), &opts);
    l.unwrap_or_else(|| panic!("{d:?}"))
}

/// Whether the kernel's gang loop runs in rounds of balanced blocks.
fn balanced(body: &str) -> bool {
    let l = lowered(body);
    let host = &l.host_c;
    let rounds = host.contains("__acc_rd");
    if rounds {
        // On a GPU iterations are dealt out one at a time: one round.
        let cuda = l.cuda_c.expect("a CUDA module");
        assert!(cuda.contains("#define __ACC_ROUNDS(t) 1LL"), "{cuda}");
    }
    rounds
}

#[test]
fn triangles_and_sparse_rows_are_balanced() {
    assert!(balanced(
        "for (int i = 0; i < n; i++)\n  for (int j = 0; j <= i; j++) a[i * n + j] += 1;"
    ));
    assert!(balanced(
        "for (int i = 0; i < n; i++)\n  for (int k = row[i]; k < row[i + 1]; k++) a[k] += 1;"
    ));
}

#[test]
fn rectangles_keep_contiguous_chunks() {
    assert!(!balanced(
        "for (int i = 0; i < n; i++)\n  for (int j = 0; j < n; j++) a[i * n + j] += 1;"
    ));
    assert!(!balanced("for (int i = 0; i < n; i++) a[i] = 0;"));
}
