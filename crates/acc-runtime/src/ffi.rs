//! The C ABI boundary: every `extern "C"` entry point runs its body through [`guard`], which
//! turns both errors and panics into the runtime's one error path, so no panic unwinds into C.

use crate::error::{fatal, Error, ErrorKind, Result, Site};
use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs an entry point's body; an `Err` or a panic ends in `error::fatal`.
pub fn guard<R>(routine: &'static str, body: impl FnOnce() -> Result<R>) -> R {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => fatal(&e),
        Err(p) => fatal(&panic_error(&Site::routine(routine), p.as_ref())),
    }
}

/// An internal error describing a caught panic.
pub fn panic_error(site: &Site<'_>, payload: &(dyn Any + Send)) -> Error {
    let msg = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into());
    Error::new(
        ErrorKind::Internal,
        site,
        format!("internal error (a bug in the acc runtime): {msg}"),
    )
}
