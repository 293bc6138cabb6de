//! Clause validity of one directive.
