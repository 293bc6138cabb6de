//! Chunking: the header that replaces a partitioned loop nest's, running the iterations its
//! partition gives it (a gang's chunk on the host, a thread's share in the CUDA module, per
//! the macros' prefix): canonical loops checked, trip counts, collapsed nests, tiles, and the
//! balanced blocks of a triangular nest; and the trip count's comparison codes.
//!
//! It must not know which loop is partitioned at which level, nor the kernel around it.

use super::edit::apply_in;
use super::*;

pub(super) fn cmp_code(c: Cmp) -> u8 {
    match c {
        Cmp::Lt => 0,
        Cmp::Le => 1,
        Cmp::Gt => 2,
        Cmp::Ge => 3,
        Cmp::Ne => 4,
    }
}

/// A loop variable's assignment from its index: the loop's header, its level, the index.
pub(super) type Assign<'x> = dyn Fn(&LoopHeader, usize, &str) -> String + 'x;

/// A tiled nest's header: each partitioned iteration is a tile, its coordinates from the flat
/// index (innermost fastest), then a loop per level over the tile's part of that loop.
/// With what closes it.
pub(super) fn tiled_header(
    n: usize,
    prefix: &str,
    headers: &[LoopHeader],
    assign: &Assign,
) -> (String, String) {
    // Each iteration is a tile: its coordinates from the flat index (innermost
    // fastest), then a loop per level over the tile's part of that loop.
    let mut header = format!("for (long long __acc_it{n} = __acc_lo{n}; __acc_it{n} < __acc_hi{n}; __acc_it{n} += {prefix}STEP) {{ ");
    let d = headers.len() - 1;
    let mut rest = format!("__acc_it{n}");
    let mut coords = Vec::new();
    for i in (0..=d).rev() {
        let c = if i == 0 {
            rest.clone()
        } else {
            format!("({rest} % __acc_nt{n}_{i})")
        };
        coords.push(format!("const long long __acc_tc{n}_{i} = {c}; "));
        if i > 0 {
            rest = format!("({rest} / __acc_nt{n}_{i})");
        }
    }
    coords.reverse();
    header.push_str(&coords.concat());
    for (i, h) in headers.iter().enumerate() {
        let _ = write!(
            header,
            "for (long long __acc_e{n}_{i} = __acc_tc{n}_{i} * __acc_ts{n}_{i}, \
             __acc_ee{n}_{i} = __acc_e{n}_{i} + __acc_ts{n}_{i} < __acc_n{n}_{i} ? __acc_e{n}_{i} + __acc_ts{n}_{i} : __acc_n{n}_{i}; \
             __acc_e{n}_{i} < __acc_ee{n}_{i}; __acc_e{n}_{i}++) {{ "
        );
        header.push_str(&assign(h, i, &format!("__acc_e{n}_{i}")));
    }
    let closers = " }".repeat(headers.len() + 1);
    (header, closers)
}

