//! Compile-fail tests of the Rust front end: each clause error and unsupported construct has a
//! `.stderr` with the span under the right token. Refresh with `TRYBUILD=overwrite` and review.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*/*.rs");
}
