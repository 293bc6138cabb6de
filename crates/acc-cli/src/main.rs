//! The `acc` command.
fn main() {}