/// A collapsed nest's header: where the partition is contiguous (`STEP` 1: a host chunk, a
/// vector loop run in order) each run of the innermost loop's iterations inside the
/// chunk is a plain inner loop, the outer indices recovered once per run, so the C
/// compiler can vectorize it; where iterations are dealt out (a CUDA grid-stride
/// loop) each run is one iteration, as a flat loop with a division is. With what closes it.
pub(super) fn collapsed_header(
    n: usize,
    prefix: &str,
    headers: &[LoopHeader],
    assign: &Assign,
) -> (String, String) {
    // A collapsed nest: where the partition is contiguous (`STEP` 1: a host chunk, a
    // vector loop run in order) each run of the innermost loop's iterations inside the
    // chunk is a plain inner loop, the outer indices recovered once per run, so the C
    // compiler can vectorize it; where iterations are dealt out (a CUDA grid-stride
    // loop) each run is one iteration, as a flat loop with a division is.
    let d = headers.len() - 1;
    let mut header = format!(
        "for (long long __acc_it{n} = __acc_lo{n}; __acc_it{n} < __acc_hi{n}; ) {{ \
         const long long __acc_row{n} = __acc_it{n} / __acc_n{n}_{d}, __acc_col{n} = __acc_it{n} % __acc_n{n}_{d}; \
         const long long __acc_run{n} = {prefix}STEP == 1 ? (__acc_n{n}_{d} - __acc_col{n} < __acc_hi{n} - __acc_it{n} ? __acc_n{n}_{d} - __acc_col{n} : __acc_hi{n} - __acc_it{n}) : 1; \
         __acc_it{n} += {prefix}STEP == 1 ? __acc_run{n} : {prefix}STEP; "
    );
    // The outer loops' variables from the run's row, innermost fastest.
    let mut rest = format!("__acc_row{n}");
    let mut assigns = Vec::new();
    for i in (0..d).rev() {
        let idx = if i == 0 {
            rest.clone()
        } else {
            format!("({rest} % __acc_n{n}_{i})")
        };
        assigns.push(assign(&headers[i], i, &idx));
        if i > 0 {
            rest = format!("({rest} / __acc_n{n}_{i})");
        }
    }
    assigns.reverse();
    header.push_str(&assigns.concat());
    let _ = write!(
                header,
                "for (long long __acc_k{n} = __acc_col{n}; __acc_k{n} < __acc_col{n} + __acc_run{n}; __acc_k{n}++) {{ "
            );
    header.push_str(&assign(&headers[d], d, &format!("__acc_k{n}")));
    let closers = " } }".to_string();
    (header, closers)
}

