//! The kernel body: the construct's statement with references to mapped variables through
//! their device pointers, loop privates declared, the outermost gang loop split across chunks
//! (its new header from [`super::chunk`]), worker/vector loops spread where
//! [`super::spread`] planned it, nested directives removed and atomics lowered.
//!
//! It must not know the host side (arguments, descriptors, launches).

use super::edit::{apply_in, enclose};
use super::spread::SpreadLevel;
use super::*;

impl<'a> Lowerer<'a> {
    /// The kernel's statement: references to mapped variables through
    /// their device pointers, gang loops split across chunks, the loop
    /// directives and atomics lowered.
    pub(super) fn kernel_body(&mut self, id: ConstructId, k: &KernelPlan, body: Span) -> String {
        let mut edits: Vec<Edit> = Vec::new();
        let mut ref_edits = self.ref_edits(k, body);
        // Nested directives.
        for cid in self.unit.construct_ids() {
            self.nested_directive(id, k, body, cid, &mut ref_edits, &mut edits);
        }
        self.plain_gang_loops(id, k, body, &mut ref_edits, &mut edits);
        for s in self.once_per_gang(id, k, body).0 {
            enclose(&mut edits, s, "__ACC_REDUNDANT");
        }
        for &s in self.lanes.iter().flat_map(|l| &l.single) {
            enclose(&mut edits, s, "__ACC_VSINGLE");
        }
        for &s in self.lanes.iter().flat_map(|l| &l.row_single) {
            enclose(&mut edits, s, "__ACC_XSINGLE");
        }
        edits.extend(ref_edits);
        edits.extend(self.register_removals(body));
        // Other compilers' pragmas between a loop directive and its loop (warned): left out.
        for &p in self
            .unit
            .left_out_pragmas
            .iter()
            .filter(|p| body.contains(**p))
        {
            edits.push(Edit::remove(p));
        }
        edits.extend(super::edit::conditional_blanks(self.src, body));
        edits.extend(self.function_names(body));
        apply_in(self.src, body, edits)
    }

    /// `__func__` (and GCC's `__FUNCTION__`) in the construct: the name of the function the
    /// program wrote it in, which the kernel's own function (host or CUDA) would otherwise
    /// give.
    fn function_names(&self, body: Span) -> Vec<Edit> {
        let Some((name, _)) = self.unit.enclosing_function(body) else {
            return Vec::new();
        };
        crate::lex::code_words(&self.src[body.start..body.end])
            .filter(|w| {
                matches!(
                    &self.src[body.start + w.start..body.start + w.end],
                    "__func__" | "__FUNCTION__"
                )
            })
            .map(|w| Edit {
                start: body.start + w.start,
                end: body.start + w.end,
                text: format!("\"{name}\""),
                order: 0,
                line_after: false,
            })
            .collect()
    }

    /// The references in `body` to variables the kernel reaches through their device
    /// pointers (mapped variables) or names differently ([`Lowerer::renames`]), rewritten,
    /// except where a loop's private copy shadows them.
    fn ref_edits(&self, k: &KernelPlan, body: Span) -> Vec<Edit> {
        let mapped: Vec<VarId> = k
            .params
            .iter()
            .filter(|p| p.pass == Pass::Mapped)
            .map(|p| p.var)
            .collect();
        // Loop privates shadow the kernel's names inside their loops.
        let shadowed = |v: VarId, at: Span| loop_private_at(self.unit, k, v, at);
        let mut ref_edits = Vec::new();
        for r in self.unit.refs_in(body).iter().filter(|r| !r.implied) {
            let renamed = self
                .renames
                .iter()
                .find(|x| x.0 == r.var)
                .map(|x| x.1.clone());
            if (renamed.is_some() || mapped.contains(&r.var)) && !shadowed(r.var, r.span) {
                ref_edits.push(Edit {
                    start: r.span.start,
                    end: r.span.end,
                    text: renamed
                        .unwrap_or_else(|| format!("(*__acc_p_{})", self.unit.var(r.var).name)),
                    order: 0,
                    line_after: false,
                });
            }
        }
        ref_edits
    }

