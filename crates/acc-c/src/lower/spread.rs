//! GPU spreading plans: whether and how a kernel's CUDA version spreads its worker and vector
//! loops over a block's threads (lanes) or rows, which statements run once per gang or on one
//! lane, and the spread loops' headers with their reductions across lanes.
//!
//! It must not know the host side; it writes only inside the kernel body.

use super::reduction::{lane_identity, reduction_items};
use super::*;

/// Over which of a CUDA block's threads a worker/vector loop is spread (see [`Lanes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SpreadLevel {
    /// All of them (`__ACC_V*`).
    Block,
    /// The rows, `threadIdx.y` (`__ACC_W*`): a worker loop with vector loops inside.
    Rows,
    /// The lanes of a row, `threadIdx.x` (`__ACC_X*`): those vector loops.
    RowLanes,
}

/// How a kernel's CUDA version spreads worker and vector loops over a block's threads
/// (`CudaMode::Lanes`): the blocks share out the gang loops' iterations, and inside each, the
/// outermost worker or vector loops are spread over the block's threads.
pub(super) struct Lanes {
    /// Those worker/vector loops.
    pub(super) spread: Vec<ConstructId>,
    /// Vector-single statements that write data other threads see (array elements, variables
    /// declared outside the gang loop, atomics): run on the block's first thread.
    pub(super) single: Vec<Span>,
    /// Worker loops among `spread` that contain vector loops: spread over the block's rows
    /// (`threadIdx.y`) instead, with `row_spread` over each row's lanes (`CudaMode::Rows`).
    pub(super) rows: Vec<ConstructId>,
    /// The outermost vector loops inside `rows`.
    pub(super) row_spread: Vec<ConstructId>,
    /// Statements of a `rows` loop's body outside its vector loops that write data other
    /// lanes see, or the worker loop's reduction variables: run on the row's first lane.
    pub(super) row_single: Vec<Span>,
}

/// Whether each CUDA thread has its own copy of `v` in kernel `k`: a private or
/// firstprivate variable, or a value argument.
pub(super) fn per_thread(k: &KernelPlan, v: VarId) -> bool {
    k.private.contains(&v)
        || k.loops.iter().any(|l| l.private.contains(&v))
        || k.params.iter().any(|p| p.var == v && p.pass == Pass::Value)
}

/// The top-level statements of a compute region: those of its block, or its one statement
/// when that is not a block (a loop directly under `parallel`); none for a combined construct
/// (`parallel loop`), whose statement is its own loop.
pub(super) fn region_statements(c: &acc_engine::facts::Construct) -> Vec<Span> {
    match c.body {
        _ if c.directive.kind.is_combined() => Vec::new(),
        Some(b) if c.statements.is_empty() => vec![b],
        _ => c.statements.clone(),
    }
}

