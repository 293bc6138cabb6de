//! acc-c: the C front end.
//!
//! It owns C syntax: the tree-sitter parse, scopes and declarations, the
//! statement each `#pragma acc` applies to, the facts acc-engine needs, and
//! source-to-source printing by editing the original text.
//!
//! It must not decide OpenACC semantics (that is acc-engine's) and does no
//! I/O beyond running the user's preprocessor when asked.
