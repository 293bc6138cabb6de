//! Tells the build scripts of the crates that depend on `acc` that its
//! runtime is linked: with `links = "acc"`, cargo gives them
//! `DEP_ACC_RUNTIME`, which acc-build checks before compiling C that calls
//! the runtime.

fn main() {
    println!("cargo::metadata=runtime={}", env!("CARGO_PKG_VERSION"));
    println!("cargo::rerun-if-changed=build.rs");
}