impl Lowerer<'_> {
    /// As [`Self::gang_loop`], for loop facts of any origin (a loop
    /// construct's, or a `kernels` loop without a directive).
    /// `prefix` names the partitioning macros: `__ACC_` for gang loops, `__ACC_V` for the
    /// worker/vector loops of a lanes kernel. `tile`: the sizes of a `tile` clause, outermost
    /// loop first, one per loop of the nest.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn gang_loop_of(
        &mut self,
        loops: &[acc_engine::facts::LoopFacts],
        directive_span: Span,
        depth: usize,
        ref_edits: &[Edit],
        open: &mut String,
        prefix: &str,
        tile: Option<&[String]>,
    ) -> Option<(Span, String, String)> {
        let headers = self.canonical_headers(loops, directive_span, depth)?;
        let n = self.fresh();
        let rewrite = |span: Span| {
            let inner: Vec<Edit> = ref_edits
                .iter()
                .filter(|e| span.start <= e.start && e.end <= span.end)
                .map(|e| Edit {
                    start: e.start,
                    end: e.end,
                    text: e.text.clone(),
                    order: 0,
                    line_after: false,
                })
                .collect();
            apply_in(self.src, span, inner)
        };
        let mut trips = Vec::new();
        // A pointer loop variable (OpenACC 3.3 2.9 allows C's pointers) counts its iterations
        // in elements from its first value, which each iteration's value is then based on; so
        // does a 64-bit unsigned one (see [`counts_from_first_value`]).
        let mut pointer_bases: Vec<Option<String>> = Vec::new();
        for (i, h) in headers.iter().enumerate() {
            let step = match h.step_span {
                Some((s, neg)) => format!("{}({})", if neg { "-" } else { "" }, rewrite(s)),
                None => h.step.clone(),
            };
            let lower = rewrite(h.lower_span);
            let upper = rewrite(h.upper_span);
            let pointer = loops
                .get(i)
                .and_then(|l| l.control)
                .is_some_and(|v| counts_from_first_value(self.unit.var(v)));
            if pointer {
                let _ = write!(
                    open,
                    "const long long __acc_lb{n}_{i} = 0, __acc_st{n}_{i} = (long long)({step}); (void)__acc_lb{n}_{i}; \
                     const long long __acc_n{n}_{i} = __acc_trips(0, (long long)(({upper}) - ({lower})), __acc_st{n}_{i}, {}); ",
                    cmp_code(h.cmp)
                );
                pointer_bases.push(Some(lower));
            } else {
                let _ = write!(
                    open,
                    "const long long __acc_lb{n}_{i} = (long long)({lower}), __acc_st{n}_{i} = (long long)({step}); \
                     const long long __acc_n{n}_{i} = __acc_trips(__acc_lb{n}_{i}, (long long)({upper}), __acc_st{n}_{i}, {}); ",
                    cmp_code(h.cmp)
                );
                pointer_bases.push(None);
            }
            trips.push(format!("__acc_n{n}_{i}"));
        }
        // Tiles: the partitioned iterations are whole tiles where the partition is contiguous
        // (a host chunk runs its tiles one after the other, each a small nest that stays in
        // cache); where iterations are dealt out (CUDA) a tile is one iteration.
        let tile = tile.filter(|t| t.len() == headers.len());
        if let Some(sizes) = tile {
            for (i, size) in sizes.iter().enumerate() {
                let _ = write!(
                    open,
                    "const long long __acc_ts{n}_{i} = {prefix}STEP == 1 ? (long long){size} : 1; \
                     const long long __acc_nt{n}_{i} = (__acc_n{n}_{i} + __acc_ts{n}_{i} - 1) / __acc_ts{n}_{i}; "
                );
                trips[i] = format!("__acc_nt{n}_{i}");
            }
        }
        // Iterations that differ in work (a triangular nest) are dealt out in balanced blocks
        // on the host; only a gang loop's partition is a host chunk's.
        let balanced = prefix == "__ACC_"
            && tile.is_none()
            && headers.len() == 1
            && loops.first().is_some_and(|l| l.uneven_trips);
        let _ = write!(open, "const long long __acc_t{n} = {}; ", trips.join(" * "));
        if !balanced {
            let _ = write!(
                open,
                "const long long __acc_lo{n} = {prefix}FIRST(__acc_t{n}); \
                 const long long __acc_hi{n} = {prefix}END(__acc_t{n}); "
            );
        }
        // A loop variable given `value`: declared, or assigned through the edits that rename
        // it (`__ACC_SET`: C++, the CUDA module, converts to an enum only by a cast).
        let set_var = |h: &LoopHeader, value: &str| match &h.var_type {
            Some(t) => format!("{t} {v} = ({t})({value}); (void){v}; ", v = h.var),
            None => {
                let target = match ref_edits.iter().find(|e| {
                    self.src[e.start..e.end] == h.var
                        && h.header_span.contains(Span::new(e.start, e.end))
                }) {
                    Some(e) => e.text.clone(),
                    None => h.var.clone(),
                };
                format!("__ACC_SET({target}, {value}); ")
            }
        };
        // One loop variable's value from its index `idx`.
        let assign = |h: &LoopHeader, i: usize, idx: &str| {
            let value = match pointer_bases.get(i).cloned().flatten() {
                Some(base) => format!("({base}) + {idx} * __acc_st{n}_{i}"),
                None => format!("__acc_lb{n}_{i} + {idx} * __acc_st{n}_{i}"),
            };
            set_var(h, &value)
        };
        let mut header;
        let mut closers = " }".to_string();
        if tile.is_some() {
            (header, closers) = tiled_header(n, prefix, &headers, &assign);
        } else if balanced {
            header = format!(
                "for (long long __acc_rd{n} = 0; __acc_rd{n} < __ACC_ROUNDS(__acc_t{n}); __acc_rd{n}++) {{ \
                 const long long __acc_bk{n} = __ACC_BLOCK(__acc_t{n}, __acc_rd{n}); \
                 for (long long __acc_it{n} = __ACC_BFIRST(__acc_t{n}, __acc_bk{n}); __acc_it{n} < __ACC_BEND(__acc_t{n}, __acc_bk{n}); __acc_it{n} += __ACC_STEP) {{ "
            );
            header.push_str(&assign(&headers[0], 0, &format!("__acc_it{n}")));
            closers = " } }".to_string();
        } else if let Some(ty) = headers
            .first()
            .filter(|_| headers.len() == 1 && pointer_bases[0].is_none())
            .and_then(|h| self.integer_induction(loops.first()?, h))
        {
            // The loop variable steps by itself, in its own type, beside the iteration count:
            // `i = (int)(lb + it * st)` each iteration hides from the C compiler that `i`
            // steps evenly (the conversion could wrap), and it does not vectorize the loop.
            header = format!(
                "{{ {ty} __acc_iv{n} = ({ty})(__acc_lb{n}_0 + __acc_lo{n} * __acc_st{n}_0); const {ty} __acc_is{n} = ({ty})(__acc_st{n}_0 * {prefix}STEP); \
                 for (long long __acc_it{n} = __acc_lo{n}; __acc_it{n} < __acc_hi{n}; __acc_it{n} += {prefix}STEP, __ACC_IV_ADD(__acc_iv{n}, __acc_is{n})) {{ "
            );
            header.push_str(&set_var(&headers[0], &format!("__acc_iv{n}")));
            closers = " } }".to_string();
        } else if headers.len() == 1 {
            header = format!("for (long long __acc_it{n} = __acc_lo{n}; __acc_it{n} < __acc_hi{n}; __acc_it{n} += {prefix}STEP) {{ ");
            header.push_str(&assign(&headers[0], 0, &format!("__acc_it{n}")));
        } else {
            (header, closers) = collapsed_header(n, prefix, &headers, &assign);
        }
        // Braces of the intermediate loop bodies that the replaced span
        // swallows: reopen them so the original closing braces match.
        let first = headers.first()?;
        let last = headers.last()?;
        let span = Span::new(first.header_span.start, last.header_span.end);
        let swallowed = self.src[span.range()].matches('{').count()
            - self.src[span.range()].matches('}').count();
        header.push_str(&"{".repeat(swallowed));
        // The lines the replaced headers spanned, kept: the body's lines stay where the
        // program has them (a compiler's message about the body names the right line).
        header.push_str(&"\n".repeat(self.src[span.range()].matches('\n').count()));
        Some((span, header, closers))
    }

    /// The type a loop variable steps in by itself ([`Self::gang_loop_of`]): an integer type,
    /// not `_Bool` nor an enum (C++ adds to neither), as the program declares it.
    fn integer_induction(
        &self,
        l: &acc_engine::facts::LoopFacts,
        h: &LoopHeader,
    ) -> Option<String> {
        let v = self.unit.var(l.control?);
        let integer = v.shape == acc_engine::facts::Shape::Scalar
            && v.scalar
                .is_some_and(|t| t.is_integer() && t != ScalarType::Bool)
            && !v.decl_text.contains("enum");
        if !integer {
            return None;
        }
        let ty = match &h.var_type {
            Some(t) => t.clone(),
            None => declare_as(self.unit, l.control?, "").trim().to_string(),
        };
        (!ty.is_empty() && !ty.contains(['[', '(', '*'])).then_some(ty)
    }

    /// The headers of the `depth` loops a partitioned loop directive applies to, when they
    /// are canonical loops over integers; otherwise an error, and `None`.
    pub(super) fn canonical_headers(
        &mut self,
        loops: &[acc_engine::facts::LoopFacts],
        directive_span: Span,
        depth: usize,
    ) -> Option<Vec<LoopHeader>> {
        let headers: Option<Vec<LoopHeader>> =
            loops.iter().take(depth).map(|l| l.header.clone()).collect();
        let Some(headers) = headers.filter(|h| h.len() == depth.max(1)) else {
            let span = loops.first().map_or(directive_span, |l| l.span);
            self.diags.push(
                Diagnostic::error(span, "this loop is not in the canonical form a partitioned loop needs")
                    .with_note("write `for (i = lower; i < upper; i += step)` (or <=, >, >=, != and ++/--) with an integer or pointer `i`")
                    .with_secondary(directive_span, "partitioned by this directive"),
            );
            return None;
        };
        for l in loops.iter().take(depth) {
            // `break` makes the trip count unknown as the loop starts, which OpenACC 3.3 2.9
            // asks of every loop construct without `seq`: its iterations run all at once.
            let exit = l.deps.as_ref().and_then(|d| d.early_exit);
            if let Some(at) = exit.filter(|s| self.src[s.range()].starts_with("break")) {
                self.diags.push(
                    Diagnostic::error(
                        at,
                        "`break` leaves a loop whose iterations run in parallel: the other \
                         iterations would still run",
                    )
                    .with_secondary(directive_span, "partitioned by this directive")
                    .with_note(
                        "OpenACC 3.3 2.9 asks that a partitioned loop's trip count be known as \
                         it starts; add `seq` to run it in order",
                    ),
                );
                return None;
            }
            if let Some(v) = l.control {
                if self.unit.var(v).scalar.is_some_and(|s| !s.is_integer()) {
                    self.diags.push(Diagnostic::error(
                        l.span,
                        format!("the control variable `{}` of a partitioned loop must have an integer type", self.unit.var(v).name),
                    ));
                    return None;
                }
            }
        }
        Some(headers)
    }
}

