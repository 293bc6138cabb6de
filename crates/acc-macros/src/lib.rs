//! acc-macros: the Rust front end (`#[acc::parallel]` and friends).
//!
//! Not yet implemented: see the Rust front-end issue. It will parse Rust with
//! syn and ask acc-engine for every OpenACC decision.