    /// The edits for directive `cid` of kernel `id` (the construct itself, or one nested in
    /// `body`): its loop split across chunks or spread over a block's threads, its privates
    /// declared, or the directive removed; atomics lowered.
    fn nested_directive(
        &mut self,
        id: ConstructId,
        k: &KernelPlan,
        body: Span,
        cid: ConstructId,
        ref_edits: &mut Vec<Edit>,
        edits: &mut Vec<Edit>,
    ) {
        let depth_of = |c: ConstructId| self.unit.ancestors(c).count() as i64;
        let nested = self.unit.construct(cid);
        let inner_of_this = cid == id
            || (body.contains(nested.pragma_span) && self.unit.ancestors(cid).any(|a| a == id));
        if !inner_of_this {
            return;
        }
        let kind = nested.directive.kind;
        let is_loop = kind.is_loop();
        if cid != id {
            match kind {
                DirectiveKind::Atomic => {
                    self.kernel_atomic(cid, ref_edits, edits);
                    return;
                }
                _ if !is_loop => {
                    edits.push(Edit::remove(nested.pragma_span));
                    return;
                }
                _ => {}
            }
        }
        if !is_loop {
            return;
        }
        let Some(lp) = k.loops.iter().find(|l| l.construct == cid) else {
            return;
        };
        // The loop's own private copies.
        // A variable declared inside the construct is already one copy per thread, and
        // a chunk runs the loop's iterations in turn: a second copy would only shadow it.
        let mut open = String::new();
        for &v in lp
            .private
            .iter()
            .filter(|&&v| !body.contains(self.unit.var(v).decl_span))
        {
            let name = &self.unit.var(v).name;
            let _ = write!(open, "{}; (void){name}; ", declare_as(self.unit, v, name));
        }
        let close_after = nested.body.map_or(body.end, |b| b.end);
        // Only the outermost gang loop is split across chunks (gang
        // dimensions below it run within the chunk).
        let outer_gang = self
            .unit
            .ancestors(cid)
            .take_while(|&a| a != id)
            .chain((cid != id).then_some(id))
            .any(|a| {
                k.loops
                    .iter()
                    .any(|l| l.construct == a && l.partition.gang.is_some())
            });
        if lp.partition.gang.is_some() && !outer_gang {
            match self.gang_loop(cid, lp.depth, ref_edits, &mut open) {
                Some((header_span, header_text, closers)) => {
                    // The loop directive goes; the header is replaced.
                    if cid != id {
                        edits.push(Edit::remove(nested.pragma_span));
                    }
                    ref_edits
                        .retain(|e| !(header_span.start <= e.start && e.end <= header_span.end));
                    edits.push(Edit {
                        start: header_span.start,
                        end: header_span.end,
                        text: format!("{{ {open}{header_text}"),
                        order: 0,
                        line_after: false,
                    });
                    edits.push(Edit {
                        start: close_after,
                        end: close_after,
                        text: format!("{closers} }}"),
                        order: -depth_of(cid) * 2,
                        line_after: false,
                    });
                    return;
                }
                None => return,
            }
        }
        // Spread over a CUDA block's threads in a lanes kernel (in order here).
        if let Some(level) = self.spread_level(cid) {
            if self.spread_loop(cid, lp.depth, level, &open, ref_edits, edits) {
                return;
            }
        }
        // Sequential within the chunk (seq, worker, vector levels).
        self.sequential_loop(id, cid, body, &open, edits);
    }

    /// The level loop `cid` is spread over in a lanes kernel's CUDA version, if it is.
    fn spread_level(&self, cid: ConstructId) -> Option<SpreadLevel> {
        self.lanes.as_ref().and_then(|l| {
            if l.rows.contains(&cid) {
                Some(SpreadLevel::Rows)
            } else if l.row_spread.contains(&cid) {
                Some(SpreadLevel::RowLanes)
            } else {
                l.spread.contains(&cid).then_some(SpreadLevel::Block)
            }
        })
    }

