//! Reductions: the runtime's operator and type codes, the identity across a CUDA block's
//! lanes, the init and combine functions of a reduction on a struct or `long double`, and the
//! gang-private slot a scalar reduction is loaded from and stored to; a compute construct's
//! reductions as its launch's tables, its kernel's declarations and its CUDA form (in the
//! kernel's [`Frame`]).
//!
//! It must not know launches or loops; callers place what it writes.

use super::frame::Frame;
use super::*;
use acc_engine::plan::GangReduction;

/// The identity of a reduction across a CUDA block's lanes, as CUDA C; `None` where there is
/// no lanes form (complex and `_Bool` values for `max`/`min`).
pub(super) fn lane_identity(op: ReductionOp, t: ScalarType) -> Option<&'static str> {
    use ScalarType as S;
    Some(match (op, t) {
        (_, S::C32 | S::C64) => return None,
        (ReductionOp::Add | ReductionOp::BitOr | ReductionOp::BitXor | ReductionOp::LogOr, _) => {
            "0"
        }
        (ReductionOp::Mul | ReductionOp::LogAnd, _) => "1",
        (ReductionOp::BitAnd, _) => "~0",
        (ReductionOp::Max | ReductionOp::Min, S::Bool) => return None,
        (ReductionOp::Max, S::F32) => "-__int_as_float(0x7f800000)",
        (ReductionOp::Max, S::F64) => "-__longlong_as_double(0x7ff0000000000000LL)",
        (ReductionOp::Min, S::F32) => "__int_as_float(0x7f800000)",
        (ReductionOp::Min, S::F64) => "__longlong_as_double(0x7ff0000000000000LL)",
        (ReductionOp::Max, S::I8) => "(-128)",
        (ReductionOp::Max, S::I16) => "(-32768)",
        (ReductionOp::Max, S::I32) => "INT_MIN",
        (ReductionOp::Max, S::I64) => "LLONG_MIN",
        (ReductionOp::Max, S::U8 | S::U16 | S::U32 | S::U64) => "0",
        (ReductionOp::Min, S::I8) => "127",
        (ReductionOp::Min, S::I16) => "32767",
        (ReductionOp::Min, S::I32) => "INT_MAX",
        (ReductionOp::Min, S::I64) => "LLONG_MAX",
        (ReductionOp::Min, S::U8) => "255",
        (ReductionOp::Min, S::U16) => "65535",
        (ReductionOp::Min, S::U32) => "UINT_MAX",
        (ReductionOp::Min, S::U64) => "ULONG_MAX",
    })
}

/// Each item of a construct's `reduction` clauses: operator and variable; `None` when the
/// front end could not resolve one.
pub(super) fn reduction_items(
    c: &acc_engine::facts::Construct,
) -> Option<Vec<(ReductionOp, VarId)>> {
    let mut out = Vec::new();
    for (ci, clause) in c.directive.clauses.iter().enumerate() {
        if let ClauseArgs::Reduction { op, items, .. } = &clause.args {
            for ii in 0..items.len() {
                out.push((*op, (*c.clause_vars.get(ci)?.get(ii)?)?));
            }
        }
    }
    Some(out)
}

pub(super) fn red_op(op: ReductionOp) -> &'static str {
    match op {
        ReductionOp::Add => "ACC_RT_RED_ADD",
        ReductionOp::Mul => "ACC_RT_RED_MUL",
        ReductionOp::Max => "ACC_RT_RED_MAX",
        ReductionOp::Min => "ACC_RT_RED_MIN",
        ReductionOp::BitAnd => "ACC_RT_RED_BITAND",
        ReductionOp::BitOr => "ACC_RT_RED_BITOR",
        ReductionOp::BitXor => "ACC_RT_RED_BITXOR",
        ReductionOp::LogAnd => "ACC_RT_RED_AND",
        ReductionOp::LogOr => "ACC_RT_RED_OR",
    }
}