impl<'a> Lowerer<'a> {
    /// Whether the kernel's CUDA version can run in lanes mode ([`Lanes`]), and how. Every
    /// outermost gang loop of `body` (none of them worker or vector itself) must contain
    /// worker or vector loops, whose reductions are on scalars declared inside the gang loop;
    /// the code around them (vector-single code, which every thread of a block runs) may
    /// call no function of unknown effect, and each of its writes of data other threads see
    /// must stand in a statement of the gang loop's body that contains no such loop (that
    /// statement then runs on one thread). Anything else keeps the threads mode, which is
    /// always exact.
    pub(super) fn lanes_plan(&self, id: ConstructId, k: &KernelPlan, body: Span) -> Option<Lanes> {
        let inside =
            |c: ConstructId, outer: ConstructId| self.unit.ancestors(c).any(|a| a == outer);
        let in_body = |c: ConstructId| c == id || body.contains(self.unit.construct(c).pragma_span);
        let threads = |l: &LoopPlan| !l.partition.seq && (l.partition.worker || l.partition.vector);
        let gangs: Vec<&LoopPlan> = k
            .loops
            .iter()
            .filter(|l| l.partition.gang.is_some() && in_body(l.construct))
            .filter(|l| {
                !k.loops
                    .iter()
                    .any(|o| o.partition.gang.is_some() && inside(l.construct, o.construct))
            })
            .collect();
        if gangs.is_empty() {
            return None;
        }
        let mut lanes = Lanes {
            spread: Vec::new(),
            single: Vec::new(),
            rows: Vec::new(),
            row_spread: Vec::new(),
            row_single: Vec::new(),
        };
        for g in gangs {
            if g.partition.worker || g.partition.vector {
                return None;
            }
            let gc = self.unit.construct(g.construct);
            let deps = gc.loops.first()?.deps.as_ref()?;
            let innermost = gc.loops.get(g.depth.max(1) - 1)?;
            let gbody = gc.body?;
            // The outermost worker/vector loops inside this gang loop.
            let spread =
                self.outermost_inside(k, g.construct, |l| threads(l) && l.partition.gang.is_none());
            // Reductions across the lanes: builtin scalars private to the gang iteration.
            if spread.is_empty() || !self.lane_reductions(&spread, gbody) {
                return None;
            }
            let spans: Vec<Span> = spread
                .iter()
                .map(|l| self.statement_of(l.construct))
                .collect();
            let outside = |s: Span| !spans.iter().any(|v| v.contains(s));
            if deps.early_exit.is_some() || deps.calls.iter().any(|(_, s)| outside(*s)) {
                return None;
            }
            if self
                .lanes_write_a_level_array(k, &g.private, gbody, &spans, deps)
                .is_some()
            {
                return None;
            }
            // Each thread has its own copy of a private or firstprivate variable: every thread
            // must write it. Shared data (and gang reductions, counted once a gang) gets one
            // writer.
            let mut writes: Vec<Span> = deps
                .accesses
                .iter()
                .filter(|a| a.write && !per_thread(k, a.var))
                .map(|a| a.span)
                .chain(
                    deps.scalar_writes
                        .iter()
                        .filter(|w| !per_thread(k, w.0))
                        .map(|w| w.1),
                )
                .filter(|s| outside(*s))
                .collect();
            writes.extend(self.atomics_in(gbody).filter(|s| outside(*s)));
            for s in self.single_statements(innermost, &spans, writes)? {
                if !lanes.single.contains(&s) {
                    lanes.single.push(s);
                }
            }
            lanes.spread.extend(spread.iter().map(|l| l.construct));
            for w in spread
                .iter()
                .filter(|l| l.partition.worker && !l.partition.vector)
            {
                if let Some((xs, single)) = self.row_plan(k, w, body) {
                    lanes.rows.push(w.construct);
                    lanes.row_spread.extend(xs);
                    lanes.row_single.extend(single);
                }
            }
        }
        Some(lanes)
    }

