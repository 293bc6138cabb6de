//! GPU spreading plans: how a kernel's CUDA version runs (a thread a gang, lanes, rows), whether
//! and how it spreads its worker and vector loops over a block's threads (lanes) or rows, which
//! statements run once per gang or on one lane, and the spread loops' headers with their
//! reductions across lanes.
//!
//! It must not know the host side; it writes only inside the kernel body.

use super::frame::Frame;
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

/// A write in a kernel, as the lanes see it ([`Lowerer::kernel_writes`]).
struct KernelWrite {
    /// The variable the written location is based on.
    var: VarId,
    span: Span,
    /// It may set a thread's own copy of a variable of the gang (or worker).
    own: bool,
    /// It may write memory the block's threads share.
    shared: bool,
}

impl<'a> Lowerer<'a> {
    /// How the part's CUDA version runs: sets `self.lanes` to the lanes plan where it spreads
    /// worker/vector loops over a block's threads, says so in `--info`, and returns whether a
    /// block is one thread a gang, whether it runs in lanes, and whether in rows.
    pub(super) fn cuda_shape(
        &mut self,
        id: ConstructId,
        k: &KernelPlan,
        span: Span,
        iterations: &str,
        f: &Frame,
    ) -> (bool, bool, bool) {
        let at = self.at(self.unit.construct(id).pragma_span);
        let cuda_blocks = f.cuda_blocks;
        let has_private_sections = !f.section_plans.is_empty();
        // Lanes where it is exact (and the kernel would spread threads over the gang loop).
        // A part that is a `kernels` loop without a directive, proven independent, is a gang
        // loop as much as one with `loop gang`.
        let gang_partitioned = k.gang_partitioned || self.is_plain_gang_loop(id, k, span);
        let threads_mode = iterations != "1" && !cuda_blocks && gang_partitioned;
        // Once-per-gang effects the region's threads cannot leave to one of them: then a
        // CUDA block is one thread, so that every thread is a gang.
        let mut thread_gangs = threads_mode && self.once_per_gang(id, k, span).1;
        if thread_gangs {
            self.info.push(format!(
                    "{at}: CUDA: one thread a gang (an atomic or a reduction update in gang-redundant code beside a gang loop)"
                ));
        } else if threads_mode && self.one_gang_around_gang_loops(id, k) {
            thread_gangs = true;
            self.info.push(format!(
                "{at}: CUDA: one thread a gang (`num_gangs(1)` with gang-redundant code around its gang loops, which sees all they wrote)"
            ));
        }
        self.lanes = None;
        if threads_mode && !thread_gangs {
            match self.lanes_plan(id, k, span) {
                Ok(lanes) => self.lanes = Some(lanes),
                Err(Some(why)) => self.info.push(format!(
                    "{at}: CUDA: a thread a gang iteration, its worker/vector loops in order ({why})"
                )),
                Err(None) => {}
            }
        }
        // A gang's copy of a private section is shared by the gang's threads: a block must
        // be a gang.
        if threads_mode && self.lanes.is_none() && !thread_gangs && has_private_sections {
            thread_gangs = true;
            self.info.push(format!(
                "{at}: CUDA: one thread a gang (each gang's copy of a private section)"
            ));
        }
        let lanes = self.lanes.is_some();
        let rows = self.lanes.as_ref().is_some_and(|l| !l.rows.is_empty());
        if rows {
            self.info.push(format!(
                    "{at}: CUDA: a block a gang iteration, its worker loops over the block's rows and their vector loops over each row's lanes"
                ));
        } else if lanes {
            self.info.push(format!(
                    "{at}: CUDA: a block a gang iteration, its worker/vector loops spread over the block's threads"
                ));
        }
        (thread_gangs, lanes, rows)
    }

