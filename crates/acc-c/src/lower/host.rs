//! The host side of a compute construct: the kernel's parameters, arguments and their
//! descriptors, the launch (one per part of a `kernels` region), the `if` clause's host
//! version, each part's CUDA form, and each kernel function (written with the
//! [`super::writer`]: its declarations, gathered in a [`Frame`], around the body that
//! [`super::body`] writes).
//!
//! It must not rewrite the construct's statements itself (that is [`super::body`]'s) nor decide
//! how the CUDA version spreads loops ([`super::spread`]).

use super::chunk::cmp_code;
use super::edit::{apply_in, one_statement_a_line};
use super::frame::{arg, Frame};
use super::*;

/// The launch's settings that every part of a construct shares.
pub(super) struct Launch {
    line: usize,
    fname: String,
    construct_name: &'static str,
    pub(super) num_gangs: String,
    pub(super) nw: String,
    pub(super) vl: String,
    asy: String,
}

impl<'a> Lowerer<'a> {
    /// Outlines a compute construct.
    pub(super) fn kernel(&mut self, id: ConstructId, k: &KernelPlan) {
        let c = self.unit.construct(id);
        let Some(body) = c.body else { return };
        let line = self.line(c.pragma_span);
        let n = self.fresh();
        let parts = self.kernel_parts(id, k, body);
        let (region, groups) = self.reductions_by_part(k, &parts);
        let k = &region;
        // Host side: data, arguments, reductions, launch.
        let (data_array, data_count) = self.data_array_compact(&k.data, &format!("__acc_d{n}"));
        let (mut num_gangs, nw, vl) = self.launch_dims(id, k);
        if let Some(routine) = self.gang_routine_called(body) {
            // acc compiles a routine's gang loops as whole loops: run by one gang, they cover
            // their iterations once, as the gangs sharing them would.
            if c.directive.has(ClauseKind::NumGangs) && num_gangs != "__acc_dim(1)" {
                self.diags.push(
                    Diagnostic::warning(
                        c.directive.name_span,
                        format!(
                            "this region calls `{routine}`, a `routine gang`, whose gang loops \
                             acc runs whole in each gang: it runs as one gang, not the \
                             `num_gangs` it asks for"
                        ),
                    )
                    .with_note("the answer is the one the gangs sharing its loops would give"),
                );
            }
            num_gangs = "1".to_string();
        }
        let launch = Launch {
            line,
            fname: format!("__acc_kernel{n}"),
            construct_name: c.directive.kind.name(),
            num_gangs,
            nw,
            vl,
            asy: self.async_arg(id),
        };
        let wait = self.wait_clause(id, line);
        let saved = self.macros_to_save(body);
        let others = std::mem::take(&mut self.kernels);
        // Each group of parts shares one frame (its arguments and reductions): all of them,
        // unless a reduction belongs to one part only (`reductions_by_part`).
        let (mut launches, mut typedefs_used) = (String::new(), String::new());
        for (gi, (gk, members)) in groups.iter().enumerate() {
            let mut f = Frame::new(if gi == 0 { n } else { self.fresh() });
            self.kernel_params(id, gk, &mut f);
            (f.local_types, f.typedefs_used) = self.local_types(c.pragma_span);
            self.kernel_privates(id, gk, &mut f);
            self.kernel_reductions(gk, &mut f);
            self.offset_args(&mut f);
            self.private_section_args(&mut f);
            self.routine_global_args(&mut f);
            let _ = write!(
                launches,
                "{}{}{} {} ",
                self.take_bound_decls(),
                f.offset_decls,
                self.arg_tables(gk, &f),
                reduction_tables(&f)
            );
            for &pi in members {
                let (span, iterations) = &parts[pi];
                launches.push_str(&self.kernel_part(id, gk, pi, *span, iterations, &f, &launch));
            }
            if gi == 0 {
                typedefs_used = f.typedefs_used.clone();
            }
        }
        let functions = std::mem::replace(&mut self.kernels, others);
        if saved.is_empty() {
            self.kernels.push_str(&functions);
        } else {
            self.keep_restoring(&saved, functions);
        }
        let asy = &launch.asy;
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
             {launches}\
             acc_rt_region_end_v({f}, {line}, __acc_d{n}i, __acc_d{n}v, {data_count}, {asy});",
            f = self.file_at(c.pragma_span),
        );
        let indent = self.indent_of(c.pragma_span);
        let launch = format!(
            "{}{}",
            self.clause_checks(id),
            one_statement_a_line(&launch, &indent)
        );
        let host_version = self.host_version(body);
        let mut replacement = match self.condition(id) {
            Some(cond) => format!(
                "if ({cond}) {{ {launch} }} else {{\n#line {} {}\n{host_version}\n}}",
                self.line(body),
                self.file_at(body)
            ),
            None => format!("{{ {launch} }}"),
        };
        if !saved.is_empty() {
            // The pragmas need lines of their own (a `_Pragma` directive may not start one).
            let line_start = self.src[..c.pragma_span.start]
                .rfind('\n')
                .map_or(0, |i| i + 1);
            let own_line = self.src[line_start..c.pragma_span.start].trim().is_empty();
            replacement = format!(
                "{}{}#line {} {}\n{indent}{replacement}",
                if own_line { "" } else { "\n" },
                Self::macro_pragmas(&saved, "push"),
                line,
                self.file_at(c.pragma_span)
            );
        }
        // A directive that ends a `#if` branch whose statement follows the `#endif`
        // (`#ifdef _OPENMP … #else #pragma acc … #endif` then the loop): the launch goes where
        // the directive is, inside the branch, and the lines between (`#endif`, the other
        // branch) stay; the statement goes.
        // A statement that opens in one arm of a `#if` chain and closes after it (`#ifndef
        // ALT` / `#pragma acc parallel` / `{` / `#elif …` / … / `#endif`, the loop, `}`): the
        // chain's lines in it stay, after the launch, so the chain stays whole.
        let (unmatched, _) = super::edit::unmatched_conditionals(self.src, body);
        if !unmatched.is_empty() {
            for l in &unmatched {
                let _ = write!(replacement, "\n{}", &self.src[l.start..l.end]);
            }
            // The text after the statement, numbered as it was.
            let end_line = self.line(body) + self.src[body.start..body.end].matches('\n').count();
            let _ = write!(replacement, "\n#line {end_line} {}\n", self.file_at(body));
        }
        let between = &self.src[c.pragma_span.end..body.start];
        if between.lines().any(|l| l.trim_start().starts_with('#')) {
            self.replace(c.pragma_span, replacement);
            self.replace(body, String::new());
        } else {
            self.replace(Span::new(c.pragma_span.start, body.end), replacement);
        }
    }

    /// The kernel's parameters: for each, its argument, its CUDA parameter, and its declaration
    /// in the kernel function (a pointer to the device copy, a translated pointer, a value).
    fn kernel_params(&mut self, id: ConstructId, k: &KernelPlan, f: &mut Frame) {
        let Frame {
            args,
            cuda_params,
            offsets,
            decls,
            sections,
            alias_macros,
            ..
        } = f;
        let mut value_decls = CWriter::at(1);
        let (mut aliases, mut scalar_aliases) = (CWriter::at(1), CWriter::at(1));
        for (i, p) in k.params.iter().enumerate() {
            let var = self.unit.var(p.var);
            let name = &var.name;
            let text = c_string(name);
            match p.pass {
                Pass::Mapped => {
                    let address = match self.probe(id, p.var) {
                        // Only part of the array is mapped: find the device
                        // copy through that part, then step back to element 0.
                        Some(probe) => {
                            let j = k.params.len() + offsets.len();
                            args.push(arg("ACC_RT_ARG_MAPPED", format!("({probe})"), "0", &text));
                            offsets.push(format!("(size_t)((char *)({probe}) - (char *)&{name})"));
                            format!("(char *)*(void **)__acc_args[{i}] - *(const size_t *)__acc_args[{j}]")
                        }
                        None => {
                            args.push(arg("ACC_RT_ARG_MAPPED", format!("&{name}"), "0", &text));
                            format!("*(void **)__acc_args[{i}]")
                        }
                    };
                    cuda_params.push(CudaParam::Pointer);
                    let ty = hoisted_extents(
                        declare_as_unbound(self.unit, p.var, "(*\0)"),
                        k.params.len(),
                        offsets,
                    );
                    let decl = self.pointer_decl(ty, &format!("__acc_p_{name}"), &address);
                    let alias = self.macro_alias(id, p.var);
                    // An array's alias is a macro of its name, for the body only.
                    if alias.is_some() && var.shape == acc_engine::facts::Shape::Array {
                        alias_macros.push(name.clone());
                    }
                    match alias {
                        // A scalar's value, which a variable-length array's type may name
                        // (`int out[n][n]` in `kernels`, where `n` is a copy): ahead of
                        // every pointer to the arrays.
                        Some(alias) if var.shape != acc_engine::facts::Shape::Array => {
                            scalar_aliases.text(&decl);
                            scalar_aliases.line(&alias);
                        }
                        alias => {
                            decls.text(&decl);
                            if let Some(alias) = alias {
                                aliases.line(&alias);
                            }
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
                    let ty = hoisted_extents(
                        declare_as(self.unit, p.var, "\0"),
                        k.params.len(),
                        offsets,
                    );
                    decls.text(&self.pointer_decl(ty, name, &address));
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
                    let ty = hoisted_extents(
                        declare_as(self.unit, p.var, "\0"),
                        k.params.len(),
                        offsets,
                    );
                    decls.text(&self.pointer_decl(ty, name, &address));
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
                        decls.line(&format!(
                            "{}; __builtin_memcpy((void *)&{name}, __acc_args[{i}], sizeof({name})); (void){name};",
                            declare_as(self.unit, p.var, name)
                        ));
                    } else {
                        // First: a variable-length array's type may name it.
                        value_decls.line(&format!(
                            "{} = *({})__acc_args[{i}]; (void){name};",
                            declare_as(self.unit, p.var, name),
                            declare_as(self.unit, p.var, "(*)")
                        ));
                    }
                }
            }
        }
        let pointers = std::mem::replace(decls, scalar_aliases);
        decls.text(&value_decls.finish());
        decls.text(&pointers.finish());
        decls.text(&aliases.finish());
    }

    /// A mapped variable that the construct's text reaches only through a macro's replacement
    /// text (`#define IDX(i, j) (w[(i) + nx * (j)])`), where no edit of the kernel's text can
    /// reach it: a variable of its own name, bound to the device copy, for the macro to find.
    /// An array's is a pointer to its first element (reads and writes go to the device copy); a
    /// scalar's or struct's is its value, which holds while the region never writes it. One it
    /// writes is an error, with what to do (C has no other name for the device copy).
    fn macro_alias(&mut self, id: ConstructId, v: VarId) -> Option<String> {
        let body = self.unit.construct(id).body?;
        let refs = self.unit.refs_in(body);
        let through_macro = refs.iter().find(|r| r.var == v && r.implied)?;
        let var = self.unit.var(v);
        let name = &var.name;
        // A loop construct's control variable is the loop's own (predetermined private,
        // OpenACC 3.3 2.6.1): the kernel declares it, and the macro finds that one.
        let controls_a_loop = self.unit.constructs.iter().enumerate().any(|(i, c)| {
            (i == id.0 as usize || body.contains(c.pragma_span))
                && c.loops
                    .iter()
                    .any(|l| l.header.as_ref().is_some_and(|h| h.var == *name))
        });
        if controls_a_loop {
            return None;
        }
        if var.shape == acc_engine::facts::Shape::Array {
            // The array itself, as the macro's text means it (`sizeof gases / sizeof gases[0]`),
            // which no variable can be: a macro of its name, for the body only.
            return Some(format!("\n#define {name} (*__acc_p_{name})"));
        }
        let written = refs
            .iter()
            .filter(|r| r.var == v && !r.implied)
            .find(|r| self.writes_at(r.span));
        if let Some(w) = written {
            let (at, written_at) = (through_macro.span, w.span);
            self.diags.push(
                Diagnostic::error(
                    at,
                    format!(
                        "`{name}` is used here through a macro's replacement text, and the \
                         region writes it: acc cannot reach its device copy from the macro"
                    ),
                )
                .with_secondary(written_at, "written here")
                .with_note(format!(
                    "pass `{name}` as a macro argument, or give it `firstprivate({name})` if \
                     the region's writes need not reach the host"
                )),
            );
            return None;
        }
        Some(format!(
            "__ACC_VALUE_ALIAS({name}, *__acc_p_{name}); (void){name};"
        ))
    }

    /// The function's own types (and enumerators) that the kernel's declarations and body
    /// may name: ahead of everything in the host kernel; around the CUDA kernel and its
    /// parameters' structs, which name them too. And the typedefs among them: one the kernel
    /// repeats, or whose only use in the host function was the construct, is used as far as
    /// the C compiler can tell.
    fn local_types(&self, at: Span) -> (CWriter, String) {
        let (mut local_types, mut typedefs_used) = (CWriter::at(1), String::new());
        for t in self.unit.local_types_at(at) {
            local_types.line(&t.text);
            for name in &t.typedef_names {
                let _ = write!(typedefs_used, "(void)sizeof({name}); ");
            }
        }
        (local_types, typedefs_used)
    }

    /// The values the host passes after the parameters: the offsets of partly mapped arrays,
    /// reductions' sections and private sections, computed where the launch is.
    fn offset_args(&mut self, f: &mut Frame) {
        let Frame {
            n,
            args,
            cuda_params,
            offsets,
            offset_decls,
            ..
        } = f;
        let n = *n;
        // The offsets of partly mapped arrays travel as values after the
        // parameters; the host computes them where the launch is.
        *offset_decls = offsets
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
    }

    /// The file-scope variables routines use: each kernel sets the CUDA module's device
    /// pointer to the device copy (`crate::cuda::support`), found by its host address.
    fn routine_global_args(&mut self, f: &mut Frame) {
        let Frame {
            args,
            cuda_params,
            bind_globals,
            ..
        } = f;
        for g in &self.routine_globals {
            let i = args.len();
            args.push(arg(
                "ACC_RT_ARG_POINTER",
                format!("&{g}"),
                "0",
                &c_string(g),
            ));
            cuda_params.push(CudaParam::Pointer);
            bind_globals.line(&format!(
                "__acc_gp_{g} = (decltype(__acc_gp_{g}))*(void *const *)__acc_args[{i}];"
            ));
        }
    }

    /// A `routine gang` function the statement `body` calls, if any.
    fn gang_routine_called(&self, body: Span) -> Option<String> {
        let gang = crate::cuda::gang_routines(self.unit);
        if gang.is_empty() {
            return None;
        }
        crate::cuda::calls_within(
            self.trees,
            self.src,
            std::slice::from_ref(&(body.start..body.end)),
        )
        .into_iter()
        .map(|(name, _)| name)
        .find(|name| gang.contains(name))
    }

    /// The construct's `num_gangs`, `num_workers` and `vector_length`, as the launch takes them.
    fn launch_dims(&self, id: ConstructId, k: &KernelPlan) -> (String, String, String) {
        // A value the program gives that is not positive reaches the runtime as -1, which
        // says so at the launch (0 would mean "not given").
        let num = |kind| {
            self.clause_expr(id, kind)
                .map_or("0".to_string(), |e| format!("__acc_dim({e})"))
        };
        let num_gangs = if k.kind == EffKind::Serial {
            "1".to_string()
        } else {
            num(ClauseKind::NumGangs)
        };
        let nw = num(ClauseKind::NumWorkers);
        let vl = num(ClauseKind::VectorLength);
        (num_gangs, nw, vl)
    }

    /// The compact forms of acc_rt.h: constant tables and one value a
    /// slot, cheap for the host compiler (see `acc_rt_launch_v`).
    fn arg_tables(&self, k: &KernelPlan, f: &Frame) -> String {
        let (n, args) = (f.n, &f.args);
        if args.is_empty() {
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
        }
    }

    /// One part of a construct: its kernel function, its CUDA version, and its launch (returned).
    #[allow(clippy::too_many_arguments)]
    fn kernel_part(
        &mut self,
        id: ConstructId,
        k: &KernelPlan,
        pi: usize,
        span: Span,
        iterations: &str,
        f: &Frame,
        l: &Launch,
    ) -> String {
        let fname = format!("{}_{pi}", l.fname);
        let (num_gangs, nw, vl) = self.part_dims(k, span, l);
        let (thread_gangs, lanes, rows) = self.cuda_shape(id, k, span, iterations, f);
        let mut kernel_body = self.kernel_body(id, k, span);
        for name in &f.alias_macros {
            let _ = write!(kernel_body, "\n#undef {name}\n");
        }
        // A `kernels` region's declaration is a part of its own, whose variables the later
        // parts use (loop variables: each loop's own copy): used, as far as C can tell. (A
        // part that is a loop, a branch or a block declares nothing at its own level.)
        let first_word: String = self.src[span.start..span.end]
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let declaration = !first_word.is_empty()
            && !matches!(
                first_word.as_str(),
                "for" | "while" | "do" | "if" | "switch" | "return" | "goto" | "case" | "default"
            );
        if declaration && !self.unit.construct(id).statements.is_empty() {
            for v in &self.unit.vars {
                if span.contains(v.decl_span) && !v.is_global {
                    let _ = write!(kernel_body, " (void){};", v.name);
                }
            }
        }
        self.lanes = None;
        let Frame {
            cuda_params,
            cuda_slot_bytes,
            cuda_reds,
            local_types,
            decls,
            bind_globals,
            red_store,
            cuda_blocks,
            n,
            args,
            reds,
            ..
        } = f;
        let (cuda_blocks, n, line, construct_name) = (*cuda_blocks, *n, l.line, l.construct_name);
        let asy = &l.asy;
        let mut launches = String::new();
        let host_only = self.host_only_kernel(span, construct_name);
        if !host_only {
            self.cuda_kernels.push(CudaKernel {
                entry: fname.clone(),
                file: self.file_escaped_at(span),
                line: self.line(span),
                params: cuda_params.clone(),
                slot_bytes: cuda_slot_bytes.clone(),
                reductions: cuda_reds.clone(),
                types: local_types.as_str().to_string(),
                decls: format!("{}{}", decls.as_str(), bind_globals.as_str()),
                body: {
                    // Macros the file changes or defines after the construct, as they are here.
                    let (before, after) =
                        self.site_macro_lines(&self.macros_to_save(span), span.start);
                    let kernel_body =
                        crate::cuda::kernel_void_pointer_conversions_cast(&kernel_body);
                    if before.is_empty() {
                        kernel_body
                    } else {
                        format!(
                            "{before}#line {} \"{}\"\n{kernel_body}\n{after}",
                            self.line(span),
                            self.file_escaped_at(span)
                        )
                    }
                },
                store: red_store.as_str().to_string(),
                mode: if iterations == "1" {
                    CudaMode::Single
                } else if rows {
                    CudaMode::Rows
                } else if lanes {
                    CudaMode::Lanes
                } else if cuda_blocks
                    || !(k.gang_partitioned || self.is_plain_gang_loop(id, k, span))
                {
                    // Redundant gangs: each block's first thread runs the region.
                    CudaMode::Blocks
                } else {
                    CudaMode::Threads
                },
            });
        }
        // acc_rt_kernel.cuda_lanes: 1 lanes, 2 rows, 3 one thread a gang (the launch shape
        // must suit them).
        let lanes_code = if thread_gangs {
            3
        } else if rows {
            2
        } else {
            i32::from(lanes)
        };
        let cuda = if host_only {
            "0, 0, 0".to_string()
        } else {
            format!("__acc_cuda_module, \"{fname}\", {lanes_code}")
        };
        let _ = write!(
                launches,
                "static const acc_rt_kernel __acc_k{n}_{pi} = {{\"{construct_name} at line {line}\", {f}, {line}, {fname}, {cuda}}}; \
                 acc_rt_launch_v(&__acc_k{n}_{pi}, {iterations}, {num_gangs}, {nw}, {vl}, {asy}, __acc_ai{n}, __acc_av{n}, {nargs}, __acc_ri{n}, __acc_rv{n}, {nreds}); ",
                f = self.file_at(span),
                nargs = args.len(),
                nreds = reds.len(),
            );
        let _ = writeln!(
            self.prototypes,
            "static void {fname}(const acc_rt_chunk *);"
        );
        let text = self.kernel_function(&fname, span, &kernel_body, f, l);
        self.kernels.push_str(&text);
        launches
    }

    /// The host kernel function of one part: its frame (the argument and slot arrays, the
    /// local types, the declarations) around the body, then the reductions' stores.
    fn kernel_function(
        &self,
        fname: &str,
        span: Span,
        body: &str,
        f: &Frame,
        l: &Launch,
    ) -> String {
        let mut w = CWriter::new();
        w.blank()
            .comment(&format!(
                "{} at {}:{}",
                l.construct_name,
                self.file_escaped_at(span),
                l.line
            ))
            .open(&format!(
                "static void {fname}(const acc_rt_chunk *__acc_chunk)"
            ));
        // The names the CUDA version gives the arguments and reduction
        // slots, so both read the same declarations.
        w.line("void *const *const __acc_args = __acc_chunk->__acc_args; (void)__acc_args;")
            .line("void *const *const __acc_slot = __acc_chunk->__acc_red; (void)__acc_slot;")
            .text(f.local_types.as_str());
        if !f.typedefs_used.is_empty() {
            w.line(&f.typedefs_used);
        }
        w.text(f.decls.as_str())
            .line_marker(self.line(span), &self.file_at(span))
            .text(body)
            .end_line()
            .text(f.red_store.as_str())
            .close();
        w.finish()
    }

    /// The declaration of a kernel's pointer `name` of type `ty` (`\0` where the name goes)
    /// at `address`, for both the host and CUDA (see [`crate::vla`]).
    pub(super) fn pointer_decl(&self, ty: String, name: &str, address: &str) -> String {
        crate::vla::pointer_decl(&ty, name, address, |w| {
            w == "__acc_args" || self.unit.vars.iter().any(|v| v.name == w)
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
            // A member's section (`m->a[0:n]`) maps what the member points to, not a part of
            // the variable's own target; so does a section of a pointer element (`rows[i][0:n]`).
            let v = self.unit.var(var);
            if let Some(item) = data
                .iter()
                .filter(|d| d.var == var)
                .find(|d| {
                    d.item
                        .as_ref()
                        .is_none_or(|i| !i.is_member() && !i.sections_an_elements_pointee(v))
                })
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
                let pointer = |i: usize| {
                    c.loops[i]
                        .control
                        .is_some_and(|v| super::chunk::counts_from_first_value(self.unit.var(v)))
                };
                let trips: Vec<String> = hs
                    .iter()
                    .enumerate()
                    .map(|(i, h)| {
                        // A pointer loop variable's iterations, counted in elements (and a
                        // 64-bit unsigned one's, from its first value).
                        let (lower, upper) = if pointer(i) {
                            ("0".to_string(), format!("({}) - ({})", h.upper, h.lower))
                        } else {
                            (h.lower.clone(), h.upper.clone())
                        };
                        format!(
                            "__acc_trips((long long)({lower}), (long long)({upper}), (long long)({}), {})",
                            h.step,
                            cmp_code(h.cmp)
                        )
                    })
                    .collect();
                return trips.join(" * ");
            }
        }
        "ACC_RT_ANY_GANGS".into()
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
        edits.extend(super::edit::conditional_blanks(self.src, body));
        apply_in(self.src, body, edits)
    }
}

