//! acc-build: compile OpenACC C from a `build.rs`.
//!
//! Not yet implemented: see the acc-build issue.
