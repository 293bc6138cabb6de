//! Translates and compiles the OpenACC C kernels into a static library,
//! and with the `bindgen` feature writes Rust declarations of src/heat.h to
//! `OUT_DIR/bindings.rs`.

fn main() {
    let mut build = acc_build::Build::new();
    build.file("src/kernels.c");
    if std::env::var_os("CARGO_FEATURE_BINDGEN").is_some() {
        build.bindings("src/heat.h");
    }
    build.compile("kernels");
}