    /// Whether a worker loop `w` that [`Self::lanes_plan`] spreads can go over the block's
    /// rows instead, its outermost vector loops over each row's lanes (`CudaMode::Rows`), and
    /// which of its statements then run on a row's first lane. The rules are the lanes rules
    /// one level down: the vector loops' reductions are on builtin scalars declared inside
    /// the worker loop (every lane of the row gets the result); the worker-single code around
    /// them (which every lane of the row runs) calls no function of unknown effect and writes
    /// no variable declared in the construct outside the worker loop (a copy each thread has)
    /// but the worker loop's reduction variables and private copies; each of its writes of
    /// shared data, and each update of a
    /// reduction variable (counted once a row: the other lanes keep the identity), stands in
    /// a statement of the worker loop's body that contains no vector loop. Otherwise the
    /// worker loop stays spread over all the block's threads, its vector loops in order.
    pub(super) fn row_plan(
        &self,
        k: &KernelPlan,
        w: &LoopPlan,
        body: Span,
    ) -> Option<(Vec<ConstructId>, Vec<Span>)> {
        let vector = |l: &LoopPlan| !l.partition.seq && l.partition.vector;
        let wc = self.unit.construct(w.construct);
        let wbody = wc.body?;
        let deps = wc.loops.first()?.deps.as_ref()?;
        let innermost = wc.loops.get(w.depth.max(1) - 1)?;
        let xs = self.outermost_inside(k, w.construct, vector);
        if xs.is_empty() || !self.lane_reductions(&xs, wbody) {
            return None;
        }
        let worker_reductions: Vec<VarId> =
            reduction_items(wc)?.into_iter().map(|(_, v)| v).collect();
        let spans: Vec<Span> = xs.iter().map(|l| self.statement_of(l.construct)).collect();
        let outside = |s: Span| !spans.iter().any(|v| v.contains(s));
        if deps.early_exit.is_some() || deps.calls.iter().any(|(_, s)| outside(*s)) {
            return None;
        }
        if self
            .lanes_write_a_level_array(k, &w.private, wbody, &spans, deps)
            .is_some()
        {
            return None;
        }
        // A private copy (`loop worker private(off)`, a firstprivate) is each thread's own:
        // every lane computes it, as one lane's write would not reach the others. Other
        // variables declared outside the construct are shared data, written by one lane; one
        // declared inside it that is nobody's copy keeps the worker loop off the rows.
        let mut writes = Vec::new();
        for &(v, at) in deps.scalar_writes.iter().filter(|w| outside(w.1)) {
            let local = body.contains(self.unit.var(v).decl_span);
            if worker_reductions.contains(&v) {
                writes.push(at);
            } else if per_thread(k, v) {
                continue;
            } else if !local {
                writes.push(at);
            } else {
                return None;
            }
        }
        writes.extend(
            deps.accesses
                .iter()
                .filter(|a| a.write && !per_thread(k, a.var) && outside(a.span))
                .map(|a| a.span),
        );
        writes.extend(self.atomics_in(wbody).filter(|s| outside(*s)));
        let single = self.single_statements(innermost, &spans, writes)?;
        Some((xs.iter().map(|l| l.construct).collect(), single))
    }

    /// Whether a loop spread over threads (`spread`, statements inside the body `scope` of a
    /// gang or worker loop whose private copies are `level_private`) writes an array that is
    /// that level's own (OpenACC 3.3 2.9.10: a gang's private array is shared by its workers
    /// and vector lanes; 2.6.1: so is one declared in the gang's code): one copy for all the
    /// threads, where each thread's copy would hold only the elements its lanes wrote, and
    /// the next spread loop, reading another lane's, would read nothing. Such a loop is not
    /// spread; the level's iterations then run on one thread each, their loops in order.
    fn lanes_write_a_level_array(
        &self,
        k: &KernelPlan,
        level_private: &[VarId],
        scope: Span,
        spread: &[Span],
        deps: &acc_engine::facts::DepFacts,
    ) -> Option<String> {
        use acc_engine::facts::Shape;
        let in_spread = |at: Span| spread.iter().any(|s| s.contains(at));
        let written = deps.accesses.iter().find(|a| {
            let var = self.unit.var(a.var);
            let lane_own = k.loops.iter().any(|l| {
                l.private.contains(&a.var)
                    && in_spread(self.unit.construct(l.construct).pragma_span)
            });
            a.write
                && in_spread(a.span)
                && matches!(var.shape, Shape::Array | Shape::Aggregate)
                && !lane_own
                && !in_spread(var.decl_span)
                && (level_private.contains(&a.var)
                    || k.private.contains(&a.var)
                    || scope.contains(var.decl_span)
                    || k.params
                        .iter()
                        .any(|p| p.var == a.var && p.pass == Pass::Value))
        });
        written.map(|a| self.unit.var(a.var).name.clone())
    }

