//! The host side of a compute construct: the kernel's arguments and their descriptors, the
//! launch (one per part of a `kernels` region), the `if` clause's host version, and each
//! kernel function's frame (its declarations around the body that [`super::body`] writes).
//!
//! It must not rewrite the construct's statements itself (that is [`super::body`]'s) nor decide
//! how the CUDA version spreads loops ([`super::spread`]).

use super::*;

/// A kernel argument: kind, address expression, byte count, text literal.
pub(super) fn arg(kind: &str, addr: String, bytes: &str, text: &str) -> [String; 4] {
    [kind.into(), addr, bytes.into(), text.into()]
}

impl<'a> Lowerer<'a> {
    /// Outlines a compute construct.
    pub(super) fn kernel(&mut self, id: ConstructId, k: &KernelPlan) {
        let c = self.unit.construct(id);
        let Some(body) = c.body else { return };
        let line = self.line(c.pragma_span);
        let n = self.fresh();
        let fname = format!("__acc_kernel{n}");

        // Host side: data, arguments, reductions, launch.
        let (data_array, data_count) = self.data_array_compact(&k.data, &format!("__acc_d{n}"));
        let mut args = Vec::new();
        // The CUDA version's parameters, one per argument.
        let mut cuda_params = Vec::new();
        let mut cuda_reds = Vec::new();
        let mut cuda_slot_bytes = Vec::new();
        let mut cuda_blocks = false;
        let mut offsets: Vec<String> = Vec::new();
        let mut decls = String::new();
        let mut value_decls = String::new();
        let mut sections: Vec<(VarId, VarItem, bool)> = Vec::new();
        for (i, p) in k.params.iter().enumerate() {
            let var = self.unit.var(p.var);
            let name = &var.name;
            let text = c_string(name);
            match p.pass {
                Pass::Mapped => {
                    match self.probe(id, p.var) {
                        // Only part of the array is mapped: find the device
                        // copy through that part, then step back to element 0.
                        Some(probe) => {
                            let j = k.params.len() + offsets.len();
                            args.push(arg("ACC_RT_ARG_MAPPED", format!("({probe})"), "0", &text));
                            cuda_params.push(CudaParam::Pointer);
                            offsets.push(format!("(size_t)((char *)({probe}) - (char *)&{name})"));
                            let address = format!("(char *)*(void **)__acc_args[{i}] - *(const size_t *)__acc_args[{j}]");
                            decls.push_str(&self.pointer_decl(
                                declare_as_unbound(self.unit, p.var, "(*\0)"),
                                &format!("__acc_p_{name}"),
                                &address,
                            ));
                        }
                        None => {
                            args.push(arg("ACC_RT_ARG_MAPPED", format!("&{name}"), "0", &text));
                            cuda_params.push(CudaParam::Pointer);
                            let address = format!("*(void **)__acc_args[{i}]");
                            decls.push_str(&self.pointer_decl(
                                declare_as_unbound(self.unit, p.var, "(*\0)"),
                                &format!("__acc_p_{name}"),
                                &address,
                            ));
                        }
                    }
                }
                Pass::TranslatedPointer if self.probe(id, p.var).is_some() => {
                    // The pointer's target is mapped from an offset: look
                    // up that part, then step back to where it points.
                    let probe = self.probe(id, p.var).unwrap_or_default();
                    let j = k.params.len() + offsets.len();
                    args.push(arg("ACC_RT_ARG_POINTER", format!("({probe})"), "0", &text));
                    cuda_params.push(CudaParam::Pointer);
                    offsets.push(format!("(size_t)((char *)({probe}) - (char *)({name}))"));
                    let address = format!(
                        "(char *)*(void **)__acc_args[{i}] - *(const size_t *)__acc_args[{j}]"
                    );
                    decls.push_str(&self.pointer_decl(
                        declare_as(self.unit, p.var, "\0"),
                        name,
                        &address,
                    ));
                }
                Pass::TranslatedPointer | Pass::Deviceptr => {
                    let kind = if p.pass == Pass::Deviceptr {
                        "ACC_RT_ARG_DEVICEPTR"
                    } else {
                        "ACC_RT_ARG_POINTER"
                    };
                    args.push(arg(kind, name.clone(), "0", &text));
                    cuda_params.push(CudaParam::Pointer);
                    let address = format!("*(void **)__acc_args[{i}]");
                    decls.push_str(&self.pointer_decl(
                        declare_as(self.unit, p.var, "\0"),
                        name,
                        &address,
                    ));
                }
                Pass::Value => {
                    args.push(arg(
                        "ACC_RT_ARG_VALUE",
                        format!("&{name}"),
                        &format!("sizeof({name})"),
                        &text,
                    ));
                    cuda_params.push(CudaParam::Value {
                        decl: declare_as(self.unit, p.var, "v"),
                    });
                    if let Some((item, true)) = self.private_section(id, p.var) {
                        // Declared below, as the gang's copy of the section.
                        sections.push((p.var, item, true));
                        continue;
                    }
                    if var.shape == acc_engine::facts::Shape::Array {
                        let _ = writeln!(
                            decls,
                            "  {}; __builtin_memcpy((void *)&{name}, __acc_args[{i}], sizeof({name})); (void){name};",
                            declare_as(self.unit, p.var, name)
                        );
                    } else {
                        // First: a variable-length array's type may name it.
                        let _ = writeln!(
                            value_decls,
                            "  {} = *({})__acc_args[{i}]; (void){name};",
                            declare_as(self.unit, p.var, name),
                            declare_as(self.unit, p.var, "(*)")
                        );
                    }
                }
            }
        }
        decls.insert_str(0, &value_decls);
        // The function's own types (and enumerators) that the kernel's declarations and body
        // may name: ahead of everything in the host kernel; around the CUDA kernel and its
        // parameters' structs, which name them too.
        // A typedef the kernel repeats, or whose only use in the host function was the
        // construct, is used as far as the C compiler can tell.
        let (mut local_types, mut typedefs_used) = (String::new(), String::new());
        for t in self.unit.local_types_at(c.pragma_span) {
            let _ = writeln!(local_types, "  {}", t.text);
            for name in &t.typedef_names {
                let _ = write!(typedefs_used, "(void)sizeof({name}); ");
            }
        }
        for &v in &k.private {
            if let Some((item, false)) = self.private_section(id, v) {
                sections.push((v, item, false));
                continue;
            }
            let name = &self.unit.var(v).name;
            let _ = writeln!(decls, "  {}; (void){name};", declare_as(self.unit, v, name));
        }
        // Each gang's copy of a private section lives in storage the runtime makes for the
        // launch; the copy's size and the section's offset from the pointer travel as values.
        let mut section_plans = Vec::new();
        for (v, item, first) in std::mem::take(&mut sections) {
            let var = self.unit.var(v);
            let name = var.name.clone();
            let sections_in_item = item
                .accessors
                .iter()
                .filter(|a| matches!(a, Accessor::Section { .. }))
                .count();
            if var.shape != acc_engine::facts::Shape::Pointer || sections_in_item != 1 {
                self.diags.push(Diagnostic::error(
                    item.span,
                    format!(
                        "`{}`: acc gives each gang its copy of a section of a pointer's target (`p[lo:n]`); privatize the whole array here",
                        item.text
                    ),
                ));
                continue;
            }
            let Some((start, bytes)) = self.item_extent(&item, v) else {
                continue;
            };
            let jb = k.params.len() + offsets.len();
            offsets.push(format!("(size_t)({bytes})"));
            let jl = k.params.len() + offsets.len();
            offsets.push(format!("(size_t)((char *)({start}) - (char *)({name}))"));
            section_plans.push((v, name, first, start, bytes, jb, jl, item.text.clone()));
        }
        let mut reds = Vec::new();
        let mut red_store = String::new();
        self.renames.clear();
        for (j, r) in k.reductions.iter().enumerate() {
            let var = self.unit.var(r.var);
            let name = &var.name;
            let array = matches!(
                var.shape,
                acc_engine::facts::Shape::Array | acc_engine::facts::Shape::Pointer
            );
            let ty = if array { var.elem_scalar } else { var.scalar };
            if ty.is_none() && !array {
                // A struct or `long double`: the runtime combines with
                // functions generated here.
                // On a GPU each block reduces into its slot on one thread.
                cuda_blocks = true;
                cuda_slot_bytes.push(format!(
                    "sizeof({})",
                    declare_as(self.unit, r.var, "").trim()
                ));
                match custom_reduction(self.unit, r.var, r.op, &format!("{n}_{j}")) {
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
                        red_slot(self.unit, r.var, j, &mut decls, &mut red_store);
                    }
                    Err(why) => self.diags.push(Diagnostic::error(
                        var.decl_span,
                        format!("reduction on `{name}`: {why}"),
                    )),
                }
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
            if !array {
                // A 16-byte private copy does not fit the block tree's shared buffer: each
                // block is then one chunk, reduced by its first thread.
                if var.scalar == Some(ScalarType::C64) {
                    cuda_blocks = true;
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
                red_slot(self.unit, r.var, j, &mut decls, &mut red_store);
                continue;
            }
            cuda_blocks = true;
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
                        continue;
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
                        continue;
                    };
                    (format!("&({name})[({})]", e.text), "1".to_string())
                }
                None if var.shape == acc_engine::facts::Shape::Pointer => {
                    self.diags.push(Diagnostic::error(
                        var.decl_span,
                        format!("a reduction on the pointer `{name}` needs a section, as in `{name}[0:n]`"),
                    ));
                    continue;
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
                let _ = writeln!(
                    decls,
                    "  {} = ({})((char *)__acc_slot[{j}] - *(const size_t *)__acc_args[{joff}]); (void){name};",
                    declare_as(self.unit, r.var, name),
                    declare_as(self.unit, r.var, "")
                );
            } else {
                let _ = writeln!(
                    decls,
                    "  {} = ({})((char *)__acc_slot[{j}] - *(const size_t *)__acc_args[{joff}]); (void)__acc_r_{name};",
                    declare_as(self.unit, r.var, &format!("(*__acc_r_{name})")),
                    declare_as(self.unit, r.var, "(*)")
                );
                self.renames.push((r.var, format!("(*__acc_r_{name})")));
            }
        }

