//! Loops: partitioning (`auto` converted, implicit `gang` placed as
//! "Implicit Gang Clauses" says) and loop DSAs (the loop control variables
//! predetermined `private`, a partitioned loop's scalar temporaries *imp* `private`, the rest
//! *imp* `shared`).
//!
//! A `loop worker vector` (or `worker`, `vector`) with no gang loop around it gets *imp*
//! `gang` too: the seed's rule has no "not `worker`, not `vector`" condition, because existing
//! implementations partition such a loop over gangs. GCC does not (it leaves the loop
//! gang-redundant, and its testsuite's `reduction-7.c` expects every gang to see the whole
//! sum); with acc, as with Clacc, gang-redundant worker or vector partitioning is written as
//! an orphaned loop in a `routine worker`/`vector`.
//!
//! It runs after the explicit attributes and before the compute constructs'
//! implicit ones, which depend on its partitioning (reduction promotion
//! needs to know the gang loops).

use crate::directive::ClauseKind;

use super::*;

impl Cx<'_> {
    /// Loop partitioning: `auto` conversion, then implicit `gang` placement
    /// ("Implicit Gang Clauses").
    pub(super) fn partition_loops(&mut self) {
        let loops: Vec<EffId> = (0..self.an.effs.len() as u32)
            .map(EffId)
            .filter(|&e| self.an.eff(e).kind == EffKind::Loop)
            .collect();
        // Explicit partitioning after `auto` conversion.
        for &l in &loops {
            let compute = self.an.eff(l).compute.map(|c| self.an.eff(c).kind);
            let exp_seq = self.has_clause(l, ClauseKind::Seq);
            let auto = self.has_clause(l, ClauseKind::Auto);
            let independent = self.has_clause(l, ClauseKind::Independent);
            let mut p = Partition {
                gang: self
                    .has_clause(l, ClauseKind::Gang)
                    .then_some(GangOrigin::Exp),
                worker: self.has_clause(l, ClauseKind::Worker),
                vector: self.has_clause(l, ClauseKind::Vector),
                seq: false,
                exp_seq,
            };
            // Clacc's prescriptive reading: `auto` becomes `seq`; a loop in
            // `kernels` without `independent` is `auto`; everything in
            // `serial` runs on one gang, worker and vector lane.
            let kernels_auto = compute == Some(EffKind::Kernels) && !independent;
            if exp_seq || auto || kernels_auto || compute == Some(EffKind::Serial) {
                p.seq = true;
                p.gang = None;
                p.worker = false;
                p.vector = false;
            }
            self.an.effs[l.0 as usize].partition = p;
        }
        // Implicit gang placement: only inside `parallel`.
        let in_parallel = |an: &Analysis, l: EffId| {
            // Kernels loops that are `independent` are placed the same way.
            matches!(
                an.eff(l).compute.map(|c| an.eff(c).kind),
                Some(EffKind::Parallel | EffKind::Kernels)
            )
        };
        let loop_ancestors = |an: &Analysis, l: EffId| -> Vec<EffId> {
            an.eff_ancestors(l)
                .take_while(|&a| an.eff(a).kind == EffKind::Loop)
                .collect()
        };
        // Loops with a nested loop that has exp gang may not have gang.
        let mut has_nested_gang = std::collections::HashSet::new();
        for &d in &loops {
            if self.an.eff(d).partition.gang == Some(GangOrigin::Exp) {
                has_nested_gang.extend(loop_ancestors(&self.an, d));
            }
        }
        let mut permitted = BTreeMap::new();
        for &l in &loops {
            let an = &self.an;
            let p = an.eff(l).partition;
            let ancestor_levels = loop_ancestors(an, l).iter().any(|&a| {
                let q = an.eff(a).partition;
                q.gang.is_some() || q.worker || q.vector
            });
            permitted.insert(
                l,
                !p.seq && !ancestor_levels && !has_nested_gang.contains(&l),
            );
        }
        for &l in &loops {
            let an = &self.an;
            let p = an.eff(l).partition;
            let ancestor_permitted = loop_ancestors(an, l).iter().any(|a| permitted[a]);
            if in_parallel(an, l) && p.gang.is_none() && permitted[&l] && !ancestor_permitted {
                self.an.effs[l.0 as usize].partition.gang = Some(GangOrigin::Imp);
            }
        }
        for &l in &loops {
            let p = &mut self.an.effs[l.0 as usize].partition;
            if p.gang.is_none() && !p.worker && !p.vector {
                p.seq = true;
            }
        }
    }

    /// Loop DSAs: the loop control variables, then *imp* `shared`.
    pub(super) fn loop_attrs(&mut self) {
        for e in 0..self.an.effs.len() as u32 {
            let e = EffId(e);
            if self.an.eff(e).kind != EffKind::Loop {
                continue;
            }
            let c = self.unit.construct(self.an.eff(e).construct);
            let exp_seq = self.an.eff(e).partition.exp_seq;
            let mut attrs = std::mem::take(&mut self.an.effs[e.0 as usize].attrs);
            for l in &c.loops {
                let Some(var) = l.control else { continue };
                let slot = attrs_slot(&mut attrs, var);
                if slot.dsa.is_some() {
                    continue;
                }
                // "Loop Control Variables": an assigned control variable of
                // an explicit `seq` loop stays shared, so its final value is
                // visible after the loop; otherwise it is predetermined
                // private.
                slot.dsa = Some(if exp_seq && !l.declared_in_init {
                    (Dsa::Shared, Origin::Imp)
                } else {
                    (Dsa::Private, Origin::Pre)
                });
            }
            // A partitioned loop's scalars that each iteration assigns before reading and
            // nothing reads after it (`DepFacts::iteration_locals`): *imp* `private`. Not
            // Clacc's rule, which leaves them to the construct (shared, and in `kernels` its
            // implicit `copy`, OpenACC 3.3 2.6.2): the iterations then race on them, as in
            // OpenMP the threads of the `parallel for` would. nvc and GCC privatize such
            // temporaries (code written for them declares them at the function's top, C89
            // style), acc's runtime does (`plan::loop_privates`), and the OpenMP form must give
            // the answer acc's runtime gives.
            if !self.an.eff(e).partition.seq {
                let locals = c.loops.first().and_then(|f| f.deps.as_ref());
                for &var in locals.map_or(&[][..], |d| &d.iteration_locals[..]) {
                    let slot = attrs_slot(&mut attrs, var);
                    slot.dsa.get_or_insert((Dsa::Private, Origin::Imp));
                }
            }
            if let Some(body) = c.body {
                for var in self.referenced_outside(e, body) {
                    let slot = attrs_slot(&mut attrs, var);
                    slot.dsa.get_or_insert((Dsa::Shared, Origin::Imp));
                }
            }
            self.an.effs[e.0 as usize].attrs = attrs;
        }
    }
}