    /// The array of a gang's own that its spread loops write, which keeps the kernel off the
    /// lanes mode ([`Self::lanes_write_a_level_array`]): for `--info`.
    pub(super) fn gang_array_lanes_write(&self, k: &KernelPlan) -> Option<String> {
        let threads = |l: &LoopPlan| !l.partition.seq && (l.partition.worker || l.partition.vector);
        k.loops
            .iter()
            .filter(|g| g.partition.gang.is_some())
            .find_map(|g| {
                let gc = self.unit.construct(g.construct);
                let deps = gc.loops.first()?.deps.as_ref()?;
                let spread = self
                    .outermost_inside(k, g.construct, |l| threads(l) && l.partition.gang.is_none());
                let spans: Vec<Span> = spread
                    .iter()
                    .map(|l| self.statement_of(l.construct))
                    .collect();
                self.lanes_write_a_level_array(k, &g.private, gc.body?, &spans, deps)
            })
    }

    /// A construct's statement: its directive through the end of its body.
    pub(super) fn statement_of(&self, c: ConstructId) -> Span {
        let x = self.unit.construct(c);
        Span::new(
            x.pragma_span.start,
            x.body.map_or(x.pragma_span.end, |b| b.end),
        )
    }

    /// The loops of `k` inside `outer` that `pick` takes and that are inside no other loop it
    /// takes there.
    pub(super) fn outermost_inside<'k>(
        &self,
        k: &'k KernelPlan,
        outer: ConstructId,
        pick: impl Fn(&LoopPlan) -> bool,
    ) -> Vec<&'k LoopPlan> {
        let inside =
            |c: ConstructId, outer: ConstructId| self.unit.ancestors(c).any(|a| a == outer);
        k.loops
            .iter()
            .filter(|l| pick(l) && inside(l.construct, outer))
            .filter(|l| {
                !k.loops.iter().any(|o| {
                    pick(o) && inside(l.construct, o.construct) && inside(o.construct, outer)
                })
            })
            .collect()
    }

    /// Whether the reductions of `loops` can be combined across a block's (or a row's)
    /// threads: builtin scalars with an identity there, declared inside `scope` (so that each
    /// iteration of the loop around has its own).
    pub(super) fn lane_reductions(&self, loops: &[&LoopPlan], scope: Span) -> bool {
        loops.iter().all(|l| {
            reduction_items(self.unit.construct(l.construct)).is_some_and(|items| {
                items.iter().all(|&(op, v)| {
                    let var = self.unit.var(v);
                    scope.contains(var.decl_span)
                        && var.scalar.is_some_and(|t| lane_identity(op, t).is_some())
                })
            })
        })
    }

    /// The directives of the `atomic` constructs in `span`.
    pub(super) fn atomics_in(&self, span: Span) -> impl Iterator<Item = Span> + '_ {
        self.unit
            .constructs
            .iter()
            .filter(|c| c.directive.kind == DirectiveKind::Atomic)
            .map(|c| c.pragma_span)
            .filter(move |s| span.contains(*s))
    }

    /// The statements of a loop body (`innermost`'s) that hold `writes`, which one thread
    /// then runs while the others wait at a barrier; `None` when one cannot: a declaration
    /// (its names must stay in scope), a statement holding a spread loop (`spread`: every
    /// thread must run it), or one with a `continue` (it would leave the others behind at the
    /// next barrier).
    pub(super) fn single_statements(
        &self,
        innermost: &acc_engine::facts::LoopFacts,
        spread: &[Span],
        writes: Vec<Span>,
    ) -> Option<Vec<Span>> {
        let mut single: Vec<Span> = Vec::new();
        for at in writes {
            let s = *innermost.body_statements.iter().find(|s| s.contains(at))?;
            if innermost.body_declarations.contains(&s)
                || spread.iter().any(|v| s.contains(*v))
                || has_word(&self.src[s.range()], "continue")
            {
                return None;
            }
            if !single.contains(&s) {
                single.push(s);
            }
        }
        Some(single)
    }

    /// The edits that spread a worker/vector loop of a lanes kernel over the block's threads:
    /// its header, its reductions across the lanes, the barrier after it.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn spread_loop(
        &mut self,
        cid: ConstructId,
        depth: usize,
        level: SpreadLevel,
        privates: &str,
        ref_edits: &mut Vec<Edit>,
        edits: &mut Vec<Edit>,
    ) -> bool {
        let c = self.unit.construct(cid);
        let Some(body) = c.body else { return false };
        let (prefix, reduce) = match level {
            SpreadLevel::Block => ("__ACC_V", "__acc_block_reduce"),
            SpreadLevel::Rows => ("__ACC_W", "__acc_block_reduce"),
            SpreadLevel::RowLanes => ("__ACC_X", "__acc_row_reduce"),
        };
        let mut open = privates.to_string();
        let Some((header_span, header_text, closers)) = self.gang_loop_of(
            &c.loops,
            c.directive.name_span,
            depth,
            ref_edits,
            &mut open,
            prefix,
            None,
        ) else {
            return false;
        };
        let (mut red_open, mut red_close) = (String::new(), String::new());
        for (ci, clause) in c.directive.clauses.iter().enumerate() {
            let ClauseArgs::Reduction { op, items, .. } = &clause.args else {
                continue;
            };
            for ii in 0..items.len() {
                let Some(Some(v)) = c.clause_vars.get(ci).and_then(|x| x.get(ii)) else {
                    continue;
                };
                let var = self.unit.var(*v);
                let (Some(scalar), name) = (var.scalar, &var.name) else {
                    continue;
                };
                let Some(identity) = lane_identity(*op, scalar) else {
                    continue;
                };
                let saved = format!("__acc_vo_{name}");
                let ty = declare_as(self.unit, *v, "");
                let f = acc_engine::cuda::functor(*op);
                let _ = write!(
                    red_open,
                    "{prefix}RED_BEGIN({} = {name}, {} = {identity}) ",
                    declare_as(self.unit, *v, &saved),
                    declare_as(self.unit, *v, name)
                );
                red_close.insert_str(
                    0,
                    &format!(
                        " {prefix}RED_END(({saved} = {f}()({saved}, {reduce}<{ty}>({name}, {f}()))), {name} = {saved})"
                    ),
                );
            }
        }
        edits.push(Edit::remove(c.pragma_span));
        ref_edits.retain(|e| !(header_span.start <= e.start && e.end <= header_span.end));
        edits.push(Edit {
            start: header_span.start,
            end: header_span.end,
            text: format!("{red_open}{{ {open}{header_text}"),
            order: 0,
            line_after: false,
        });
        let depth_of = self.unit.ancestors(cid).count() as i64;
        edits.push(Edit {
            start: body.end,
            end: body.end,
            text: format!("{closers} }} {prefix}SYNC{red_close}"),
            order: -depth_of * 2,
            line_after: false,
        });
        true
    }

    /// The gang-redundant code of a `parallel` region that must run once per gang: an atomic,
    /// a use of a reduction variable, outside every gang loop. Returns the region's top-level
    /// statements that hold such code and no gang loop (the CUDA module runs them on a block's
    /// first thread, `__ACC_REDUNDANT_BEGIN/END`; declarations are never among them, their
    /// names must stay in scope), and whether such code also stands in a statement that holds
    /// a gang loop (say a sequential loop around one): the barrier after a first-thread
    /// statement needs every thread, so that kernel's CUDA blocks are one thread each, every
    /// thread a gang. Other gang-redundant code may run on every thread of a block: it only
    /// sets the region's locals (which every thread needs) or races between gangs anyway.
    /// Whether a `parallel num_gangs(1)` region runs gang-redundant code around its gang
    /// loops (a sequential loop around them, or statements before, between or after them).
    /// With one gang that code sees every element each gang loop wrote (the gang is the only
    /// one), so the program may depend on it, as PolyBench's single-gang sweeps do; the
    /// threads mode, where every CUDA thread is a gang, would make it a race.
    pub(super) fn one_gang_around_gang_loops(&self, id: ConstructId, k: &KernelPlan) -> bool {
        let c = self.unit.construct(id);
        let one_gang = self
            .clause_expr(id, ClauseKind::NumGangs)
            .is_some_and(|e| e.trim().trim_matches(|ch| ch == '(' || ch == ')').trim() == "1");
        // A combined construct's region is its gang loop: nothing runs around it.
        if k.kind != EffKind::Parallel
            || !k.gang_partitioned
            || !one_gang
            || c.directive.kind.is_combined()
        {
            return false;
        }
        let statements: Vec<Span> = region_statements(c)
            .into_iter()
            .filter(|s| !c.declarations.contains(s))
            .collect();
        statements.len() > 1
            || k.loops
                .iter()
                .filter(|l| l.partition.gang.is_some())
                .any(|l| !statements.contains(&self.statement_of(l.construct)))
    }

    pub(super) fn once_per_gang(
        &self,
        id: ConstructId,
        k: &KernelPlan,
        body: Span,
    ) -> (Vec<Span>, bool) {
        let c = self.unit.construct(id);
        if k.kind != EffKind::Parallel || !k.gang_partitioned || c.body != Some(body) {
            return (Vec::new(), false);
        }
        let gang_loops: Vec<Span> = k
            .loops
            .iter()
            .filter(|l| l.partition.gang.is_some())
            .map(|l| self.statement_of(l.construct))
            .collect();
        let in_gang_loop = |s: Span| gang_loops.iter().any(|g| g.contains(s));
        let once_per_gang_code =
            |s: Span| {
                self.atomics_in(s).any(|a| !in_gang_loop(a))
                    || self.unit.refs_in(s).iter().any(|r| {
                        k.reductions.iter().any(|g| g.var == r.var) && !in_gang_loop(r.span)
                    })
            };
        let (mut single, mut beside) = (Vec::new(), false);
        for s in region_statements(c) {
            if !once_per_gang_code(s) {
                continue;
            }
            if gang_loops.iter().any(|g| s.contains(*g)) {
                beside = true;
            } else if !c.declarations.contains(&s) {
                single.push(s);
            }
        }
        (single, beside)
    }
}