        // The offsets of partly mapped arrays travel as values after the
        // parameters; the host computes them where the launch is.
        let mut offset_decls: String = offsets
            .iter()
            .enumerate()
            .map(|(j, o)| format!("const size_t __acc_off{n}_{j} = {o}; "))
            .collect();
        for j in 0..offsets.len() {
            args.push(arg(
                "ACC_RT_ARG_VALUE",
                format!("&__acc_off{n}_{j}"),
                "sizeof(size_t)",
                "\"offset\"",
            ));
            cuda_params.push(CudaParam::Value {
                decl: "size_t v".into(),
            });
        }
        let mut section_decls = String::new();
        for (m, (v, name, first, start, bytes, jb, jl, text)) in section_plans.iter().enumerate() {
            let i = args.len();
            let kind = if *first {
                "ACC_RT_ARG_FIRSTPRIVATE"
            } else {
                "ACC_RT_ARG_PRIVATE"
            };
            let _ = write!(
                section_decls,
                "const size_t __acc_sec{n}_{m}[2] = {{(size_t)({start}), (size_t)({bytes})}}; "
            );
            args.push(arg(
                kind,
                format!("(void *)__acc_sec{n}_{m}"),
                "0",
                &c_string(text),
            ));
            cuda_params.push(CudaParam::Pointer);
            let (ptr, ty) = (
                declare_as(self.unit, *v, name),
                declare_as(self.unit, *v, ""),
            );
            let b = format!("*(const size_t *)__acc_args[{jb}]");
            let l = format!("*(const size_t *)__acc_args[{jl}]");
            let storage = format!("(char *)*(void **)__acc_args[{i}]");
            let copy = |gang: &str| {
                format!("  {ptr} = ({ty})({storage} + ((size_t)({gang}) + 1) * {b} - {l}); (void){name};\n")
            };
            let _ = write!(decls, "#ifdef __CUDACC__\n{}", copy("blockIdx.x"));
            if *first {
                let _ = writeln!(
                    decls,
                    "  {{ const char *__acc_s = {storage}; char *__acc_d = (char *){name} + {l}; \
                     for (size_t __acc_k = (size_t)threadIdx.y * blockDim.x + threadIdx.x; __acc_k < {b}; __acc_k += (size_t)blockDim.x * blockDim.y) __acc_d[__acc_k] = __acc_s[__acc_k]; \
                     __syncthreads(); }}"
                );
            }
            let _ = write!(decls, "#else\n{}", copy("__acc_chunk->index"));
            if *first {
                let _ = writeln!(
                    decls,
                    "  __builtin_memcpy((char *){name} + {l}, {storage}, {b});"
                );
            }
            decls.push_str("#endif\n");
        }
        offset_decls.push_str(&section_decls);
        let has_private_sections = !section_plans.is_empty();
        // The file-scope variables routines use: each kernel sets the CUDA module's device
        // pointer to the device copy (`crate::cuda::support`), found by its host address.
        let mut bind_globals = String::new();
        for g in &self.routine_globals {
            let i = args.len();
            args.push(arg(
                "ACC_RT_ARG_POINTER",
                format!("&{g}"),
                "0",
                &c_string(g),
            ));
            cuda_params.push(CudaParam::Pointer);
            let _ = writeln!(
                bind_globals,
                "  __acc_gp_{g} = (decltype(__acc_gp_{g}))*(void *const *)__acc_args[{i}];"
            );
        }
        // A `kernels` region runs each statement of its block as its own
        // kernel, in order: a loop nest with gang partitioning on many
        // gangs, anything else on one.
        // A loop without a directive proven independent runs on many gangs.
        let plain_gang = |s: Span| {
            k.plain_loops
                .iter()
                .any(|(i, verdict)| verdict.is_ok() && c.plain_loops[*i].0.start == s.start)
        };
        let parts: Vec<(Span, String)> = if k.kind == EffKind::Kernels
            && !c.directive.kind.is_combined()
            && !c.statements.is_empty()
        {
            c.statements
                .iter()
                .map(|&s| {
                    let gang = plain_gang(s)
                        || k.loops.iter().any(|l| {
                            l.partition.gang.is_some()
                                && self.unit.construct(l.construct).pragma_span.start == s.start
                        });
                    (
                        s,
                        if gang {
                            "INT64_MAX".to_string()
                        } else {
                            "1".to_string()
                        },
                    )
                })
                .collect()
        } else if k.kind == EffKind::Kernels && plain_gang(body) {
            vec![(body, "INT64_MAX".to_string())]
        } else {
            vec![(body, self.iterations(id, k))]
        };
        let num = |kind| {
            self.clause_expr(id, kind)
                .map_or("0".to_string(), |e| format!("(int32_t)({e})"))
        };
        let num_gangs = if k.kind == EffKind::Serial {
            "1".to_string()
        } else {
            num(ClauseKind::NumGangs)
        };
        let nw = num(ClauseKind::NumWorkers);
        let vl = num(ClauseKind::VectorLength);
        let asy = self.async_arg(id);
        let wait = self.wait_clause(id, line);
        // The compact forms of acc_rt.h: constant tables and one value a
        // slot, cheap for the host compiler (see `acc_rt_launch_v`).
        let args_decl = if args.is_empty() {
            format!("const acc_rt_arg_info *__acc_ai{n} = 0; void *const *__acc_av{n} = 0;")
        } else {
            let info: Vec<String> = args
                .iter()
                .map(|[kind, _, bytes, text]| format!("{{{kind}, {bytes}, {text}}}"))
                .collect();
            let vals: Vec<String> = args
                .iter()
                .map(|[_, addr, _, _]| format!("(void *){addr}"))
                .collect();
            // A static table, unless an array passed by value may be a
            // VLA (whose `sizeof` is not a constant); a local table costs
            // the host compiler a store a field.
            let by_value_array = k.params.iter().any(|p| {
                p.pass == Pass::Value
                    && self.unit.var(p.var).shape == acc_engine::facts::Shape::Array
            });
            format!(
                "{}const acc_rt_arg_info __acc_ai{n}[] = {{{}}}; void *const __acc_av{n}[] = {{{}}};",
                if by_value_array { "" } else { "static " },
                info.join(", "),
                vals.join(", ")
            )
        };
        let reds_decl = if reds.is_empty() {
            format!("const acc_rt_reduction_info *__acc_ri{n} = 0; void *const *__acc_rv{n} = 0;")
        } else {
            let info: Vec<String> = reds
                .iter()
                .map(|[op, ty, _, text, _, size, init, comb]| {
                    format!("{{{op}, {ty}, {text}, {size}, {init}, {comb}}}")
                })
                .collect();
            let vals: Vec<String> = reds
                .iter()
                .map(|[_, _, var, _, count, ..]| {
                    format!("(void *){var}, (void *)(size_t)({count})")
                })
                .collect();
            format!(
                "static const acc_rt_reduction_info __acc_ri{n}[] = {{{}}}; void *const __acc_rv{n}[] = {{{}}};",
                info.join(", "),
                vals.join(", ")
            )
        };
        let construct_name = c.directive.kind.name();
        let mut launches = String::new();
        for (pi, (span, iterations)) in parts.iter().enumerate() {
            let fname = format!("{fname}_{pi}");
            // In `kernels`, `gang(num: e)`, `worker(num: e)` and
            // `vector(length: e)` on the part's loop size its launch.
            let part_loop = (k.kind == EffKind::Kernels)
                .then(|| {
                    k.loops
                        .iter()
                        .find(|l| self.unit.construct(l.construct).pragma_span.start == span.start)
                })
                .flatten()
                .map(|l| &self.unit.construct(l.construct).directive);
            let level_arg = |kind: ClauseKind| {
                part_loop.and_then(|d| {
                    d.clauses
                        .iter()
                        .filter(|c| c.kind == kind)
                        .find_map(|c| match &c.args {
                            ClauseArgs::Gang(args) => args
                                .iter()
                                .find(|a| a.kind == acc_engine::directive::GangArgKind::Num)
                                .map(|a| format!("(int32_t)({})", a.value.text)),
                            ClauseArgs::Worker(Some(e)) | ClauseArgs::Vector(Some(e)) => {
                                Some(format!("(int32_t)({})", e.text))
                            }
                            _ => None,
                        })
                })
            };
            let num_gangs = level_arg(ClauseKind::Gang).unwrap_or_else(|| num_gangs.clone());
            let nw = level_arg(ClauseKind::Worker).unwrap_or_else(|| nw.clone());
            let vl = level_arg(ClauseKind::Vector).unwrap_or_else(|| vl.clone());
            // Lanes where it is exact (and the kernel would spread threads over the gang loop).
            let threads_mode = iterations != "1" && !cuda_blocks && k.gang_partitioned;
            // Once-per-gang effects the region's threads cannot leave to one of them: then a
            // CUDA block is one thread, so that every thread is a gang.
            let mut thread_gangs = threads_mode && self.once_per_gang(id, k, *span).1;
            if thread_gangs {
                self.info.push(format!(
                    "{line}: CUDA: one thread a gang (an atomic or a reduction update in gang-redundant code beside a gang loop)"
                ));
            }
            self.lanes = if threads_mode && !thread_gangs {
                self.lanes_plan(id, k, *span)
            } else {
                None
            };
            // A gang's copy of a private section is shared by the gang's threads: a block must
            // be a gang.
            if threads_mode && self.lanes.is_none() && !thread_gangs && has_private_sections {
                thread_gangs = true;
                self.info.push(format!(
                    "{line}: CUDA: one thread a gang (each gang's copy of a private section)"
                ));
            }
            let lanes = self.lanes.is_some();
            let rows = self.lanes.as_ref().is_some_and(|l| !l.rows.is_empty());
            if rows {
                self.info.push(format!(
                    "{line}: CUDA: a block a gang iteration, its worker loops over the block's rows and their vector loops over each row's lanes"
                ));
            } else if lanes {
                self.info.push(format!(
                    "{line}: CUDA: a block a gang iteration, its worker/vector loops spread over the block's threads"
                ));
            }
            let kernel_body = self.kernel_body(id, k, *span);
            self.lanes = None;
            self.cuda_kernels.push(CudaKernel {
                entry: fname.clone(),
                file: self.file.trim_matches('"').to_string(),
                line: self.line(*span),
                params: cuda_params.clone(),
                slot_bytes: cuda_slot_bytes.clone(),
                reductions: cuda_reds.clone(),
                types: local_types.clone(),
                decls: format!("{decls}{bind_globals}"),
                body: kernel_body.clone(),
                store: red_store.clone(),
                mode: if iterations == "1" {
                    CudaMode::Single
                } else if rows {
                    CudaMode::Rows
                } else if lanes {
                    CudaMode::Lanes
                } else if cuda_blocks || !k.gang_partitioned {
                    // Redundant gangs: each block's first thread runs the region.
                    CudaMode::Blocks
                } else {
                    CudaMode::Threads
                },
            });
            // acc_rt_kernel.cuda_lanes: 1 lanes, 2 rows, 3 one thread a gang (the launch shape
            // must suit them).
            let lanes_code = if thread_gangs {
                3
            } else if rows {
                2
            } else {
                i32::from(lanes)
            };
            let cuda = format!("__acc_cuda_module, \"{fname}\", {lanes_code}");
            let _ = write!(
                launches,
                "static const acc_rt_kernel __acc_k{n}_{pi} = {{\"{construct_name} at line {line}\", {f}, {line}, {fname}, {cuda}}}; \
                 acc_rt_launch_v(&__acc_k{n}_{pi}, {iterations}, {num_gangs}, {nw}, {vl}, {asy}, __acc_ai{n}, __acc_av{n}, {nargs}, __acc_ri{n}, __acc_rv{n}, {nreds}); ",
                f = self.file,
                nargs = args.len(),
                nreds = reds.len(),
            );
            let _ = writeln!(
                self.prototypes,
                "static void {fname}(const acc_rt_chunk *);"
            );
            let mut text = String::new();
            let _ = writeln!(
                text,
                "\n/* {construct_name} at {}:{line} */",
                self.file.trim_matches('"')
            );
            let _ = writeln!(
                text,
                "static void {fname}(const acc_rt_chunk *__acc_chunk) {{"
            );
            // The names the CUDA version gives the arguments and reduction
            // slots, so both read the same declarations.
            let _ = writeln!(
                text,
                "  void *const *const __acc_args = __acc_chunk->args; (void)__acc_args;\n  \
                 void *const *const __acc_slot = __acc_chunk->red; (void)__acc_slot;"
            );
            text.push_str(&local_types);
            if !typedefs_used.is_empty() {
                let _ = writeln!(text, "  {typedefs_used}");
            }
            text.push_str(&decls);
            let _ = writeln!(text, "#line {} {}", self.line(*span), self.file);
            text.push_str(&kernel_body);
            text.push('\n');
            text.push_str(&red_store);
            text.push_str("}\n");
            self.kernels.push_str(&text);
        }
        // The host's own variables that only the kernel's private copies
        // use are, on the host, set and never read; say so to the C compiler.
        let unused: String = k
            .private
            .iter()
            .map(|&v| format!("(void){}; ", self.unit.var(v).name))
            .collect::<String>()
            + &typedefs_used;
        let launch = format!(
            "{wait}{unused}{data_array} acc_rt_region_begin_v({f}, {line}, __acc_d{n}i, __acc_d{n}v, {data_count}, {asy}); \
             {offset_decls}{args_decl} {reds_decl} {launches}\
             acc_rt_region_end_v({f}, {line}, __acc_d{n}i, __acc_d{n}v, {data_count}, {asy});",
            f = self.file,
        );
        let indent = self.indent_of(c.pragma_span);
        let launch = one_statement_a_line(&launch, &indent);
        let host_version = self.host_version(body);
        let replacement = match self.condition(id) {
            Some(cond) => format!(
                "if ({cond}) {{ {launch} }} else {{\n#line {} {}\n{host_version}\n}}",
                self.line(body),
                self.file
            ),
            None => format!("{{ {launch} }}"),
        };
        // A directive that ends a `#if` branch whose statement follows the `#endif`
        // (`#ifdef _OPENMP … #else #pragma acc … #endif` then the loop): the launch goes where
        // the directive is, inside the branch, and the lines between (`#endif`, the other
        // branch) stay; the statement goes.
        let between = &self.src[c.pragma_span.end..body.start];
        if between.lines().any(|l| l.trim_start().starts_with('#')) {
            self.replace(c.pragma_span, replacement);
            self.replace(body, String::new());
        } else {
            self.replace(Span::new(c.pragma_span.start, body.end), replacement);
        }
    }

    /// For an array mapped only in part (by the construct or an enclosing
    /// data region, as `a[lo:len]`), an address inside the mapped part.
    /// The section of `var` in a `private` or `firstprivate` clause of compute construct
    /// `id` (`private(c[0:n])`), and whether it is `firstprivate`.
    pub(super) fn private_section(&self, id: ConstructId, var: VarId) -> Option<(VarItem, bool)> {
        let c = self.unit.construct(id);
        for (ci, clause) in c.directive.clauses.iter().enumerate() {
            if !matches!(clause.kind, ClauseKind::Private | ClauseKind::Firstprivate) {
                continue;
            }
            for (ii, item) in clause.items().iter().enumerate() {
                let named = c
                    .clause_vars
                    .get(ci)
                    .and_then(|v| v.get(ii))
                    .copied()
                    .flatten();
                if named == Some(var) && item.is_subarray() {
                    return Some((item.clone(), clause.kind == ClauseKind::Firstprivate));
                }
            }
        }
        None
    }

    /// The declaration of a kernel's pointer `name` of type `ty` (`\0` where the name goes)
    /// at `address`, for both the host and CUDA (see [`crate::vla`]).
    pub(super) fn pointer_decl(&self, ty: String, name: &str, address: &str) -> String {
        crate::vla::pointer_decl(&ty, name, address, |w| {
            self.unit.vars.iter().any(|v| v.name == w)
        })
    }

    pub(super) fn probe(&mut self, id: ConstructId, var: VarId) -> Option<String> {
        if !matches!(
            self.unit.var(var).shape,
            acc_engine::facts::Shape::Array | acc_engine::facts::Shape::Pointer
        ) {
            return None;
        }
        let scopes = std::iter::once(id).chain(self.unit.ancestors(id));
        let mut found = None;
        for c in scopes {
            let data = match &self.plans[c.0 as usize] {
                ConstructPlan::Kernel(k) => &k.data,
                ConstructPlan::Region { data, .. } => data,
                _ => continue,
            };
            if let Some(item) = data
                .iter()
                .find(|d| d.var == var)
                .and_then(|d| d.item.clone())
            {
                found = Some(item);
                break;
            }
        }
        let item = found.filter(|i| i.is_subarray())?;
        self.item_extent(&item, var).map(|(addr, _)| addr)
    }

    /// The launch's iteration count: the outer loop's trip count when the
    /// host can compute it (a combined construct), "as many gangs as the
    /// device likes" for other gang-partitioned regions, and when nothing
    /// is gang-partitioned, one gang — or, for a `parallel` with
    /// `num_gangs(n)`, `n` gangs, each running the region redundantly, as
    /// OpenACC's gang-redundant mode says (the body then has no gang loop to
    /// share out, so each chunk runs all of it).
    pub(super) fn iterations(&self, id: ConstructId, k: &KernelPlan) -> String {
        if !k.gang_partitioned || k.kind == EffKind::Serial {
            return match self.clause_expr(id, ClauseKind::NumGangs) {
                Some(e) if k.kind == EffKind::Parallel => format!("(long long)({e})"),
                _ => "1".into(),
            };
        }
        let c = self.unit.construct(id);
        if c.directive.kind.is_combined() {
            let headers: Option<Vec<&LoopHeader>> =
                c.loops.iter().map(|l| l.header.as_ref()).collect();
            if let Some(hs) = headers.filter(|h| !h.is_empty()) {
                let trips: Vec<String> = hs
                    .iter()
                    .map(|h| {
                        format!(
                            "__acc_trips((long long)({}), (long long)({}), (long long)({}), {})",
                            h.lower,
                            h.upper,
                            h.step,
                            cmp_code(h.cmp)
                        )
                    })
                    .collect();
                return trips.join(" * ");
            }
        }
        "INT64_MAX".into()
    }

    /// The statement of a compute construct as the host runs it when the
    /// `if` clause is false: the same code without the directives.
    pub(super) fn host_version(&self, body: Span) -> String {
        let mut edits = Vec::new();
        for c in &self.unit.constructs {
            if body.contains(c.pragma_span) {
                edits.push(Edit::remove(c.pragma_span));
            }
        }
        apply_in(self.src, body, edits)
    }
}