    /// A loop that runs in order within the chunk (`seq`, worker and vector levels): its
    /// directive becomes a block that declares its private copies `open`.
    fn sequential_loop(
        &self,
        id: ConstructId,
        cid: ConstructId,
        body: Span,
        open: &str,
        edits: &mut Vec<Edit>,
    ) {
        let nested = self.unit.construct(cid);
        let depth_of = |c: ConstructId| self.unit.ancestors(c).count() as i64;
        let close_after = nested.body.map_or(body.end, |b| b.end);
        if cid != id {
            edits.push(Edit {
                start: nested.pragma_span.start,
                end: nested.pragma_span.end,
                text: format!("{{ {open}"),
                order: 0,
                line_after: false,
            });
            edits.push(Edit {
                start: close_after,
                end: close_after,
                text: " }".into(),
                order: -depth_of(cid) * 2,
                line_after: false,
            });
        } else if !open.is_empty() {
            edits.push(Edit {
                start: body.start,
                end: body.start,
                text: format!("{{ {open}"),
                order: 0,
                line_after: false,
            });
            edits.push(Edit {
                start: body.end,
                end: body.end,
                text: " }".into(),
                order: -1000,
                line_after: false,
            });
        }
    }

    /// `kernels` loops without a directive that the dependence test
    /// proved independent (the outermost one of this part).
    fn plain_gang_loops(
        &mut self,
        id: ConstructId,
        k: &KernelPlan,
        body: Span,
        ref_edits: &mut Vec<Edit>,
        edits: &mut Vec<Edit>,
    ) {
        let c = self.unit.construct(id);
        for (i, verdict) in &k.plain_loops {
            let (stmt, facts) = &c.plain_loops[*i];
            if verdict.is_err() || !body.contains(*stmt) {
                continue;
            }
            let mut open = String::new();
            // Its control variable, declared before the loop, is each iteration's own (as a
            // loop directive's is, OpenACC 3.3 2.6.1), not the construct's one copy, which
            // every chunk would write at once; so are the counters of the loops nested in it,
            // and the scalars each iteration assigns before reading.
            let mut own: Vec<VarId> = facts
                .control
                .filter(|_| !facts.declared_in_init)
                .into_iter()
                .collect();
            own.extend(self.unit.nested_counters(*stmt));
            own.extend(
                facts
                    .deps
                    .iter()
                    .flat_map(|d| d.iteration_locals.iter().copied()),
            );
            own.sort();
            own.dedup();
            for v in own {
                let name = &self.unit.var(v).name;
                let _ = write!(open, "{}; (void){name}; ", declare_as(self.unit, v, name));
                ref_edits.retain(|e| {
                    let at = Span::new(e.start, e.end);
                    !(stmt.contains(at) && self.unit.refs_in(at).iter().any(|r| r.var == v))
                });
            }
            if let Some((header_span, header_text, closers)) = self.gang_loop_of(
                std::slice::from_ref(facts),
                c.directive.name_span,
                1,
                ref_edits,
                &mut open,
                "__ACC_",
                None,
            ) {
                ref_edits.retain(|e| !(header_span.start <= e.start && e.end <= header_span.end));
                edits.push(Edit {
                    start: header_span.start,
                    end: header_span.end,
                    text: format!("{{ {open}{header_text}"),
                    order: 0,
                    line_after: false,
                });
                edits.push(Edit {
                    start: stmt.end,
                    end: stmt.end,
                    text: format!("{closers} }}"),
                    order: -1000,
                    line_after: false,
                });
            }
        }
    }

    /// A gang loop's new header: its iterations (the `collapse`d nest's)
    /// split by chunk. Returns the span to replace (outer `for` through the
    /// innermost header), the text, and what closes it after the body.
    pub(super) fn gang_loop(
        &mut self,
        cid: ConstructId,
        depth: usize,
        ref_edits: &[Edit],
        open: &mut String,
    ) -> Option<(Span, String, String)> {
        let c = self.unit.construct(cid);
        // `tile(a, b, ...)`: the sizes, innermost last (`*`: 32, acc's choice).
        let tile: Option<Vec<String>> = c.directive.clauses.iter().find_map(|cl| match &cl.args {
            ClauseArgs::Exprs(sizes) if cl.kind == ClauseKind::Tile && sizes.len() > 1 => Some(
                sizes
                    .iter()
                    .rev()
                    .map(|e| {
                        if e.is_star() {
                            "32".to_string()
                        } else {
                            format!("({})", e.text)
                        }
                    })
                    .collect(),
            ),
            _ => None,
        });
        self.gang_loop_of(
            &c.loops,
            c.directive.name_span,
            depth,
            ref_edits,
            open,
            "__ACC_",
            tile.as_deref(),
        )
    }
}
