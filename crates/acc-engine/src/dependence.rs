//! The dependence test that lets an `auto` loop (any loop in `kernels`
//! without `independent` or `seq`) run in parallel: Clacc reads `auto` as
//! `seq`; we parallelize when the test proves the iterations independent
//! and keep `seq` otherwise, so the answer is never different.
//!
//! The test is deliberately simple and conservative: every array written
//! in the loop must be accessed through the same subscripts everywhere, one
//! of them `c * i + e` in the control variable `i`, so different iterations
//! touch different elements; no scalar declared outside the loop may be
//! assigned, nor such an array written through other subscripts, unless it
//! is private or a reduction variable; no function of unknown effect may be
//! called; no pointer written may alias another pointer or array used
//! (unless both are `restrict`); and the loop may not be left early.

use crate::facts::{DepFacts, Shape, Subscript, Unit, VarId};

/// Why a loop is not provably independent, or `Ok` when it is.
pub fn independent(unit: &Unit, deps: &DepFacts, allowed_writes: &[VarId]) -> Result<(), String> {
    if let Some(_span) = deps.early_exit {
        return Err("the loop may be left early".into());
    }
    if let Some((name, _)) = deps.calls.first() {
        return Err(if name == crate::facts::INDIRECT_STORE {
            "it stores through a pointer or member whose target the dependence test cannot \
             follow"
                .into()
        } else {
            format!("it calls `{name}`, whose effects are unknown")
        });
    }
    if let Some((v, _)) = deps
        .scalar_writes
        .iter()
        .find(|(v, _)| !allowed_writes.contains(v))
    {
        return Err(format!("every iteration assigns `{}`", unit.var(*v).name));
    }
    // An array the body declares is a fresh one each pass, and a private one (`loop gang
    // private(w)`) each iteration's: no iteration sees another's.
    let written: Vec<VarId> = deps
        .accesses
        .iter()
        .filter(|a| {
            a.write
                && !deps.span.contains(unit.var(a.var).decl_span)
                && !allowed_writes.contains(&a.var)
        })
        .map(|a| a.var)
        .collect();
    for &w in &written {
        let mut all = deps.accesses.iter().filter(|a| a.var == w);
        let first = all.next().expect("a written variable has an access");
        let same = all.all(|a| {
            a.subscripts.len() == first.subscripts.len()
                && a.subscripts
                    .iter()
                    .zip(&first.subscripts)
                    .all(|(x, y)| x.0 == y.0)
        });
        let distinct = first
            .subscripts
            .iter()
            .any(|s| matches!(s.1, Subscript::Affine(c) if c != 0));
        if !same || !distinct {
            return Err(format!(
                "`{}` may be written by one iteration and used by another",
                unit.var(w).name
            ));
        }
        let restrict =
            |v: VarId| unit.pointers_do_not_alias || unit.var(v).decl_text.contains("restrict");
        for a in &deps.accesses {
            if a.var == w {
                continue;
            }
            let pointer = |v: VarId| unit.var(v).shape == Shape::Pointer;
            match (pointer(w), pointer(a.var)) {
                (true, true) if !(restrict(w) && restrict(a.var)) => {
                    return Err(format!(
                        "`{}` and `{}` may point to the same data (declare the pointers \
                         `restrict`)",
                        unit.var(w).name,
                        unit.var(a.var).name
                    ));
                }
                // A pointer and an array: a `restrict` pointer reaches no object the block
                // names otherwise (C11 6.7.3.1), so the pointer's own qualifier is enough.
                (true, false) | (false, true) => {
                    let (p, array) = if pointer(w) { (w, a.var) } else { (a.var, w) };
                    if !restrict(p) {
                        return Err(format!(
                            "`{}` may point into `{}` (declare `{}` `restrict`)",
                            unit.var(p).name,
                            unit.var(array).name,
                            unit.var(p).name
                        ));
                    }
                }
                _ => {}
            }
        }
    }
    Ok(())
}