/// Whether a loop variable's iterations are counted from its first value, and each value
/// computed from that first value in the variable's own type: a pointer (whose bounds are
/// addresses, not numbers), and a 64-bit unsigned integer, whose bounds past 2^63 (`for
/// (uint64_t i = big; i < big + n; i++)`) have no `long long` value; their difference does,
/// and the values then wrap as the variable's type does.
pub(super) fn counts_from_first_value(v: &acc_engine::facts::Var) -> bool {
    v.shape == acc_engine::facts::Shape::Pointer
        || (v.shape == acc_engine::facts::Shape::Scalar
            && v.scalar == Some(acc_engine::facts::ScalarType::U64))
}

#[cfg(test)]
mod tests {
    use crate::lower::lower_test_file;

    fn errors(src: &str) -> Vec<String> {
        let (_, diags) = lower_test_file(src);
        diags
            .iter()
            .filter(|d| d.is_error())
            .map(|d| format!("{}@{}", d.message, &src[d.span.range()]))
            .collect()
    }

    /// A `break` out of a loop whose iterations run in parallel is refused at the `break`; one
    /// out of an inner loop or a `switch`, or out of a `seq` loop, is the program's own.
    #[test]
    fn a_break_out_of_a_partitioned_loop_is_refused() {
        let body = |directive: &str, body: &str| {
            format!(
                "int main(void) {{\n  int a[100] = {{0}}, f = 0;\n#pragma acc {directive} copy(a, f)\n  for (int i = 0; i < 100; i++) {{ {body} }}\n  return a[0] + f;\n}}\n"
            )
        };
        let refused = errors(&body("parallel loop", "if (a[i] < 0) break; a[i] = 1;"));
        assert_eq!(refused.len(), 1, "{refused:?}");
        assert!(refused[0].contains("`break` leaves a loop") && refused[0].ends_with("@break;"));
        for (directive, ok) in [
            (
                "parallel loop",
                "for (int j = 0; j < 3; j++) if (j == 1) break;",
            ),
            (
                "parallel loop",
                "switch (a[i]) { case 0: a[i] = 1; break; default: break; }",
            ),
            ("parallel loop seq", "if (a[i] < 0) { f = i; break; }"),
        ] {
            assert_eq!(errors(&body(directive, ok)), Vec::<String>::new(), "{ok}");
        }
    }

    /// A loop over a pointer, declared in the loop or before it, is canonical (OpenACC 3.3
    /// 2.9); a second variable declared in the loop's initialization is not.
    #[test]
    fn pointer_loop_variables_are_canonical_and_two_declared_variables_are_not() {
        let src = |header: &str| {
            format!(
                "int main(void) {{\n  double b[64], *p;\n#pragma acc parallel loop copy(b)\n  for ({header}) b[0] += 1;\n  return (int)b[0];\n}}\n"
            )
        };
        for ok in [
            "p = b; p < b + 64; p++",
            "double *q = b + 63; q >= b; q -= 2",
        ] {
            assert_eq!(errors(&src(ok)), Vec::<String>::new(), "{ok}");
        }
        let refused = errors(&src("int k = 0, m = 1; k < 64; k++"));
        assert!(
            refused
                .iter()
                .any(|e| e.contains("not in the canonical form")),
            "{refused:?}"
        );
    }
}