    /// Whether the kernel's CUDA version can run in lanes mode ([`Lanes`]), and how. Every
    /// outermost gang loop of `body` (none of them worker or vector itself) must contain
    /// worker or vector loops, whose reductions are on scalars declared inside the gang loop;
    /// the code around them (vector-single code, which every thread of a block runs, each
    /// on its own copy of the gang's variables) may call no function of unknown effect, and
    /// each of its writes of data the threads share must stand in a statement of the gang
    /// loop's body that contains no such loop and sets none of those copies (that statement
    /// then runs on one thread); the spread loops may write no variable of the gang's own
    /// ([`Self::spread_writes_a_level_variable`]). Anything else keeps the threads mode, which
    /// is always exact; the error then says why, where `--info` should tell.
    pub(super) fn lanes_plan(
        &self,
        id: ConstructId,
        k: &KernelPlan,
        body: Span,
    ) -> Result<Lanes, Option<String>> {
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
            return Err(None);
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
                return Err(None);
            }
            let gc = self.unit.construct(g.construct);
            let deps = gc.loops.first().and_then(|l| l.deps.as_ref()).ok_or(None)?;
            let innermost = gc.loops.get(g.depth.max(1) - 1).ok_or(None)?;
            let gbody = gc.body.ok_or(None)?;
            // The outermost worker/vector loops inside this gang loop.
            let spread =
                self.outermost_inside(k, g.construct, |l| threads(l) && l.partition.gang.is_none());
            // Reductions across the lanes: builtin scalars private to the gang iteration.
            if spread.is_empty() || !self.lane_reductions(&spread, gbody) {
                return Err(None);
            }
            let spans: Vec<Span> = spread
                .iter()
                .map(|l| self.statement_of(l.construct))
                .collect();
            let outside = |s: Span| !spans.iter().any(|v| v.contains(s));
            if deps.early_exit.is_some() || deps.calls.iter().any(|(_, s)| outside(*s)) {
                return Err(None);
            }
            if let Some(name) = self.spread_writes_a_level_variable(k, body, &spread) {
                return Err(Some(format!(
                    "they write `{name}`, the gang's own, which its threads would each have a copy of"
                )));
            }
            let writes: Vec<KernelWrite> = self
                .kernel_writes(k, body, deps, &[])
                .into_iter()
                .filter(|w| outside(w.span))
                .collect();
            // Shared data (and gang reductions, counted once a gang) gets one writer; the
            // atomics that write it too.
            let shared = self.shared_writes(&writes, gbody);
            let single = self
                .single_statements(innermost, &spans, shared)
                .ok_or(None)?;
            if let Some(name) = self.sets_a_copy_in(&single, &writes) {
                return Err(Some(format!(
                    "a statement that writes shared data also sets `{name}`, which each of its threads has a copy of"
                )));
            }
            for s in single {
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
        Ok(lanes)
    }

