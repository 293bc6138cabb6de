//! Private copies in a kernel: the construct's `private` variables declared in the kernel
//! function, and each gang's copy of a private or firstprivate section (`private(p[lo:n])`),
//! which lives in storage the runtime makes for the launch.
//!
//! It must not know loops or the launch; it adds to the kernel's [`Frame`].

use super::frame::{arg, Frame, SectionPlan};
use super::*;

impl Lowerer<'_> {
    /// The construct's private variables, declared in the kernel function; private sections
    /// planned, their size and offset passed as values.
    pub(super) fn kernel_privates(&mut self, id: ConstructId, k: &KernelPlan, f: &mut Frame) {
        let Frame {
            offsets,
            decls,
            sections,
            section_plans,
            ..
        } = f;
        for &v in &k.private {
            if let Some((item, false)) = self.private_section(id, v) {
                sections.push((v, item, false));
                continue;
            }
            let name = &self.unit.var(v).name;
            decls.line(&format!(
                "{}; (void){name};",
                declare_as(self.unit, v, name)
            ));
        }
        // Each gang's copy of a private section lives in storage the runtime makes for the
        // launch; the copy's size and the section's offset from the pointer travel as values.
        for (v, item, first) in std::mem::take(sections) {
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
                        "`{}`: acc gives each gang its copy of an array, or of a section of a pointer's target (`p[lo:n]`), not of rows behind pointers",
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
            section_plans.push(SectionPlan {
                var: v,
                name,
                first,
                start,
                bytes,
                jb,
                jl,
                text: item.text.clone(),
            });
        }
    }

    /// Each private section's argument (its extent, for the runtime to make the gangs'
    /// storage) and its pointer in the kernel function, to the gang's copy.
    pub(super) fn private_section_args(&mut self, f: &mut Frame) {
        let Frame {
            n,
            args,
            cuda_params,
            offset_decls,
            decls,
            section_plans,
            ..
        } = f;
        let n = *n;
        let mut section_decls = String::new();
        for (m, p) in section_plans.iter().enumerate() {
            let SectionPlan {
                var: v,
                name,
                first,
                start,
                bytes,
                jb,
                jl,
                text,
            } = p;
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
                format!(
                    "{ptr} = ({ty})({storage} + ((size_t)({gang}) + 1) * {b} - {l}); (void){name};"
                )
            };
            // The gang's copy: a CUDA block's threads copy a firstprivate section together.
            decls
                .directive("#ifdef __CUDACC__")
                .line(&copy("blockIdx.x"));
            if *first {
                decls.line(&format!(
                    "{{ const char *__acc_s = {storage}; char *__acc_d = (char *){name} + {l}; \
                     for (size_t __acc_k = (size_t)threadIdx.y * blockDim.x + threadIdx.x; __acc_k < {b}; __acc_k += (size_t)blockDim.x * blockDim.y) __acc_d[__acc_k] = __acc_s[__acc_k]; \
                     __syncthreads(); }}"
                ));
            }
            decls
                .directive("#else")
                .line(&copy("__acc_chunk->__acc_index"));
            if *first {
                decls.line(&format!(
                    "__builtin_memcpy((char *){name} + {l}, {storage}, {b});"
                ));
            }
            decls.directive("#endif");
        }
        offset_decls.push_str(&section_decls);
    }
}

impl Lowerer<'_> {
    /// The section of `var` in a `private` or `firstprivate` clause of compute construct
    /// `id` (`private(c[0:n])`), and whether it is `firstprivate`. A section of an array
    /// (`private(tmp[0:MC])`) is none: the gang's copy is of the whole array, which holds the
    /// section (OpenACC 3.3 2.5.13 gives the elements outside it no meaning in the region),
    /// and a `firstprivate` one starts from all of the array's values.
    pub(super) fn private_section(&self, id: ConstructId, var: VarId) -> Option<(VarItem, bool)> {
        if self.unit.var(var).shape != acc_engine::facts::Shape::Pointer {
            return None;
        }
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
}
