//! Assembly: a partitioned loop into an acc-engine kernel, a routine into a `__device__`
//! function.
//!
//! Owns the kernel's interface (the launch arguments in order: slices as pointer and length,
//! captured scalars, each level's first index and trip count; the reduction slots), the
//! per-thread copies (compute-level `private`/`firstprivate`, reductions, loop `private`), the
//! grid-stride loop over the flattened nest, and the routine's C signature. It drives the
//! reading ([`super::subset`]) and the emission ([`super::emit`]) and adds no Rust rule of its
//! own beyond what the launch needs (integer loop ranges, scalar reductions of a fitting type).
//!
//! Invariants: `Translated::args` lists exactly the values the kernel's `decls` read, in the
//! order of `__acc_args`; a reduction's slot is its clause position.

use super::emit::{CTy, Emitter};
use super::tree::{Slot, Translator, Tv, S};
use super::{
    ArgSpec, Elem, Input, Level, Outer, RoutineInput, Translated, TranslatedRoutine, Ty,
    Unsupported,
};
use acc_engine::cuda::{CudaParam, CudaReduction};
use acc_engine::directive::ReductionOp;
use std::collections::HashMap;
use std::fmt::Write;
use syn::Stmt;

/// Translates one partitioned loop (the nest of `levels` around `body`) into a kernel; with no
/// levels, host code that touches slices, run once on one GPU thread ([`Mode::Single`]).
///
/// [`Mode::Single`]: acc_engine::cuda::Mode::Single
pub fn translate(input: &Input<'_>) -> Result<Translated, Unsupported> {
    let mut t = Translator::new(input.params, input.locals);
    let level_tvs = level_types(&mut t, input.levels)?;
    let mut level_names = Vec::new();
    t.scopes.push(HashMap::new());
    for (l, tv) in input.levels.iter().zip(&level_tvs) {
        level_names.push(l.var.as_ref().map(|v| t.declare(v, *tv, false)));
    }
    let per_thread = per_thread_copies(&mut t, input)?;
    // The body, with loop-private copies made per iteration.
    let privates: Vec<syn::Ident> = input
        .privates
        .iter()
        .map(|p| syn::Ident::new(p, proc_macro2::Span::call_site()))
        .collect();
    let mut block_stmts: Vec<Stmt> = privates
        .iter()
        .map(|p| syn::parse_quote!(let mut #p = #p;))
        .collect();
    block_stmts.extend(input.body.stmts.iter().cloned());
    let body = t.stmts(&block_stmts)?;
    let calls = t.call_sites();

    // Emission.
    let red_names: Vec<&str> = input.reductions.iter().map(|(_, v)| v.as_str()).collect();
    let mut em = Emitter {
        t: &t,
        out: String::new(),
        indent: 1,
        func: input.function.to_string(),
        temps: 0,
    };
    let mut it = Interface::default();
    it.slices(&t, input.params);
    it.captures(&em, &red_names)?;
    let level_tys = it.levels(&em, input.levels, &level_tvs)?;
    it.per_thread(&em, &per_thread, &red_names)?;
    let reds = reductions(&em, input.reductions, &per_thread)?;
    grid_loop(&mut em, input.levels.len(), &level_names, &level_tys, &body)?;
    let body_text = std::mem::take(&mut em.out);
    let kernel = acc_engine::cuda::CudaKernel {
        entry: input.entry.clone(),
        file: input.function.to_string(),
        line: 1,
        params: it.params,
        slot_bytes: reds.slot_bytes,
        reductions: reds.cuda,
        types: String::new(),
        decls: it.decls,
        body: body_text,
        store: String::new(),
        mode: if input.levels.is_empty() {
            acc_engine::cuda::Mode::Single
        } else {
            acc_engine::cuda::Mode::Threads
        },
    };
    // The user types the kernel's text names (a loop's bounds, evaluated on the host, may have
    // named others).
    let text = format!("{}{}", kernel.decls, kernel.body);
    let types = t
        .named
        .iter()
        .filter(|n| mentions(&text, &n.alias))
        .cloned()
        .collect();
    Ok(Translated {
        kernel,
        args: it.args,
        reductions: reds.types,
        calls,
        types,
    })
}

/// Whether C `text` names the identifier `name` (not as a part of a longer one).
fn mentions(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

/// A per-thread copy: the Rust name, the C name of the value it starts from, its C name, its
/// type variable.
type PerThread = (String, String, String, Tv);

/// The type variables of the levels' index variables. The bounds are evaluated on the host;
/// here they only type the index variables. Bounds may name things outside the subset (the
/// host evaluates them): what they captured is forgotten after, so the kernel does not
/// receive them.
fn level_types(t: &mut Translator<'_>, levels: &[Level]) -> Result<Vec<Tv>, Unsupported> {
    let mut level_tvs = Vec::new();
    for l in levels {
        let lo = t.expr(&l.lo);
        let hi = t.expr(&l.hi);
        let tv = t.fresh(Slot::Free);
        if let Ok(lo) = &lo {
            let lt = t.type_of(lo);
            t.unify(tv, lt, &l.lo)?;
        }
        if let Ok(hi) = &hi {
            let ht = t.type_of(hi);
            t.unify(tv, ht, &l.hi)?;
        }
        level_tvs.push(tv);
    }
    t.captures.clear();
    t.slices.clear();
    t.calls.clear();
    t.scopes = vec![HashMap::new()];
    t.names.clear();
    Ok(level_tvs)
}

/// Per-thread copies (compute-level private/firstprivate) and reduction copies, declared in
/// the level scope so the body sees them.
fn per_thread_copies(
    t: &mut Translator<'_>,
    input: &Input<'_>,
) -> Result<Vec<PerThread>, Unsupported> {
    let mut per_thread = Vec::new();
    for name in input
        .per_chunk
        .iter()
        .chain(input.reductions.iter().map(|(_, v)| v))
    {
        if input
            .levels
            .iter()
            .any(|l| l.var.as_deref() == Some(name.as_str()))
        {
            continue;
        }
        let (outer, tv, _) = t
            .var(name, &syn::Ident::new("x", proc_macro2::Span::call_site()))
            .map_err(|_| {
                Unsupported::new(format!(
                    "`{name}` is a slice: only scalars are private or reduced here"
                ))
            })?;
        t.scopes.push(HashMap::new());
        let c = t.declare(name, tv, true);
        // Keep the declaration visible to the body: move it into the level scope.
        let v = t.scopes.pop().unwrap().remove(name).unwrap();
        t.scopes.last_mut().unwrap().insert(name.clone(), v);
        per_thread.push((name.clone(), outer, c, tv));
    }
    Ok(per_thread)
}

/// The kernel's interface as it is built: the launch's arguments, the C parameters, and the
/// declarations that read them from `__acc_args` (in the same order).
#[derive(Default)]
struct Interface {
    args: Vec<ArgSpec>,
    params: Vec<CudaParam>,
    decls: String,
}

impl Interface {
    /// Each slice the body uses: its pointer and its length.
    fn slices(&mut self, t: &Translator<'_>, outer: &HashMap<String, Outer>) {
        for s in &t.slices {
            let Some(Outer::Slice(elem, mutable)) = outer.get(s) else {
                unreachable!()
            };
            let i = self.args.len();
            let cst = if *mutable { "" } else { "const " };
            let _ = writeln!(
                self.decls,
                "  {cst}{} *const {s}_ptr = *({cst}{} *const *)__acc_args[{i}];",
                elem.c(),
                elem.c()
            );
            self.args.push(ArgSpec::Slice(s.clone()));
            self.params.push(CudaParam::Pointer);
            let i = self.args.len();
            let _ = writeln!(
                self.decls,
                "  const unsigned long long {s}_len = *(const unsigned long long *)__acc_args[{i}];"
            );
            self.args.push(ArgSpec::Len(s.clone()));
            self.params.push(CudaParam::Value {
                decl: "unsigned long long v".into(),
            });
        }
    }

    /// Each scalar of the enclosing function the body reads (a reduction variable is a slot
    /// instead), by value.
    fn captures(&mut self, em: &Emitter<'_>, red_names: &[&str]) -> Result<(), Unsupported> {
        let mut seen = Vec::new();
        for (name, c, tv) in &em.t.captures {
            if seen.contains(name) || red_names.contains(&name.as_str()) {
                continue;
            }
            seen.push(name.clone());
            let ty = em.cty(*tv, name)?;
            let i = self.args.len();
            let _ = writeln!(
                self.decls,
                "  const {} {c} = *(const {} *)__acc_args[{i}];",
                ty.c(),
                ty.c()
            );
            self.args.push(match ty.known() {
                Some(t) => ArgSpec::Value(name.clone(), t),
                None if matches!(ty, CTy::Sym(_, Slot::Named(_))) => ArgSpec::Bytes(name.clone()),
                None => ArgSpec::Signature(name.clone()),
            });
            self.params.push(CudaParam::Value {
                decl: format!("{} v", ty.c()),
            });
        }
        Ok(())
    }

    /// Each level's first index, of the index type, and trip count; the index types.
    fn levels(
        &mut self,
        em: &Emitter<'_>,
        levels: &[Level],
        level_tvs: &[Tv],
    ) -> Result<Vec<Ty>, Unsupported> {
        let mut level_tys = Vec::new();
        for (j, (l, tv)) in levels.iter().zip(level_tvs).enumerate() {
            let ty = em.ty(*tv, l.var.as_deref().unwrap_or("_"))?;
            if !ty.is_int() {
                return Err(Unsupported::new(
                    "a partitioned loop over a range of non-integers".into(),
                ));
            }
            level_tys.push(ty);
            let i = self.args.len();
            let _ = writeln!(
                self.decls,
                "  const {} __acc_lo{j} = *(const {} *)__acc_args[{i}];",
                ty.c(),
                ty.c()
            );
            self.args.push(ArgSpec::Lo(j, ty));
            self.params.push(CudaParam::Value {
                decl: format!("{} v", ty.c()),
            });
            let i = self.args.len();
            let _ = writeln!(
                self.decls,
                "  const long long __acc_n{j} = *(const long long *)__acc_args[{i}];"
            );
            self.args.push(ArgSpec::Count(j));
            self.params.push(CudaParam::Value {
                decl: "long long v".into(),
            });
        }
        Ok(level_tys)
    }

    /// The per-thread copies: a reduction's starts from its slot, the others from the value
    /// captured.
    fn per_thread(
        &mut self,
        em: &Emitter<'_>,
        per_thread: &[PerThread],
        red_names: &[&str],
    ) -> Result<(), Unsupported> {
        for (name, outer, c, tv) in per_thread {
            let ty = em.cty(*tv, name)?;
            if let Some(j) = red_names.iter().position(|r| r == name) {
                let _ = writeln!(
                    self.decls,
                    "  {} {c} = *({} *)__acc_slot[{j}];",
                    ty.c(),
                    ty.c()
                );
                let _ = outer;
            } else {
                let _ = writeln!(self.decls, "  {} {c} = {outer};", ty.c());
            }
        }
        Ok(())
    }
}

/// The kernel's reductions, in clause order.
struct Reductions {
    /// Each variable's type (`None`: a routine's signature decides it).
    types: Vec<Option<Ty>>,
    /// acc-engine's reductions.
    cuda: Vec<CudaReduction>,
    /// The slots' sizes.
    slot_bytes: Vec<String>,
}

/// The kernel's reductions, each checked against its operator.
fn reductions(
    em: &Emitter<'_>,
    clauses: &[(ReductionOp, String)],
    per_thread: &[PerThread],
) -> Result<Reductions, Unsupported> {
    let mut reductions = Vec::new();
    let mut cuda_reds = Vec::new();
    let mut slot_bytes = Vec::new();
    for (op, name) in clauses {
        let Some((_, _, c, tv)) = per_thread.iter().find(|p| &p.0 == name) else {
            return Err(Unsupported::new(format!(
                "the reduction variable `{name}` is a loop index"
            )));
        };
        let ty = em.cty(*tv, name)?;
        if let Some(t) = ty.known() {
            let ok = match op {
                ReductionOp::BitAnd | ReductionOp::BitOr | ReductionOp::BitXor => t.is_int(),
                ReductionOp::LogAnd | ReductionOp::LogOr => !t.is_float(),
                _ => t != Ty::Bool,
            };
            if !ok {
                return Err(Unsupported::new(format!(
                    "reduction on `{name}`: `{}`",
                    t.rust()
                )));
            }
        }
        reductions.push(ty.known());
        slot_bytes.push(format!("sizeof({})", ty.c()));
        cuda_reds.push(CudaReduction {
            op: *op,
            ty: ty.c().into(),
            var: c.clone(),
            slot: cuda_reds.len(),
        });
    }
    Ok(Reductions {
        types: reductions,
        cuda: cuda_reds,
        slot_bytes,
    })
}

/// The grid-stride loop over the flattened nest of `n` levels, outer levels first, around the
/// body.
fn grid_loop(
    em: &mut Emitter<'_>,
    n: usize,
    level_names: &[Option<String>],
    level_tys: &[Ty],
    body: &[S],
) -> Result<(), Unsupported> {
    let total = if n == 0 {
        "1".to_string()
    } else {
        (0..n)
            .map(|j| format!("__acc_n{j}"))
            .collect::<Vec<_>>()
            .join(" * ")
    };
    em.line(&format!("const long long __acc_total = {total};"));
    em.line("for (long long __acc_k = __ACC_FIRST(__acc_total); __acc_k < __ACC_END(__acc_total); __acc_k += __ACC_STEP) {");
    em.indent += 1;
    em.line("long long __acc_rest = __acc_k;");
    let mut at = vec![String::new(); n];
    for j in (0..n).rev() {
        em.line(&format!(
            "const long long __acc_at{j} = __acc_rest % __acc_n{j}; __acc_rest /= __acc_n{j};"
        ));
        at[j] = format!("__acc_at{j}");
    }
    for (j, name) in level_names.iter().enumerate() {
        if let Some(c) = name {
            let ty = level_tys[j];
            // lo + k in the index type, wrapping as `nth` does on the host.
            em.line(&format!(
                "const {} {c} = ({})((unsigned long long)__acc_lo{j} + (unsigned long long)__acc_at{j});",
                ty.c(),
                ty.c()
            ));
        }
    }
    em.line("{");
    em.indent += 1;
    em.stmts(body)?;
    em.indent -= 1;
    em.line("}");
    em.indent -= 1;
    em.line("}");
    Ok(())
}

/// Translates an `#[acc::routine]` function into the parts of a `__device__` function. Scalar
/// parameters are C parameters of their type, slices a pointer and a length (`x_ptr`,
/// `x_len`), as in kernels.
pub fn translate_routine(input: &RoutineInput<'_>) -> Result<TranslatedRoutine, Unsupported> {
    let mut slices = HashMap::new();
    for (name, outer, _) in input.params {
        match outer {
            Outer::Slice(..) => {
                slices.insert(name.clone(), outer.clone());
            }
            Outer::Scalar(_) | Outer::Value(_) => {}
            Outer::Other | Outer::Generic(_) => {
                return Err(Unsupported::new(format!(
                    "the parameter `{name}` has a type outside the CUDA subset"
                )))
            }
        }
    }
    let mut t = Translator::new(&slices, input.locals);
    let ret = input.ret.as_ref().map(|r| t.elem_tv(r));
    t.routine = Some(ret);
    let mut params = Vec::new();
    let mut param_types = Vec::new();
    for (name, outer, mutable) in input.params {
        param_types.push(match outer {
            Outer::Scalar(ty) => ty.c().to_string(),
            Outer::Value(n) => n.alias.clone(),
            _ => String::new(),
        });
        match outer {
            Outer::Value(n) => {
                let tv = t.named_tv(n);
                let c = t.declare(name, tv, *mutable);
                let cst = if *mutable { "" } else { "const " };
                params.push(format!("{cst}{} {c}", n.alias));
            }
            Outer::Scalar(ty) => {
                let tv = t.known(*ty);
                let c = t.declare(name, tv, *mutable);
                let cst = if *mutable { "" } else { "const " };
                params.push(format!("{cst}{} {c}", ty.c()));
            }
            Outer::Slice(elem, mutable) => {
                let cst = if *mutable { "" } else { "const " };
                params.push(format!("{cst}{} *const {name}_ptr", elem.c()));
                params.push(format!("const unsigned long long {name}_len"));
            }
            Outer::Other | Outer::Generic(_) => unreachable!("rejected above"),
        }
    }
    let body = t.value_block(input.body)?;
    let calls = t.call_sites();
    let mut em = Emitter {
        t: &t,
        out: String::new(),
        indent: 1,
        func: input.function.to_string(),
        temps: 0,
    };
    em.stmts(&body)?;
    let body = format!("{{\n{}}}\n", em.out);
    Ok(TranslatedRoutine {
        ret: input.ret.as_ref().map_or("void", Elem::c).to_string(),
        types: t.named.clone(),
        params: if params.is_empty() {
            "void".into()
        } else {
            params.join(", ")
        },
        param_types,
        body,
        calls,
    })
}