pub(super) fn red_type(t: ScalarType) -> Option<&'static str> {
    Some(match t {
        ScalarType::I8 => "ACC_RT_TYPE_I8",
        ScalarType::I16 => "ACC_RT_TYPE_I16",
        ScalarType::I32 => "ACC_RT_TYPE_I32",
        ScalarType::I64 => "ACC_RT_TYPE_I64",
        ScalarType::U8 => "ACC_RT_TYPE_U8",
        ScalarType::Bool => "ACC_RT_TYPE_BOOL",
        ScalarType::U16 => "ACC_RT_TYPE_U16",
        ScalarType::U32 => "ACC_RT_TYPE_U32",
        ScalarType::U64 => "ACC_RT_TYPE_U64",
        ScalarType::F32 => "ACC_RT_TYPE_F32",
        ScalarType::F64 => "ACC_RT_TYPE_F64",
        ScalarType::C32 => "ACC_RT_TYPE_C32",
        ScalarType::C64 => "ACC_RT_TYPE_C64",
    })
}

/// The init and combine functions of a reduction on a struct (member by
/// member, arrays element by element) or a `long double`. Private copies
/// of `+` and `^` start at 0 and of `*` at 1; the other operators are
/// idempotent, so a copy starts as the original value, which needs no
/// knowledge of the type's limits.
///
/// `local_types` declares the types the program declares in the function around the
/// construct (`struct P { … } st;` in `main`): the combiners are file-scope functions, which
/// declare them again in their bodies.
pub(super) fn custom_reduction(
    unit: &Unit,
    v: VarId,
    op: ReductionOp,
    tag: &str,
    local_types: &str,
) -> Result<String, String> {
    let var = unit.var(v);
    let ty = declare_as(unit, v, "");
    // (type text of the leaf, expression of the leaf given a base pointer, element count)
    let mut leaves: Vec<(String, String, Option<String>)> = Vec::new();
    if var.fields.is_empty() {
        if !var.decl_text.contains("long double") {
            return Err("only arithmetic types, arrays and structs of them are supported".into());
        }
        leaves.push(("long double".into(), "(*{b})".into(), None));
    } else {
        for f in &var.fields {
            if f.type_text.contains('*')
                || f.type_text.contains("struct")
                || f.type_text.contains("union")
            {
                return Err(format!("member `{}` is not arithmetic", f.name));
            }
            if f.dims.is_empty() {
                leaves.push((f.type_text.clone(), format!("{{b}}->{}", f.name), None));
            } else {
                leaves.push((
                    f.type_text.clone(),
                    format!("(({} *){{b}}->{})[__acc_k]", f.type_text, f.name),
                    Some(format!(
                        "sizeof({{b}}->{}) / sizeof({})",
                        f.name, f.type_text
                    )),
                ));
            }
        }
    }
    let init_leaf = |l: &str, o: &str| match op {
        ReductionOp::Add | ReductionOp::BitXor => format!("{l} = 0;"),
        ReductionOp::Mul => format!("{l} = 1;"),
        _ => format!("{l} = {o};"),
    };
    let comb_leaf = |a: &str, p: &str| match op {
        ReductionOp::Add => format!("{a} += {p};"),
        ReductionOp::Mul => format!("{a} *= {p};"),
        ReductionOp::Max => format!("if ({p} > {a}) {a} = {p};"),
        ReductionOp::Min => format!("if ({p} < {a}) {a} = {p};"),
        ReductionOp::BitAnd => format!("{a} &= {p};"),
        ReductionOp::BitOr => format!("{a} |= {p};"),
        ReductionOp::BitXor => format!("{a} ^= {p};"),
        ReductionOp::LogAnd => format!("{a} = {a} && {p};"),
        ReductionOp::LogOr => format!("{a} = {a} || {p};"),
    };
    let mut init = String::new();
    let mut comb = String::new();
    for (_, expr, count) in &leaves {
        let at = |b: &str| expr.replace("{b}", b);
        let (i, c) = (
            init_leaf(&at("__acc_c"), &at("__acc_o")),
            comb_leaf(&at("__acc_a"), &at("__acc_p")),
        );
        match count {
            Some(n) => {
                let (ni, nc) = (n.replace("{b}", "__acc_c"), n.replace("{b}", "__acc_a"));
                let _ = write!(
                    init,
                    " for (size_t __acc_k = 0; __acc_k < {ni}; __acc_k++) {{ {i} }}"
                );
                let _ = write!(
                    comb,
                    " for (size_t __acc_k = 0; __acc_k < {nc}; __acc_k++) {{ {c} }}"
                );
            }
            None => {
                let _ = write!(init, " {i}");
                let _ = write!(comb, " {c}");
            }
        }
    }
    // Each function on one line, after an empty one.
    let types: String = local_types
        .lines()
        .map(|l| format!("{} ", l.trim()))
        .collect();
    let mut w = CWriter::new();
    w.blank()
        .line(&format!(
            "static void __acc_rinit{tag}(void *__acc_cv, const void *__acc_ov) {{ {types}{ty} *__acc_c = __acc_cv; const {ty} *__acc_o = __acc_ov; (void)__acc_o;{init} }}"
        ))
        .line(&format!(
            "static void __acc_rcomb{tag}(void *__acc_av, const void *__acc_pv) {{ {types}{ty} *__acc_a = __acc_av; const {ty} *__acc_p = __acc_pv;{comb} }}"
        ));
    Ok(w.finish())
}