/// The reductions' table and values for the launch (see [`Lowerer::arg_tables`]).
fn reduction_tables(f: &Frame) -> String {
    let (n, reds) = (f.n, &f.reds);
    if reds.is_empty() {
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
            .map(|[_, _, var, _, count, ..]| format!("(void *){var}, (void *)(size_t)({count})"))
            .collect();
        format!(
                "static const acc_rt_reduction_info __acc_ri{n}[] = {{{}}}; void *const __acc_rv{n}[] = {{{}}};",
                info.join(", "),
                vals.join(", ")
            )
    }
}

/// A pointer's type (`\0` where the name goes) with each array extent of its declarator that
/// reaches through memory (`float (*a)[o->size[1]]`, Devito's style, or `[dims[1]]`, `[n()]`)
/// read from a value the host computes at the launch (after the parameters, with the
/// offsets): the kernel cannot reach what the extent names, which lies in host memory.
/// Extents of constants and scalars stay (the scalars reach the kernel themselves).
fn hoisted_extents(ty: String, params: usize, offsets: &mut Vec<String>) -> String {
    let Some(name_at) = ty.find('\0') else {
        return ty;
    };
    let mut out = String::with_capacity(ty.len());
    out.push_str(&ty[..name_at]);
    let rest = &ty[name_at..];
    let b = rest.as_bytes();
    let (mut i, mut last) = (0, 0);
    while i < b.len() {
        if b[i] != b'[' {
            i += 1;
            continue;
        }
        // The extent, to its matching bracket.
        let mut depth = 0usize;
        let mut end = i;
        for (k, &c) in b.iter().enumerate().skip(i) {
            match c {
                b'[' => depth += 1,
                b']' => {
                    depth -= 1;
                    if depth == 0 {
                        end = k;
                        break;
                    }
                }
                _ => {}
            }
        }
        if end == i {
            break;
        }
        let extent = &rest[i + 1..end];
        if crate::vla::extent_reaches_memory(extent) {
            let slot = params + offsets.len();
            offsets.push(format!("(size_t)({extent})"));
            out.push_str(&rest[last..i + 1]);
            out.push_str(&format!("(*(const size_t *)__acc_args[{slot}])"));
            last = end;
        }
        i = end + 1;
    }
    out.push_str(&rest[last..]);
    out
}