    /// Whether a worker loop `w` that [`Self::lanes_plan`] spreads can go over the block's
    /// rows instead, its outermost vector loops over each row's lanes (`CudaMode::Rows`), and
    /// which of its statements then run on a row's first lane. The rules are the lanes rules
    /// one level down: the vector loops' reductions are on builtin scalars declared inside
    /// the worker loop (every lane of the row gets the result) and they write no variable of
    /// the worker's own; the worker-single code around them (which every lane of the row
    /// runs, each on its own copy of the worker's variables) calls no function of unknown
    /// effect; each of its writes of shared data, and each update of a reduction variable
    /// of the worker loop (counted once a row: the other lanes keep the identity), stands in
    /// a statement of the worker loop's body that contains no vector loop and sets no other
    /// copy. Otherwise the worker loop stays spread over all the block's threads, its vector
    /// loops in order.
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
        if self.spread_writes_a_level_variable(k, body, &xs).is_some() {
            return None;
        }
        let writes: Vec<KernelWrite> = self
            .kernel_writes(k, body, deps, &worker_reductions)
            .into_iter()
            .filter(|w| outside(w.span))
            .collect();
        let shared = self.shared_writes(&writes, wbody);
        let single = self.single_statements(innermost, &spans, shared)?;
        if self.sets_a_copy_in(&single, &writes).is_some() {
            return None;
        }
        Some((xs.iter().map(|l| l.construct).collect(), single))
    }

    /// The writes of `deps` (a gang or worker loop's) in kernel `k` of construct body `body`:
    /// whether each writes a copy every CUDA thread has of its own (a variable declared in
    /// the construct, or a private, firstprivate or value argument: the gang's or worker's
    /// variable, which every thread computes alike), memory the threads share, or, where the
    /// front end cannot tell which, both. `one_writer` are variables whose updates are
    /// counted once (a worker loop's reductions): shared, as far as the lanes go.
    fn kernel_writes(
        &self,
        k: &KernelPlan,
        body: Span,
        deps: &acc_engine::facts::DepFacts,
        one_writer: &[VarId],
    ) -> Vec<KernelWrite> {
        let own_var = |v: VarId| self.thread_copy(k, body, v) && !one_writer.contains(&v);
        // A pointer of the thread's own may hold the address of another variable of its own
        // (`int *p = &y; *p = v;`): what it writes is then that thread's copy too.
        let targets_own = |v: VarId| own_var(v) && self.may_point_to_own(k, body, v);
        let accesses = deps.accesses.iter().filter(|a| a.write).map(|a| {
            let own = own_var(a.var);
            let storage = self.unit.var(a.var).indexes_own_storage(a.subscripts.len());
            KernelWrite {
                var: a.var,
                span: a.span,
                own: (own && storage != Some(false))
                    || (storage == Some(false) && targets_own(a.var)),
                shared: !own || storage != Some(true),
            }
        });
        let stores = deps.stores.iter().map(|s| {
            let own = own_var(s.var);
            KernelWrite {
                var: s.var,
                span: s.span,
                own: (own && s.through_pointer != Some(true))
                    || (s.through_pointer != Some(false) && targets_own(s.var)),
                shared: !own || s.through_pointer != Some(false),
            }
        });
        accesses.chain(stores).collect()
    }

    /// Whether the pointer `p`, a variable of the threads' own in kernel `k` (construct body
    /// `body`), may be set to the address of another such variable: an initializer or an
    /// assignment in the body that takes the address of one (`&y`, `&pt.x`) or names an array
    /// of one (`p = buf`). By name, so a same-named variable elsewhere counts too (the
    /// answer errs toward the threads mode, which is always exact).
    fn may_point_to_own(&self, k: &KernelPlan, body: Span, p: VarId) -> bool {
        let name = self.unit.var(p).name.as_str();
        let own_named = |n: &str| {
            self.unit
                .vars
                .iter()
                .enumerate()
                .any(|(i, v)| v.name == n && self.thread_copy(k, body, VarId(i as u32)))
        };
        let own_array = |n: &str| {
            self.unit.vars.iter().enumerate().any(|(i, v)| {
                v.name == n
                    && v.shape == acc_engine::facts::Shape::Array
                    && self.thread_copy(k, body, VarId(i as u32))
            })
        };
        let takes_own = |value: tree_sitter::Node| -> bool {
            let mut stack = vec![value];
            while let Some(n) = stack.pop() {
                match n.kind() {
                    "pointer_expression"
                        if n.child_by_field_name("operator")
                            .is_some_and(|o| &self.src[o.byte_range()] == "&") =>
                    {
                        let mut base = n.child_by_field_name("argument");
                        while let Some(b) = base.filter(|b| b.kind() != "identifier") {
                            base = b
                                .child_by_field_name("argument")
                                .or_else(|| b.named_child(0));
                        }
                        if base.is_some_and(|b| own_named(&self.src[b.byte_range()])) {
                            return true;
                        }
                    }
                    "identifier" if own_array(&self.src[n.byte_range()]) => return true,
                    _ => {}
                }
                let mut c = n.walk();
                stack.extend(n.named_children(&mut c));
            }
            false
        };
        let mut stack: Vec<tree_sitter::Node> = self.trees.iter().map(|t| t.root_node()).collect();
        while let Some(n) = stack.pop() {
            if n.end_byte() <= body.start || n.start_byte() >= body.end {
                continue;
            }
            let value = match n.kind() {
                "init_declarator" => n
                    .child_by_field_name("declarator")
                    .and_then(|d| crate::syntax::derived(d).1)
                    .filter(|id| &self.src[id.byte_range()] == name)
                    .and_then(|_| n.child_by_field_name("value")),
                "assignment_expression" => n
                    .child_by_field_name("left")
                    .filter(|l| l.kind() == "identifier" && &self.src[l.byte_range()] == name)
                    .and_then(|_| n.child_by_field_name("right")),
                _ => None,
            };
            if value.is_some_and(takes_own) {
                return true;
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        false
    }

    /// Where `writes` (those around the spread loops of the loop body `scope`) may write
    /// shared data: what one thread must do for all. An atomic construct that does counts
    /// with its directive.
    fn shared_writes(&self, writes: &[KernelWrite], scope: Span) -> Vec<Span> {
        let mut shared: Vec<Span> = writes.iter().filter(|w| w.shared).map(|w| w.span).collect();
        shared.extend(
            self.atomics_in(scope)
                .filter(|&(_, statement)| {
                    writes
                        .iter()
                        .any(|w| w.shared && statement.contains(w.span))
                })
                .map(|(pragma, _)| pragma),
        );
        shared
    }

    /// Whether each CUDA thread of kernel `k` (construct body `body`) has its own copy of
    /// `v`: a private, firstprivate or value argument, or a variable the construct declares
    /// (not a `static` one); never a gang reduction's variable, whose updates count once.
    fn thread_copy(&self, k: &KernelPlan, body: Span, v: VarId) -> bool {
        let var = self.unit.var(v);
        !var.is_global
            && (per_thread(k, v) || body.contains(var.decl_span))
            && !k.reductions.iter().any(|r| r.var == v)
    }

    /// The first variable of a thread's own that a write among `writes` inside one of the
    /// `single` statements sets: one thread would set its copy, the others would keep theirs.
    fn sets_a_copy_in(&self, single: &[Span], writes: &[KernelWrite]) -> Option<String> {
        writes
            .iter()
            .find(|w| w.own && single.iter().any(|s| s.contains(w.span)))
            .map(|w| self.unit.var(w.var).name.clone())
    }

    /// Whether loops spread over threads (`spread`, inside kernel `k` of construct body
    /// `body`) write a variable each thread has a copy of that belongs to the level around
    /// them (OpenACC 3.3 2.6.1 and 2.9.10: a gang's variables, private ones too, are shared
    /// by its workers and vector lanes; a worker's by its lanes): a scalar one lane sets
    /// (`where = j;`), an atomic's target, an array the next spread loop reads. Each thread's
    /// copy would hold only what its lanes wrote. The spread loops' own reductions and
    /// privates, and what they declare, are the lanes' own. Such loops are not spread; the
    /// level's iterations then run on one thread each, their loops in order. Returns the
    /// variable.
    fn spread_writes_a_level_variable(
        &self,
        k: &KernelPlan,
        body: Span,
        spread: &[&LoopPlan],
    ) -> Option<String> {
        for l in spread {
            let c = self.unit.construct(l.construct);
            let statement = self.statement_of(l.construct);
            let Some(deps) = c.loops.first().and_then(|x| x.deps.as_ref()) else {
                return Some(String::from("?"));
            };
            let reductions: Vec<VarId> = reduction_items(c)
                .unwrap_or_default()
                .into_iter()
                .map(|(_, v)| v)
                .collect();
            // Also the lanes' own: the control variables of the loop constructs inside (each
            // private to its loop, 2.6.1), and what each iteration assigns before it reads and
            // nothing reads after (a thread's copy then holds only its own iterations' values,
            // which no one else needs).
            let inner: Vec<&acc_engine::facts::Construct> = self
                .unit
                .constructs
                .iter()
                .filter(|x| statement.contains(x.pragma_span))
                .collect();
            let lane_own = |v: VarId| {
                statement.contains(self.unit.var(v).decl_span)
                    || reductions.contains(&v)
                    || deps.iteration_locals.contains(&v)
                    || inner
                        .iter()
                        .any(|x| x.loops.iter().any(|l| l.control == Some(v)))
                    || k.loops.iter().any(|x| {
                        x.private.contains(&v)
                            && statement.contains(self.unit.construct(x.construct).pragma_span)
                    })
            };
            let mut writes = self.kernel_writes(k, body, deps, &[]);
            // A loop's facts leave out what the loop constructs inside it write (`tmp[…] = …`
            // in a vector loop of a spread worker loop): the spread loop writes that too.
            for x in inner.iter().filter(|x| x.pragma_span != c.pragma_span) {
                for d in x.loops.iter().filter_map(|l| l.deps.as_ref()) {
                    writes.extend(self.kernel_writes(k, body, d, &[]));
                }
            }
            // A store the front end does not follow (`s.a[j] = …`) writes the copy of any
            // variable of a thread's own it names, as far as this goes.
            for (name, at) in &deps.calls {
                if name != acc_engine::facts::INDIRECT_STORE {
                    continue;
                }
                for r in self.unit.refs_in(*at) {
                    if self.thread_copy(k, body, r.var) {
                        writes.push(KernelWrite {
                            var: r.var,
                            span: *at,
                            own: true,
                            shared: true,
                        });
                    }
                }
            }
            if let Some(w) = writes.iter().find(|w| w.own && !lane_own(w.var)) {
                return Some(self.unit.var(w.var).name.clone());
            }
        }
        None
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

    /// The `atomic` constructs in `span`: each one's directive and its statement (directive
    /// included).
    pub(super) fn atomics_in(&self, span: Span) -> impl Iterator<Item = (Span, Span)> + '_ {
        self.unit
            .constructs
            .iter()
            .zip(self.unit.construct_ids())
            .filter(|(c, _)| c.directive.kind == DirectiveKind::Atomic)
            .map(|(c, id)| (c.pragma_span, self.statement_of(id)))
            .filter(move |(s, _)| span.contains(*s))
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
            // The barrier before: the gang-level code before the loop (every thread runs it)
            // may read what the loop's lanes write.
            text: format!("{prefix}SYNC {red_open}{{ {open}{header_text}"),
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
                self.atomics_in(s).any(|(a, _)| !in_gang_loop(a))
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
        cuda_info_of(&format!(
            "void f(double *restrict o) {{\n  double t[32];\n#pragma acc parallel loop gang {gang_clauses} copyout(o[0:64])\n  for (int i = 0; i < 64; i++) {{\n#pragma acc loop vector\n    for (int j = 0; j < 32; j++) t[j] = i + j;\n    double s = 0;\n#pragma acc loop vector reduction(+:s)\n    for (int j = 0; j < 32; j++) s += t[31 - j];\n    o[i] = s;\n  }}\n}}\n"
        ))
    }

    /// The `--info` lines of the CUDA forms of `src`'s kernels.
    fn cuda_info_of(src: &str) -> String {
        let (lowered, diags) = lower_test_file(src);
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
            private.contains("they write `t`, the gang's own"),
            "{private}"
        );
        let shared = cuda_info("");
        assert!(
            shared.contains("spread over the block's threads"),
            "{shared}"
        );
    }

    /// The gang's code around a vector loop: `{before}`, the loop's body `{inside}`, over a
    /// gang loop of `i` with `a` and `o` shared.
    fn gang_code(before: &str, inside: &str) -> String {
        cuda_info_of(&format!(
            "void f(double *restrict a, double *restrict o) {{\n#pragma acc parallel loop gang copy(a[0:64], o[0:2048])\n  for (int i = 0; i < 64; i++) {{\n    {before}\n#pragma acc loop vector\n    for (int j = 0; j < 32; j++) {{ {inside} }}\n  }}\n}}\n"
        ))
    }

    /// What every thread of a block can compute for itself keeps the lanes (the gang's array
    /// set element by element, a shared element read into a scalar and written back once);
    /// a vector loop that sets a gang's scalar (one lane's copy would hold it), or one statement
    /// that writes shared data and sets the gang's scalar (one thread's copy), does not.
    #[test]
    fn the_gangs_own_variables_keep_the_lanes_where_every_thread_can_compute_them() {
        let lanes = "spread over the block's threads";
        let c = gang_code(
            "int c[2]; c[0] = i; c[1] = 2;",
            "o[i * 32 + j] = c[0] + c[1] + j;",
        );
        assert!(c.contains(lanes), "{c}");
        let old = gang_code("double old = a[i]; a[i] = old + 1;", "o[i * 32 + j] = old;");
        assert!(old.contains(lanes), "{old}");
        let found = gang_code(
            "int where = -1;",
            "if (a[i] == j) where = j; o[i * 32 + j] = 0;",
        );
        assert!(
            found.contains("they write `where`, the gang's own"),
            "{found}"
        );
        let both = gang_code("double x; a[i] = x = i;", "o[i * 32 + j] = x;");
        assert!(
            both.contains("a statement that writes shared data also sets `x`"),
            "{both}"
        );
    }
}