/// A scalar reduction's gang-private copy: loaded from its runtime slot at
/// the kernel's start, stored back at its end.
pub(super) fn red_slot(unit: &Unit, v: VarId, j: usize, decls: &mut CWriter, store: &mut CWriter) {
    let name = &unit.var(v).name;
    decls.line(&format!(
        "{} = *({})__acc_slot[{j}];",
        declare_as(unit, v, name),
        declare_as(unit, v, "(*)")
    ));
    store.line(&format!(
        "*({})__acc_slot[{j}] = {name};",
        declare_as(unit, v, "(*)")
    ));
}

impl Lowerer<'_> {
    /// The construct's reductions: their tables for the runtime, their gang copies in the
    /// kernel function (loaded from and stored to the runtime's slots), their CUDA forms.
    pub(super) fn kernel_reductions(&mut self, k: &KernelPlan, f: &mut Frame) {
        self.renames.clear();
        for r in &k.reductions {
            self.check_uses_outside_the_reduced_part(k, r);
        }
        for (j, r) in k.reductions.iter().enumerate() {
            let var = self.unit.var(r.var);
            let name = &var.name;
            let array = matches!(
                var.shape,
                acc_engine::facts::Shape::Array | acc_engine::facts::Shape::Pointer
            );
            let ty = if array { var.elem_scalar } else { var.scalar };
            if ty.is_none() && !array {
                self.custom_reduction_item(j, r, f);
                continue;
            }
            let Some(ty) = ty.and_then(red_type) else {
                self.diags.push(Diagnostic::error(
                    var.decl_span,
                    format!(
                        "reduction on `{name}`: only integer, floating and complex scalars, and arrays of them, are supported yet"
                    ),
                ));
                continue;
            };
            if array {
                self.array_reduction_item(j, r, ty, k, f);
            } else {
                self.scalar_reduction_item(j, r, ty, f);
            }
        }
    }

    /// A reduction of part of a variable (`arr[1]`, `h[0:8]`, `st.sum`) reduces a private copy
    /// of the variable in which only that part is the reduction's: the rest holds the
    /// operator's identity (a struct's other members) or is no memory of the copy at all (an
    /// array's other elements). A use of another part in the region (`arr[0]`, `st.scale`)
    /// would read that, silently; it is an error at the use instead. A subscript acc cannot
    /// evaluate counts as inside the part (`h[bin]` in a histogram).
    fn check_uses_outside_the_reduced_part(&mut self, k: &KernelPlan, r: &GangReduction) {
        use acc_engine::directive::{Accessor, ClauseArgs};
        let Some(body) = self.unit.construct(k.construct).body else {
            return;
        };
        // The plan keeps an array's part; a struct member's is the clause's.
        let member_item = || {
            let own = Span::new(self.unit.construct(k.construct).pragma_span.start, body.end);
            self.unit
                .constructs
                .iter()
                .filter(|c| own.contains(c.pragma_span))
                .flat_map(|c| {
                    c.directive
                        .clauses
                        .iter()
                        .enumerate()
                        .filter_map(move |(ci, clause)| match &clause.args {
                            ClauseArgs::Reduction { items, .. } => Some((c, ci, items)),
                            _ => None,
                        })
                })
                .flat_map(|(c, ci, items)| {
                    items.iter().enumerate().filter(move |(ii, item)| {
                        item.is_member()
                            && c.clause_vars
                                .get(ci)
                                .and_then(|v| v.get(*ii))
                                .copied()
                                .flatten()
                                == Some(r.var)
                    })
                })
                .map(|(_, item)| item.clone())
                .collect::<Vec<_>>()
        };
        let member_items = member_item();
        let Some(item) = r
            .item
            .clone()
            .or_else(|| member_items.first().cloned())
            .filter(|i| !i.accessors.is_empty())
        else {
            return;
        };
        // Other members the constructs reduce too (`reduction(+:st.s, st.c)`).
        let other_reduced: Vec<&str> = member_items
            .iter()
            .skip(1)
            .filter_map(|i| match i.accessors.first() {
                Some(Accessor::Member(m) | Accessor::Arrow(m)) => Some(m.name.as_str()),
                _ => None,
            })
            .collect();
        // The part's elements, where its first accessor is a subscript or section of constants.
        let elements = match &item.accessors[0] {
            Accessor::Index(e) => e.int_value().map(|i| (i, 1)),
            Accessor::Section { lower, length, .. } => {
                let lo = lower.as_ref().map_or(Some(0), |l| l.int_value());
                lo.zip(length.as_ref().and_then(|l| l.int_value()))
            }
            _ => None,
        };
        let member = match &item.accessors[0] {
            Accessor::Member(m) | Accessor::Arrow(m) => Some(m.name.as_str()),
            _ => None,
        };
        let uses: Vec<Span> = self
            .unit
            .refs_in(body)
            .iter()
            .filter(|x| x.var == r.var && !x.implied)
            .map(|x| x.span)
            .collect();
        for at in uses {
            let Some(node) = self.node_at(at) else {
                continue;
            };
            let mut outer = node;
            while let Some(p) = outer
                .parent()
                .filter(|p| p.node_kind() == "parenthesized_expression")
            {
                outer = p;
            }
            let parent = outer.parent();
            let based = |field: &str| {
                parent.filter(|p| {
                    p.node_kind() == field
                        && p.child_by_field_name("argument").map(|a| a.id()) == Some(outer.id())
                })
            };
            let outside = if let Some(m) = member {
                match based("field_expression") {
                    Some(f) => f
                        .child_by_field_name("field")
                        .filter(|x| &self.src[x.byte_range()] != m)
                        .map(|_| f),
                    None => Some(outer),
                }
            } else if let Some((lo, len)) = elements {
                based("subscript_expression").filter(|s| {
                    s.child_by_field_name("index")
                        .and_then(|i| crate::consts::parse_int(&self.src[i.byte_range()]))
                        .is_some_and(|i| i < lo || i >= lo + len)
                })
            } else {
                None
            };
            if let Some(use_node) = outside {
                let text = &self.src[use_node.byte_range()];
                let name = &self.unit.var(r.var).name;
                let also_reduced = use_node
                    .child_by_field_name("field")
                    .is_some_and(|f| other_reduced.contains(&&self.src[f.byte_range()]));
                let note = if also_reduced {
                    format!(
                        "acc reduces one part of a variable per construct: reduce the whole \
                         struct (`reduction(op:{name})`), or each member into a scalar of its \
                         own and store them into `{name}` after"
                    )
                } else {
                    format!(
                        "read what the region needs into a variable of its own before the \
                         construct, or reduce a scalar and store it into `{}` after",
                        item.text
                    )
                };
                self.diags.push(
                    Diagnostic::error(
                        Span::new(use_node.start_byte(), use_node.end_byte()),
                        format!(
                            "`{text}` is outside `{}`, the part of `{}` this reduction reduces: \
                             its private copies hold only that part, so the region cannot use \
                             the rest of `{}`",
                            item.text,
                            self.unit.var(r.var).name,
                            self.unit.var(r.var).name
                        ),
                    )
                    .with_secondary(item.span, "reduced here")
                    .with_note(note),
                );
                return;
            }
        }
    }

    /// A reduction on a struct or `long double`: the runtime combines with
    /// functions generated here.
    fn custom_reduction_item(&mut self, j: usize, r: &GangReduction, f: &mut Frame) {
        let Frame {
            n,
            cuda_slot_bytes,
            cuda_blocks,
            decls,
            reds,
            red_store,
            local_types,
            ..
        } = f;
        let n = *n;
        let var = self.unit.var(r.var);
        let name = &var.name;
        // A struct or `long double`: the runtime combines with
        // functions generated here.
        // On a GPU each block reduces into its slot on one thread.
        *cuda_blocks = true;
        cuda_slot_bytes.push(format!(
            "sizeof({})",
            declare_as(self.unit, r.var, "").trim()
        ));
        match custom_reduction(
            self.unit,
            r.var,
            r.op,
            &format!("{n}_{j}"),
            local_types.as_str(),
        ) {
            Ok(funcs) => {
                self.kernels.push_str(&funcs);
                let _ = writeln!(
                            self.prototypes,
                            "static void __acc_rinit{n}_{j}(void *, const void *);\nstatic void __acc_rcomb{n}_{j}(void *, const void *);"
                        );
                reds.push([
                    "0".into(),
                    "ACC_RT_TYPE_CUSTOM".into(),
                    format!("&{name}"),
                    c_string(name),
                    "1".into(),
                    format!("sizeof({name})"),
                    format!("__acc_rinit{n}_{j}"),
                    format!("__acc_rcomb{n}_{j}"),
                ]);
                red_slot(self.unit, r.var, j, decls, red_store);
            }
            Err(why) => self.diags.push(Diagnostic::error(
                var.decl_span,
                format!("reduction on `{name}`: {why}"),
            )),
        }
    }

    /// A reduction on an arithmetic scalar: the runtime's operator and type.
    fn scalar_reduction_item(&mut self, j: usize, r: &GangReduction, ty: &str, f: &mut Frame) {
        let Frame {
            cuda_reds,
            cuda_slot_bytes,
            cuda_blocks,
            decls,
            reds,
            red_store,
            ..
        } = f;
        let var = self.unit.var(r.var);
        let name = &var.name;
        // A 16-byte private copy does not fit the block tree's shared buffer: each
        // block is then one chunk, reduced by its first thread.
        if var.scalar == Some(ScalarType::C64) {
            *cuda_blocks = true;
        }
        cuda_slot_bytes.push(format!(
            "sizeof({})",
            declare_as(self.unit, r.var, "").trim()
        ));
        cuda_reds.push(CudaReduction {
            op: r.op,
            ty: declare_as(self.unit, r.var, "").trim().to_string(),
            var: name.clone(),
            slot: j,
        });
        // Count 0, a scalar: its CUDA kernel sets the slots to the identity itself.
        reds.push([
            red_op(r.op).into(),
            ty.into(),
            format!("&{name}"),
            c_string(name),
            "0".into(),
            "0".into(),
            "0".into(),
            "0".into(),
        ]);
        red_slot(self.unit, r.var, j, decls, red_store);
    }

    /// An array (or a section of one, or of a pointer's target): each
    /// gang reduces into its own copy of the elements, which the
    /// runtime combines element by element.
    fn array_reduction_item(
        &mut self,
        j: usize,
        r: &GangReduction,
        ty: &str,
        k: &KernelPlan,
        f: &mut Frame,
    ) {
        let Frame {
            cuda_slot_bytes,
            cuda_blocks,
            offsets,
            decls,
            reds,
            ..
        } = f;
        let var = self.unit.var(r.var);
        let name = &var.name;
        *cuda_blocks = true;
        // An array (or a section of one, or of a pointer's target): each
        // gang reduces into its own copy of the elements, which the
        // runtime combines element by element.
        let base = if var.shape == acc_engine::facts::Shape::Pointer {
            name.clone()
        } else {
            format!("&{name}")
        };
        let elem = var.decl_text[..var.decl_name.start]
            .trim()
            .trim_end_matches('*')
            .trim()
            .to_string();
        let (start, count) = match r
            .item
            .as_ref()
            .and_then(|i| i.sections().next().map(|s| (i, s)))
        {
            Some((item, (lower, length, span))) => {
                let Some(length) = length else {
                    self.diags.push(Diagnostic::error(
                        span,
                        format!("give the length of the reduction section `{}`", item.text),
                    ));
                    return;
                };
                let lo = lower.map_or("0".to_string(), |l| format!("({})", l.text));
                (format!("&({name})[{lo}]"), format!("({})", length.text))
            }
            // An element of a pointer's target, `p[i]`: the section `p[i:1]`.
            None if var.shape == acc_engine::facts::Shape::Pointer
                && r.item.as_ref().is_some_and(|i| {
                    matches!(
                        i.accessors.as_slice(),
                        [acc_engine::directive::Accessor::Index(_)]
                    )
                }) =>
            {
                let Some(acc_engine::directive::Accessor::Index(e)) =
                    r.item.as_ref().and_then(|i| i.accessors.first())
                else {
                    return;
                };
                (format!("&({name})[({})]", e.text), "1".to_string())
            }
            None if var.shape == acc_engine::facts::Shape::Pointer => {
                self.diags.push(Diagnostic::error(
                    var.decl_span,
                    format!(
                        "a reduction on the pointer `{name}` needs a section, as in `{name}[0:n]`"
                    ),
                ));
                return;
            }
            None => (
                format!("&{name}"),
                format!("(sizeof({name}) / sizeof({elem}))"),
            ),
        };
        reds.push([
            red_op(r.op).into(),
            ty.into(),
            format!("({start})"),
            c_string(r.item.as_ref().map_or(name, |i| &i.text)),
            count.clone(),
            "0".into(),
            "0".into(),
            "0".into(),
        ]);
        // The CUDA version finds each block's slot from its size.
        cuda_slot_bytes.push(format!(
            "*(const size_t *)__acc_args[{}]",
            k.params.len() + offsets.len()
        ));
        offsets.push(format!("(size_t)({count}) * sizeof(({name})[0])"));
        let joff = k.params.len() + offsets.len();
        offsets.push(format!("(size_t)((char *)({start}) - (char *)({base}))"));
        if var.shape == acc_engine::facts::Shape::Pointer {
            decls.line(&format!(
                "{} = ({})((char *)__acc_slot[{j}] - *(const size_t *)__acc_args[{joff}]); (void){name};",
                    declare_as(self.unit, r.var, name),
                    declare_as(self.unit, r.var, "")
                ));
        } else {
            decls.line(&format!(
                "{} = ({})((char *)__acc_slot[{j}] - *(const size_t *)__acc_args[{joff}]); (void)__acc_r_{name};",
                    declare_as(self.unit, r.var, &format!("(*__acc_r_{name})")),
                    declare_as(self.unit, r.var, "(*)")
                ));
            self.renames.push((r.var, format!("(*__acc_r_{name})")));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lower::lower_test_file;

    /// The uses an error says lie outside the part of a variable a reduction reduces.
    fn outside(src: &str) -> Vec<String> {
        let (_, diags) = lower_test_file(src);
        diags
            .iter()
            .filter(|d| d.message.contains("the part of"))
            .map(|d| src[d.span.range()].to_string())
            .collect()
    }

    /// A reduction of an array element, a section or a struct member reduces a private copy
    /// that holds only that part: another element with a constant subscript, another member,
    /// or the struct whole used in the region is an error at the use; the reduced part itself,
    /// and a subscript acc cannot evaluate (a histogram's bin), are not.
    #[test]
    fn uses_outside_the_reduced_part_are_errors() {
        let f = |decl: &str, clause: &str, body: &str| {
            format!(
                "struct acc_s {{ double sum, scale; }};\nvoid f(int *bin) {{\n  {decl}\n#pragma acc parallel loop reduction(+:{clause})\n  for (int i = 0; i < 100; i++) {{ {body} }}\n}}\n"
            )
        };
        let arr = "double arr[4] = {3, 0, 0, 0};";
        let st = "struct acc_s st = {0, 2};";
        assert_eq!(
            outside(&f(arr, "arr[1]", "arr[1] += arr[0] * i;")),
            ["arr[0]"]
        );
        assert_eq!(
            outside(&f(arr, "arr[1:2]", "arr[2] += arr[3];")),
            ["arr[3]"]
        );
        assert_eq!(
            outside(&f(st, "st.sum", "st.sum += st.scale * i;")),
            ["st.scale"]
        );
        assert!(outside(&f(arr, "arr[1:2]", "arr[1] += i; arr[2] += 1;")).is_empty());
        assert!(outside(&f(arr, "arr[0:4]", "arr[bin[i]] += 1;")).is_empty());
        assert!(outside(&f(st, "st.sum", "st.sum += i;")).is_empty());
        assert!(outside(&f(st, "st", "st.sum += i; st.scale += 1;")).is_empty());
        // Two members reduced: the error says to reduce the struct whole.
        let src = f(
            st,
            "st.sum) reduction(+:st.scale",
            "st.sum += i; st.scale += 1;",
        );
        let (_, diags) = lower_test_file(&src);
        assert!(
            diags.iter().any(|d| d
                .notes
                .iter()
                .any(|n| n.contains("reduce the whole struct"))),
            "{diags:?}"
        );
    }
}
