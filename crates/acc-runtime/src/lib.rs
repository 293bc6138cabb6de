//! acc-runtime: the OpenACC runtime shared by compiled C and expanded Rust.
//!
//! It knows nothing of C or Rust syntax.
