use super::*;
use crate::directive::ReductionOp;

fn sample() -> CudaKernel {
    CudaKernel {
        entry: "__acc_kernel1_0".into(),
        file: "t.c".into(),
        line: 3,
        params: vec![
            CudaParam::Pointer,
            CudaParam::Value {
                decl: "long v".into(),
            },
        ],
        slot_bytes: vec!["sizeof(double)".into()],
        reductions: vec![CudaReduction {
            op: ReductionOp::Add,
            ty: "double".into(),
            var: "sum".into(),
            slot: 0,
        }],
        types: String::new(),
        decls: "  double *x = *(double **)__acc_args[0];\n  long n = *(long *)__acc_args[1];\n  double sum = *(double *)__acc_slot[0];\n".into(),
        body: "for (long long i = __ACC_FIRST(n); i < __ACC_END(n); i += __ACC_STEP) sum += x[i];".into(),
        store: "  *(double *)__acc_slot[0] = sum;\n".into(),
        mode: Mode::Threads,
    }
}

#[test]
fn kernel_follows_the_launch_convention() {
    let text = emit_kernel(&sample());
    assert!(text.contains("struct __acc_kernel1_0_v1 { long v; };"));
    assert!(text.contains(
        "extern \"C\" __global__ void __acc_kernel1_0(void *__acc_a0, struct __acc_kernel1_0_v1 __acc_a1, void *const *__acc_red, long long __acc_iterations)"
    ));
    assert!(text.contains("__acc_block_reduce<double>(sum, __acc_add())"));
    assert!(text.contains("blockIdx.x * (sizeof(double))"));
    assert!(!text.contains("if (blockIdx.x == 0 && threadIdx.x == 0"));
    assert!(!text.contains("*(double *)__acc_slot[0] = sum;"));
}

#[test]
fn once_per_gang_statements_run_on_each_blocks_first_thread() {
    let text = emit_kernel(&sample());
    assert!(text.contains(
        "#define __ACC_REDUNDANT_BEGIN __syncthreads(); if (threadIdx.x == 0 && threadIdx.y == 0) {\n\
         #define __ACC_REDUNDANT_END } __syncthreads();"
    ));
    let mut k = sample();
    k.mode = Mode::Blocks;
    let text = emit_kernel(&k);
    assert!(text.contains("#define __ACC_REDUNDANT_BEGIN {\n#define __ACC_REDUNDANT_END }"));
    assert!(text.contains("#undef __ACC_REDUNDANT_END"));
}

#[test]
fn lanes_kernels_give_each_block_a_gang_iteration_and_spread_the_vector_loop() {
    let mut k = sample();
    k.mode = Mode::Lanes;
    let text = emit_kernel(&k);
    assert!(text.contains("#define __ACC_FIRST(t) (long long)blockIdx.x"));
    assert!(text.contains("#define __ACC_STEP (long long)gridDim.x"));
    assert!(text
        .contains("#define __ACC_VFIRST(t) ((long long)threadIdx.y * blockDim.x + threadIdx.x)"));
    assert!(text.contains("#define __ACC_VSYNC __syncthreads();"));
    assert!(text.contains("#define __ACC_VRED_BEGIN(save, fresh) { save; { fresh;"));
    // One thread writes between barriers: no thread still reads the old value, all see the
    // new one.
    assert!(text.contains(
        "#define __ACC_VSINGLE_BEGIN __syncthreads(); if (threadIdx.x == 0 && threadIdx.y == 0) {"
    ));
    // Every thread runs the body; the gang reductions combine across the block.
    assert!(text.contains("  if (1) {"));
    assert!(text.contains("__acc_block_reduce<double>(sum, __acc_add())"));
    // Elsewhere the vector vocabulary runs in order.
    let text = emit_kernel(&sample());
    assert!(text.contains("#define __ACC_VFIRST(t) 0LL"));
    assert!(text.contains("#define __ACC_VRED_BEGIN(save, fresh) {{"));
}

#[test]
fn rows_kernels_put_workers_on_threadidx_y_and_vectors_on_threadidx_x() {
    let mut k = sample();
    k.mode = Mode::Rows;
    let text = emit_kernel(&k);
    // Gangs are blocks, as in lanes mode; the flat spread stays for other loops.
    assert!(text.contains("#define __ACC_FIRST(t) (long long)blockIdx.x"));
    assert!(text
        .contains("#define __ACC_VFIRST(t) ((long long)threadIdx.y * blockDim.x + threadIdx.x)"));
    assert!(text.contains("#define __ACC_WFIRST(t) ((long long)threadIdx.y)"));
    assert!(text.contains("#define __ACC_WSTEP ((long long)blockDim.y)"));
    assert!(text.contains("#define __ACC_XFIRST(t) ((long long)threadIdx.x)"));
    assert!(text.contains("#define __ACC_XSTEP ((long long)blockDim.x)"));
    assert!(text.contains("#define __ACC_XSYNC __acc_row_sync();"));
    assert!(text.contains("#define __ACC_XSINGLE_BEGIN __acc_row_sync(); if (threadIdx.x == 0) {"));
    // A shape whose rows straddle warps is refused before anything runs.
    assert!(text.contains("if (blockDim.y > 1 && 32 % blockDim.x != 0) __trap();"));
    assert!(text.contains("#undef __ACC_XSINGLE_END"));
    assert!(text.contains("__acc_block_reduce<double>(sum, __acc_add())"));
    // Other modes leave the row vocabulary to the front end's in-order definitions.
    assert!(!emit_kernel(&sample()).contains("__ACC_XFIRST"));
}

#[test]
fn modules_carry_the_long_double_type_only_where_they_name_it() {
    let plain = emit_module("", &[sample()]);
    assert!(!plain.contains("struct alignas(16) __acc_f80"));
    let mut k = sample();
    k.decls.push_str("  long\n  double q = 0;\n");
    assert!(emit_module("", &[k]).contains(PRELUDE_F80));
    assert!(emit_module("typedef long double real;", &[sample()]).contains(PRELUDE_F80));
    // `long long` and `unsigned long` are not it.
    assert!(
        !emit_module("typedef unsigned long long u; long n;", &[sample()]).contains(PRELUDE_F80)
    );
}

#[test]
fn block_kernels_reduce_into_their_slot_on_one_thread_per_block() {
    let mut k = sample();
    k.mode = Mode::Blocks;
    let text = emit_kernel(&k);
    assert!(text.contains("#define __ACC_FIRST(t) (long long)blockIdx.x"));
    assert!(text.contains("if (threadIdx.x == 0 && threadIdx.y == 0) {"));
    assert!(text.contains("*(double *)__acc_slot[0] = sum;"));
    assert!(!text.contains("__acc_block_reduce<double>"));
}

#[test]
fn single_kernels_run_once() {
    let mut k = sample();
    k.mode = Mode::Single;
    let text = emit_kernel(&k);
    assert!(text.contains("if (blockIdx.x == 0 && threadIdx.x == 0 && threadIdx.y == 0) {"));
    assert!(text.contains("*(double *)__acc_slot[0] = sum;"));
    assert!(!text.contains("__acc_block_reduce<double>"));
}