#[cfg(test)]
mod tests {
    use crate::lower::lower_test_file;

    /// The `--info` line of the CUDA form of a gang loop whose vector loops write `t`.
    fn cuda_info(gang_clauses: &str) -> String {
        let src = format!(
            "void f(double *restrict o) {{\n  double t[32];\n#pragma acc parallel loop gang {gang_clauses} copyout(o[0:64])\n  for (int i = 0; i < 64; i++) {{\n#pragma acc loop vector\n    for (int j = 0; j < 32; j++) t[j] = i + j;\n    double s = 0;\n#pragma acc loop vector reduction(+:s)\n    for (int j = 0; j < 32; j++) s += t[31 - j];\n    o[i] = s;\n  }}\n}}\n"
        );
        let (lowered, diags) = lower_test_file(&src);
        let lowered = lowered.unwrap_or_else(|| panic!("{diags:?}"));
        lowered
            .info
            .iter()
            .filter(|l| l.contains("CUDA:"))
            .cloned()
            .collect()
    }

    /// A gang's private array its vector loops write keeps the CUDA kernel off the lanes
    /// (each thread would have a copy of its own), and `--info` says so; the same loops
    /// writing a shared array spread over the block's threads.
    #[test]
    fn vector_loops_writing_a_gangs_array_run_in_order() {
        let private = cuda_info("private(t)");
        assert!(
            private.contains("they write `t`, an array of the gang's own"),
            "{private}"
        );
        let shared = cuda_info("");
        assert!(
            shared.contains("spread over the block's threads"),
            "{shared}"
        );
    }
}
