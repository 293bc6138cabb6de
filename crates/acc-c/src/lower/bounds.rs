//! Subarray starts evaluated once: each lower bound and subscript of a data clause's list item
//! that is not an integer literal (`a[lo():n]`, `b[k++][0:m]`, `x[lo:len]`) becomes a `const`
//! local of the construct that maps the item, set where the construct starts. (A length is
//! evaluated once, in the data table, as it is.)
//!
//! A construct names an item's start several times (its data table, the kernel's argument and
//! the argument's offset, a pointer's attachment), and a compute construct inside a `data`
//! region finds the region's part of an array again through that start: evaluated each time,
//! a bound with a side effect ran three times, and a bound variable the region changes
//! (`data copy(a[lo:5])`, then `lo = 0` in it) sent the inner launch looking for memory that
//! was never mapped. OpenACC 3.3 2.7.1 fixes the section when the clause is met, as C fixes an
//! argument when the call is: the local is that value.
//!
//! It owns the locals' names and declarations; what the tables hold is `data`'s.

use std::collections::HashMap;

use super::*;

/// The locals declared so far, and those the construct being lowered still has to declare.
#[derive(Default)]
pub(super) struct BoundLocals {
    /// An expression (its place and text, which tell two bounds from one macro apart) and
    /// the local holding its value, with the construct whose start declares it.
    names: HashMap<(usize, usize, String), (String, ConstructId)>,
    /// Declarations not yet written into a construct's text.
    pending: String,
    /// The construct being lowered.
    owner: Option<ConstructId>,
    count: usize,
}

impl Lowerer<'_> {
    /// Starts the lowering of construct `id`: the bounds its items and probes evaluate are
    /// declared in its text, those of the data regions around it reused.
    pub(super) fn start_bounds(&mut self, id: ConstructId) {
        debug_assert!(
            self.bounds.pending.is_empty(),
            "bound locals were declared and never written: {}",
            self.bounds.pending
        );
        self.bounds.pending.clear();
        self.bounds.owner = Some(id);
    }

    /// The value of a section's lower bound or a subscript, as the construct uses it: an integer
    /// literal as written, anything else through its local.
    pub(super) fn bound_value(&mut self, e: &acc_engine::directive::Expr) -> String {
        if e.int_value().is_some() {
            return format!("({})", e.text);
        }
        let key = (e.span.start, e.span.end, e.text.clone());
        let owner = self.bounds.owner;
        if let Some((name, declared_by)) = self.bounds.names.get(&key) {
            let in_scope = owner.is_some_and(|o| {
                o == *declared_by || self.unit.ancestors(o).any(|a| a == *declared_by)
            });
            if in_scope {
                return name.clone();
            }
        }
        let Some(owner) = owner else {
            return format!("({})", e.text);
        };
        self.bounds.count += 1;
        let name = format!("__acc_b{}", self.bounds.count);
        // `+ 0`: the promoted type, which a bit-field (`s.len`) has too, where `__typeof__`
        // of the bit-field itself is an error.
        let _ = write!(
            self.bounds.pending,
            "const __typeof__(({}) + 0) {name} = ({}); ",
            e.text, e.text
        );
        self.bounds.names.insert(key, (name.clone(), owner));
        name
    }

    /// The declarations the construct's items asked for since the last call, to write ahead
    /// of the first text that uses them.
    pub(super) fn take_bound_decls(&mut self) -> String {
        std::mem::take(&mut self.bounds.pending)
    }
}
