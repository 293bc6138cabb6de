//! The CUDA C emitter: offload plans made into `extern "C" __global__`
//! kernels that the runtime compiles with NVRTC (see `acc_rt.h` for the
//! launch convention both sides keep).
//!
//! A front end lowers each compute construct once, to a kernel body written
//! against a small vocabulary (`__ACC_FIRST(t)`, `__ACC_END(t)`,
//! `__ACC_STEP` for the outermost gang loop, `acc_rt_atomic_begin/end`
//! around atomics, `__acc_args[i]` for argument values and `__acc_slot[j]`
//! for reduction copies), and hands the pieces to [`emit_module`]. The host
//! build defines that vocabulary one way (contiguous chunks, a process-wide
//! lock); this module defines it for the GPU:
//!
//! - **Partitioning** ([`Mode`]). Where a gang loop contains worker or
//!   vector loops and the front end found the code around them safe to run
//!   on every thread of a block, gangs are blocks ([`Mode::Lanes`]): each
//!   block runs one gang iteration at a time (grid-stride over
//!   `blockIdx.x`), and the outermost worker/vector loop inside is spread
//!   over its threads (`threadIdx.y * blockDim.x + threadIdx.x`, worker and
//!   vector lanes as one range), with its reductions combined across the
//!   block and a barrier after it. A worker loop that itself contains
//!   vector loops is spread over the block's rows instead, its vector loops
//!   over the lanes of a row ([`Mode::Rows`]: worker → `threadIdx.y`,
//!   vector → `threadIdx.x`, as nvc maps them), so the innermost loop,
//!   usually the one walking memory contiguously, is the one neighbouring
//!   threads share. Otherwise every thread
//!   of the grid is one chunk ([`Mode::Threads`]): the gang loop's
//!   iterations are dealt out cyclically over all `gridDim.x * blockDim.x *
//!   blockDim.y` threads (a grid-stride loop, so any launch shape is correct
//!   and neighbouring threads touch neighbouring elements), and worker and
//!   vector loops inside a gang iteration run in order on that thread, as
//!   they do inside a host chunk — always exact. Gang-redundant statements
//!   that must run once per gang (`__ACC_REDUNDANT_BEGIN/END`) run on each
//!   block's first thread; where such code shares a statement with a gang
//!   loop (a sequential loop around both), the front end has the runtime
//!   launch blocks of one thread instead (`cuda_lanes == 3`), so every
//!   thread is a gang. A `parallel` with `num_gangs(n)` and no gang
//!   loop runs its region once per block ([`Mode::Blocks`]); other code that
//!   is not inside a gang loop runs on one thread ([`Mode::Single`]). The
//!   body is the same text on every device: the host defines the same
//!   vocabulary as contiguous chunks and in-order loops.
//! - **Reductions.** Scalars: each thread starts its private copy from its
//!   block's slot, which the block's first thread sets to the operator's
//!   identity as the kernel starts (so a launch uploads nothing for them:
//!   the runtime presets only array and custom slots), the block combines its threads' copies in a fixed order
//!   (each warp with shuffles, then the warps' results on one thread), and
//!   thread 0 stores the result into the block's slot; the runtime combines
//!   the slots across blocks (the second pass). Arrays and structs
//!   (whose private copy does not fit a thread): each block is one chunk,
//!   run by its first thread straight into the block's slot. No atomics, so
//!   results do not depend on timing. Complex values are the prelude's
//!   `__acc_complex` (C's layout; acc-c rewrites the type names, as C++ has
//!   no `_Complex`), `double _Complex` reductions one chunk per block (16
//!   bytes do not fit a shuffle). C's `long double` (x86-64's 80-bit format)
//!   is the prelude's `__acc_f80` (acc-c rewrites the type name): the host's
//!   bytes, with arithmetic and conversions that round as the x87 does, so a
//!   device copy and its results match the host's bit for bit (CUDA's own
//!   `long double` is a `double`); its reductions run one chunk per block.
//! - **Atomics.** Every form of `atomic update` and `atomic capture` that
//!   OpenACC lists (`x op= e`, `x++`, `x = x op e`, `x = e op x`, and
//!   `v = <that>` or a `{v = x; ...}` block, an exchange among them) is a
//!   compare-and-swap loop on the one location (`__ACC_ATOMIC`,
//!   `__ACC_CAPTURE` and their `_R` forms for `x = e op x`: C's arithmetic
//!   on the value read, 4- and 8-byte values), so updates of different
//!   locations never wait for each other; `atomic read` and `write` of such
//!   values are one access of the whole value. Values of other sizes, and
//!   statements the front end does not read as one of those forms (a macro
//!   standing for the statement: the lock does not exclude compare-and-swap
//!   updates of the same location elsewhere), take the device's one lock
//!   word (the runtime passes it after the reduction slots, so kernels of every module share it; independent thread
//!   scheduling, sm_70 and later, makes a per-thread spin lock safe), as the
//!   host build takes one process-wide lock.
//!
//! Every kernel C's front end lowers has a CUDA form. A file whose support
//! code has none (a routine reading a file-scope variable that no `declare`
//! gives a device copy) gets no module: acc-c says why (`acc cc --info`) and
//! the runtime refuses its kernels on a GPU with that pointer.

use crate::directive::ReductionOp;
use std::fmt::Write;

/// One kernel of a CUDA module.
#[derive(Clone, Debug)]
pub struct CudaKernel {
    /// The `extern "C"` entry name.
    pub entry: String,
    /// Where the construct is, for a comment and `#line`.
    pub file: String,
    pub line: usize,
    /// One per launch argument, in order: the parameter's type and how the
    /// body reaches the value (see [`ParamKind`]).
    pub params: Vec<CudaParam>,
    /// Per reduction, in slot order: the bytes of one slot (a C expression
    /// that may read `__acc_args`).
    pub slot_bytes: Vec<String>,
    /// The scalar reductions of C's arithmetic types, whose slots the kernel
    /// sets to the operator's identity as it starts (the runtime presets only
    /// the others'); in every-thread modes also combined across the block.
    pub reductions: Vec<CudaReduction>,
    /// The types the construct's function declares for itself (C declarations), which the
    /// parameters and the body may name: the kernel and its parameters' structs go in a
    /// namespace of their own that starts with them (the `extern "C"` entry keeps its name).
    pub types: String,
    /// Declarations that read the arguments (through `__acc_args[i]`) and
    /// the reduction copies (through `__acc_slot[j]`), as the host kernel
    /// has them.
    pub decls: String,
    /// The kernel's statement.
    pub body: String,
    /// [`Mode::Blocks`] and [`Mode::Single`]: statements that store the
    /// reduction copies back into their slots, as the host kernel ends.
    pub store: String,
    pub mode: Mode,
}

/// How a kernel's threads share its work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every thread is a chunk of the gang loop; scalar reductions are
    /// combined across each block.
    Threads,
    /// Every block is a chunk, run by its first thread, which reduces
    /// straight into the block's slot: for reductions whose private copy is
    /// an array or a struct (they have no per-thread form yet).
    Blocks,
    /// Not gang-partitioned: the body runs once, on the first thread of
    /// the first block.
    Single,
    /// Every block runs one iteration of the gang loop at a time, all its
    /// threads together: the outermost worker or vector loop inside is
    /// spread over them (`__ACC_VFIRST/__ACC_VEND/__ACC_VSTEP`, worker and
    /// vector lanes as one range over `threadIdx.y`, `threadIdx.x`), its
    /// reductions combined across the block (`__ACC_VRED_BEGIN/END`), and
    /// followed by a barrier (`__ACC_VSYNC`) so the vector-single code after
    /// it sees what it wrote. The vector-single code in between runs on every
    /// thread of the block (each computes the same values), except the
    /// statements the front end marks (`__ACC_VSINGLE_BEGIN/END`: those that
    /// write shared data), which the block's first thread runs before a
    /// barrier. The front end chooses this mode only where that is exact.
    Lanes,
    /// As [`Mode::Lanes`], and a worker loop that contains vector loops is
    /// spread over the block's rows instead (`__ACC_WFIRST/__ACC_WEND/
    /// __ACC_WSTEP` over `threadIdx.y`), with the outermost vector loops in
    /// it over the lanes of a row (`__ACC_X*` over `threadIdx.x`): worker →
    /// `threadIdx.y`, vector → `threadIdx.x`, as nvc maps them. A row
    /// synchronises and reduces on its own (`__acc_row_sync`,
    /// `__acc_row_reduce`): the whole block when `blockDim.y == 1`, else a
    /// warp's lanes, so the runtime launches these kernels with rows that
    /// lie within one warp (`blockDim.x` divides 32) or a single row
    /// (`acc_rt_kernel.cuda_lanes == 2`). The worker-single code in a row
    /// runs on every lane of it, except the statements the front end marks
    /// (`__ACC_XSINGLE_BEGIN/END`), which the row's first lane runs before
    /// the row's barrier.
    Rows,
}

impl Mode {
    /// Whether every thread of the grid runs the body (combining its reductions across the
    /// block), as opposed to one thread a block.
    fn every_thread(self) -> bool {
        matches!(self, Mode::Threads | Mode::Lanes | Mode::Rows)
    }
}

/// A kernel parameter.
#[derive(Clone, Debug)]
pub enum CudaParam {
    /// A device address (mapped data, pointers, deviceptr).
    Pointer,
    /// A value; `decl` declares a member named `v` of the value's type (as
    /// `double v` or `int v[4]`), so the parameter has the value's size and
    /// alignment.
    Value { decl: String },
}

/// A scalar reduction of a builtin type.
#[derive(Clone, Debug)]
pub struct CudaReduction {
    pub op: ReductionOp,
    /// The C type of the private copy (`double`, `unsigned long`, `_Bool`).
    pub ty: String,
    /// The private copy's name in the body.
    pub var: String,
    /// Its index among the kernel's reductions (`__acc_slot[slot]`).
    pub slot: usize,
}

/// Declarations every module starts with: the C types and macros kernels
/// use that NVRTC (which has no system headers) lacks, and the partitioning
/// vocabulary of the module docs.
pub const PRELUDE: &str = r#"/* Generated by acc from OpenACC C: the CUDA version of the file's compute constructs. */
#pragma nv_diag_suppress 177
typedef unsigned long size_t;
typedef long ptrdiff_t;
typedef long intptr_t;
typedef unsigned long uintptr_t;
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long uint64_t;
#define _Bool bool
#define restrict __restrict__
#define NULL 0
#define INT_MAX 2147483647
#define INT_MIN (-INT_MAX - 1)
#define UINT_MAX 4294967295U
#define LONG_MAX 9223372036854775807L
#define LONG_MIN (-LONG_MAX - 1L)
#define LLONG_MAX 9223372036854775807LL
#define LLONG_MIN (-LLONG_MAX - 1LL)
#define ULONG_MAX 18446744073709551615UL
#define DBL_MAX 1.7976931348623157e308
#define FLT_MAX 3.40282347e38F
#define DBL_EPSILON 2.2204460492503131e-16
#define FLT_EPSILON 1.19209290e-7F
#define M_PI 3.14159265358979323846
#define __builtin_memcpy memcpy
enum { acc_device_none = 0, acc_device_default = 1, acc_device_host = 2, acc_device_not_host = 4,
       acc_device_nvidia = 5, acc_device_radeon = 8, acc_device_host_discrete = 64 };
typedef int acc_device_t;
static __device__ int acc_on_device(int t) {
  return t == acc_device_nvidia || t == acc_device_not_host;
}
/* The device's one lock word for atomics (every module's kernels share it: the runtime passes
 * it after the reductions' slots, and each kernel stores it here as it starts). */
__device__ unsigned int *__acc_lock;
static __device__ void acc_rt_atomic_begin(void) {
  while (atomicCAS(__acc_lock, 0u, 1u) != 0u) {
  }
  __threadfence();
}
static __device__ void acc_rt_atomic_end(void) {
  __threadfence();
  atomicExch(__acc_lock, 0u);
}
/* `atomic update` and `atomic capture` in every form the front end reads as one location
 * (it writes __ACC_ATOMIC(x, op=, name, e), __ACC_CAPTURE(v, x, op=, name, e, new) and their
 * _R forms for `x = e op x`; an exchange has `op` `=`): compare-and-swap
 * on the one location, with C's arithmetic (f) on the value read, instead of the device-wide
 * lock; values that are not 4 or 8 bytes take the lock. The capture is the old value or, with
 * `fresh`, the new one. */
template <int N> struct __acc_bits;
template <> struct __acc_bits<4> { typedef unsigned type; };
template <> struct __acc_bits<8> { typedef unsigned long long type; };
template <class T, class V, class F> __device__ T __acc_atomic_fetch(T *p, V e, F f, bool fresh) {
  if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
    typedef typename __acc_bits<sizeof(T)>::type B;
    B *const q = (B *)p;
    B old = *(volatile B *)q, seen;
    T cur, next;
    do {
      seen = old;
      memcpy(&cur, &seen, sizeof(T));
      next = f(cur, e);
      B bits;
      memcpy(&bits, &next, sizeof(T));
      old = atomicCAS(q, seen, bits);
    } while (old != seen);
    return fresh ? next : cur;
  } else {
    acc_rt_atomic_begin();
    const T cur = *p;
    *p = f(cur, e);
    const T next = *p;
    acc_rt_atomic_end();
    return fresh ? next : cur;
  }
}
#define __ACC_UPDATE_OP(name, op) \
  struct __acc_op_##name { \
    template <class T, class V> __device__ T operator()(T c, V e) const { c op e; return c; } \
  };
__ACC_UPDATE_OP(add, +=)
__ACC_UPDATE_OP(sub, -=)
__ACC_UPDATE_OP(mul, *=)
__ACC_UPDATE_OP(div, /=)
__ACC_UPDATE_OP(band, &=)
__ACC_UPDATE_OP(bor, |=)
__ACC_UPDATE_OP(bxor, ^=)
__ACC_UPDATE_OP(shl, <<=)
__ACC_UPDATE_OP(shr, >>=)
__ACC_UPDATE_OP(set, =)
#undef __ACC_UPDATE_OP
/* `x = e op x` for the operators that do not commute. */
#define __ACC_REVERSED_OP(name, op) \
  struct __acc_op_##name { \
    template <class T, class V> __device__ T operator()(T c, V e) const { return e op c; } \
  };
__ACC_REVERSED_OP(rsub, -)
__ACC_REVERSED_OP(rdiv, /)
__ACC_REVERSED_OP(rshl, <<)
__ACC_REVERSED_OP(rshr, >>)
#undef __ACC_REVERSED_OP
#define __ACC_ATOMIC(lv, op, name, e) ((void)__acc_atomic_fetch(&(lv), (e), __acc_op_##name(), false))
/* `atomic read` and `atomic write` of 4- and 8-byte values: one access of the whole value,
 * which the GPU makes atomic; others take the lock. */
template <class T> __device__ T __acc_atomic_load(T *p) {
  if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
    typedef typename __acc_bits<sizeof(T)>::type B;
    const B bits = *(volatile B *)p;
    T v;
    memcpy(&v, &bits, sizeof(T));
    return v;
  } else {
    acc_rt_atomic_begin();
    const T v = *p;
    acc_rt_atomic_end();
    return v;
  }
}
template <class T, class V> __device__ void __acc_atomic_store(T *p, V e) {
  const T v = e;
  if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
    typedef typename __acc_bits<sizeof(T)>::type B;
    B bits;
    memcpy(&bits, &v, sizeof(T));
    atomicExch((B *)p, bits);
  } else {
    acc_rt_atomic_begin();
    *p = v;
    acc_rt_atomic_end();
  }
}
#define __ACC_ATOMIC_READ(v, x) ((v) = __acc_atomic_load(&(x)))
#define __ACC_ATOMIC_WRITE(x, e) __acc_atomic_store(&(x), (e))
#define __ACC_CAPTURE(v, lv, op, name, e, new) ((v) = __acc_atomic_fetch(&(lv), (e), __acc_op_##name(), new))
#define __ACC_ATOMIC_R(lv, op, name, e) __ACC_ATOMIC(lv, op, name, e)
#define __ACC_CAPTURE_R(v, lv, op, name, e, new) __ACC_CAPTURE(v, lv, op, name, e, new)
static __device__ long long __acc_trips(long long lb, long long ub, long long step, int cmp) {
  if (step == 0) return 0;
  if (cmp == 1) ub += 1, cmp = 0;
  if (cmp == 3) ub -= 1, cmp = 2;
  if (cmp == 4) cmp = step > 0 ? 0 : 2;
  if (cmp == 0) return (step > 0 && ub > lb) ? (ub - lb + step - 1) / step : 0;
  return (step < 0 && lb > ub) ? (lb - ub - step - 1) / -step : 0;
}
struct __acc_add { template <class T> __device__ T operator()(T a, T b) const { return a + b; } };
struct __acc_mul { template <class T> __device__ T operator()(T a, T b) const { return a * b; } };
struct __acc_max { template <class T> __device__ T operator()(T a, T b) const { return b > a ? b : a; } };
struct __acc_min { template <class T> __device__ T operator()(T a, T b) const { return b < a ? b : a; } };
struct __acc_bitand { template <class T> __device__ T operator()(T a, T b) const { return a & b; } };
struct __acc_bitor { template <class T> __device__ T operator()(T a, T b) const { return a | b; } };
struct __acc_bitxor { template <class T> __device__ T operator()(T a, T b) const { return a ^ b; } };
struct __acc_and { template <class T> __device__ T operator()(T a, T b) const { return a && b; } };
struct __acc_or { template <class T> __device__ T operator()(T a, T b) const { return a || b; } };
/* A C variable-length array seen through a pointer (acc-c's `vla` module writes them): rank R,
 * the first extent unbounded, the others (ext) run-time values, which C++ types cannot hold.
 * Indexing and `*` step through it as C does through `double (*)[m]`. */
template <class T, int R> struct __acc_vla {
  T *p;
  long long ext[R - 1];
  __device__ __acc_vla<T, R - 1> operator[](long long i) const {
    long long stride = 1;
    for (int d = 0; d < R - 1; d++) stride *= ext[d];
    __acc_vla<T, R - 1> row;
    row.p = p + i * stride;
    if constexpr (R > 2) {
      for (int d = 1; d < R - 1; d++) row.ext[d - 1] = ext[d];
    }
    return row;
  }
  __device__ __acc_vla<T, R - 1> operator*() const { return (*this)[0]; }
};
template <class T> struct __acc_vla<T, 1> {
  T *p;
  __device__ T &operator[](long long i) const { return p[i]; }
  __device__ T &operator*() const { return *p; }
};
/* Each operator's identity, the private copy's starting value: as the runtime's for the CPU
 * devices (max of a floating type starts at -infinity). A kernel sets its scalar reductions'
 * slots itself, so that a launch uploads nothing for them. Integer limits from the type's size
 * and signedness, which covers C's typedefs, enums and _Bool. */
template <class T> struct __acc_limits {
  static __device__ T highest() {
    return (T)~(T)0 > (T)0 ? (T)~(T)0 : (T)((1ULL << (8 * sizeof(T) - 1)) - 1);
  }
  static __device__ T lowest() { return (T)~(T)0 > (T)0 ? (T)0 : (T)(-(long long)highest() - 1); }
};
template <> struct __acc_limits<float> {
  static __device__ float highest() { return __int_as_float(0x7f800000); }
  static __device__ float lowest() { return -__int_as_float(0x7f800000); }
};
template <> struct __acc_limits<double> {
  static __device__ double highest() { return __longlong_as_double(0x7ff0000000000000LL); }
  static __device__ double lowest() { return -__longlong_as_double(0x7ff0000000000000LL); }
};
template <class T> __device__ T __acc_identity(__acc_add) { return (T)0; }
template <class T> __device__ T __acc_identity(__acc_mul) { return (T)1; }
template <class T> __device__ T __acc_identity(__acc_max) { return __acc_limits<T>::lowest(); }
template <class T> __device__ T __acc_identity(__acc_min) { return __acc_limits<T>::highest(); }
template <class T> __device__ T __acc_identity(__acc_bitand) { return (T)~(T)0; }
template <class T> __device__ T __acc_identity(__acc_bitor) { return (T)0; }
template <class T> __device__ T __acc_identity(__acc_bitxor) { return (T)0; }
template <class T> __device__ T __acc_identity(__acc_and) { return (T)1; }
template <class T> __device__ T __acc_identity(__acc_or) { return (T)0; }
/* C's complex types (acc-c rewrites C's complex type names to these): C's layout (real, then
 * imaginary part) and arithmetic, the <complex.h> functions kernels use, and I. */
template <class T> struct __acc_complex {
  T re, im;
  __acc_complex() = default;
  __device__ constexpr __acc_complex(T r, T i = 0) : re(r), im(i) {}
  template <class U> __device__ constexpr __acc_complex(const __acc_complex<U> &o) : re(o.re), im(o.im) {}
  __device__ __acc_complex &operator+=(const __acc_complex &o) { re += o.re; im += o.im; return *this; }
  __device__ __acc_complex &operator-=(const __acc_complex &o) { re -= o.re; im -= o.im; return *this; }
  __device__ __acc_complex &operator*=(const __acc_complex &o) { return *this = *this * o; }
  __device__ __acc_complex &operator/=(const __acc_complex &o) { return *this = *this / o; }
  __device__ friend __acc_complex operator+(__acc_complex a, const __acc_complex &b) { return a += b; }
  __device__ friend __acc_complex operator-(__acc_complex a, const __acc_complex &b) { return a -= b; }
  __device__ friend __acc_complex operator-(const __acc_complex &a) { return __acc_complex(-a.re, -a.im); }
  __device__ friend __acc_complex operator*(const __acc_complex &a, const __acc_complex &b) {
    return __acc_complex(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
  }
  __device__ friend __acc_complex operator/(const __acc_complex &a, const __acc_complex &b) {
    const T d = b.re * b.re + b.im * b.im;
    return __acc_complex((a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d);
  }
  __device__ friend bool operator==(const __acc_complex &a, const __acc_complex &b) { return a.re == b.re && a.im == b.im; }
  __device__ friend bool operator!=(const __acc_complex &a, const __acc_complex &b) { return !(a == b); }
};
typedef __acc_complex<float> __acc_cfloat;
typedef __acc_complex<double> __acc_cdouble;
static __device__ __acc_cfloat operator*(const __acc_cfloat &a, double b) { return a * __acc_cfloat((float)b); }
static __device__ __acc_cdouble operator*(double a, const __acc_cdouble &b) { return __acc_cdouble(a) * b; }
static __device__ __acc_cdouble operator*(const __acc_cdouble &a, double b) { return a * __acc_cdouble(b); }
static __device__ __acc_cdouble operator+(double a, const __acc_cdouble &b) { return __acc_cdouble(a) + b; }
static __device__ __acc_cdouble operator+(const __acc_cdouble &a, double b) { return a + __acc_cdouble(b); }
#define __acc_I (__acc_cfloat(0.0f, 1.0f))
static __device__ float crealf(__acc_cfloat z) { return z.re; }
static __device__ float cimagf(__acc_cfloat z) { return z.im; }
static __device__ double creal(__acc_cdouble z) { return z.re; }
static __device__ double cimag(__acc_cdouble z) { return z.im; }
static __device__ __acc_cfloat conjf(__acc_cfloat z) { return __acc_cfloat(z.re, -z.im); }
static __device__ __acc_cdouble conj(__acc_cdouble z) { return __acc_cdouble(z.re, -z.im); }
static __device__ float cabsf(__acc_cfloat z) { return hypotf(z.re, z.im); }
static __device__ double cabs(__acc_cdouble z) { return hypot(z.re, z.im); }
/* One shared buffer for every reduction of a kernel (one after the other): 8 KiB, not 8 KiB per
 * type, which a kernel with many reductions would overrun. */
static __device__ unsigned long long *__acc_shared_words(void) {
  __shared__ unsigned long long words[1024];
  return words;
}
/* A value of up to 8 bytes from the lane `delta` above (within sections of `width` lanes), or
 * with `delta` < 0 from the section's first lane, within the lanes of `mask`. */
template <class T> __device__ T __acc_shfl(T v, int delta, unsigned mask, int width = 32) {
  unsigned long long bits = 0;
  memcpy(&bits, &v, sizeof(T));
  unsigned lo, hi;
  if (delta < 0) {
    lo = __shfl_sync(mask, (unsigned)bits, 0, width);
    hi = __shfl_sync(mask, (unsigned)(bits >> 32), 0, width);
  } else {
    lo = __shfl_down_sync(mask, (unsigned)bits, delta, width);
    hi = __shfl_down_sync(mask, (unsigned)(bits >> 32), delta, width);
  }
  bits = ((unsigned long long)hi << 32) | lo;
  T r;
  memcpy(&r, &bits, sizeof(T));
  return r;
}
/* Combines one value per thread of the block, in a fixed order; every thread gets the result.
 * T is a builtin scalar, at most 8 bytes. Each warp combines its lanes with shuffles (a tree:
 * lane t takes t + s for s = 1, 2, 4, ...), then the first thread combines the warps' results
 * in order: no atomics, so results do not depend on timing. */
template <class T, class Op> __device__ T __acc_block_reduce(T v, Op op) {
  static_assert(sizeof(T) <= sizeof(unsigned long long), "a scalar reduction");
  T *const buf = (T *)__acc_shared_words();
  const unsigned t = threadIdx.y * blockDim.x + threadIdx.x, n = blockDim.x * blockDim.y;
  const unsigned lane = t % 32, warp = t / 32, warps = (n + 31) / 32;
  const unsigned width = n - warp * 32 < 32 ? n - warp * 32 : 32;
  const unsigned mask = width == 32 ? 0xffffffffu : (1u << width) - 1;
  for (unsigned s = 1; s < 32; s <<= 1) {
    const T other = __acc_shfl(v, (int)s, mask);
    if (lane % (2 * s) == 0 && lane + s < width) v = op(v, other);
  }
  if (lane == 0) buf[warp] = v;
  __syncthreads();
  if (t == 0) {
    T r = buf[0];
    for (unsigned w = 1; w < warps; w++) r = op(r, buf[w]);
    buf[0] = r;
  }
  __syncthreads();
  T r = buf[0];
  __syncthreads();
  return r;
}
/* A row of a `Rows` kernel: the threads of one threadIdx.y. The runtime launches such kernels
 * with one row (the row is the block) or with rows inside a warp (blockDim.x divides 32). */
static __device__ unsigned __acc_row_mask(void) {
  const unsigned n = blockDim.x;
  return n >= 32 ? 0xffffffffu : ((1u << n) - 1) << (threadIdx.y * n % 32);
}
static __device__ void __acc_row_sync(void) {
  if (blockDim.y == 1) {
    __syncthreads();
  } else {
    __syncwarp(__acc_row_mask());
  }
}
/* Combines one value per thread of the row, in a fixed order (a shuffle tree); every thread
 * of the row gets the result. */
template <class T, class Op> __device__ T __acc_row_reduce(T v, Op op) {
  if (blockDim.y == 1) return __acc_block_reduce<T>(v, op);
  const unsigned n = blockDim.x, x = threadIdx.x, mask = __acc_row_mask();
  for (unsigned s = 1; s < n; s <<= 1) {
    const T other = __acc_shfl(v, (int)s, mask, (int)n);
    if (x % (2 * s) == 0 && x + s < n) v = op(v, other);
  }
  return __acc_shfl(v, -1, mask, (int)n);
}
"#;

/// The prelude's `long double` (`__acc_f80`), which a module includes after [`PRELUDE`] when
/// its code may use one (see [`emit_module`]): it is most of the prelude's text, and NVRTC
/// parses all of it for every module.
pub const PRELUDE_F80: &str = r#"/* C's long-double type on x86-64 (the x87 80-bit extended format, stored in 16 bytes), which
 * CUDA lacks: acc-c writes a kernel's long doubles as this type. Its bytes are the host's (device
 * copies match), and +, -, *, /, sqrtl and the conversions round as the x87 does with its default
 * control word (to nearest, ties to even, 64-bit significand, gradual underflow), so results
 * are the host's bit for bit. C's usual conversions are overloads here; one thing C++ refuses
 * is a conditional expression whose other branch has another type (`c ? x : 0`, with both
 * conversions possible): the module then fails to compile, naming the line. */
typedef unsigned __int128 __acc_u128;
static __device__ int __acc_clz64(unsigned long long v) {
  int n = 0;
  if (v == 0) return 64;
  while (!(v >> 63)) v <<= 1, n++;
  return n;
}
static __device__ int __acc_clz128(__acc_u128 v) {
  const unsigned long long hi = (unsigned long long)(v >> 64);
  return hi ? __acc_clz64(hi) : 64 + __acc_clz64((unsigned long long)v);
}
struct alignas(16) __acc_f80;
/* A value taken apart: zero, finite (m's top bit set, value m * 2^e), infinite or NaN. */
struct __acc_f80_parts {
  enum { zero, finite, inf, nan } cls;
  bool neg;
  int e;
  unsigned long long m;
};
struct alignas(16) __acc_f80 {
  unsigned long long m; /* the significand, its integer bit explicit */
  unsigned short se;    /* the sign and the biased exponent */
  unsigned short pad[3];

  __acc_f80() = default;
  static __device__ __acc_f80 bits(unsigned long long m, unsigned short se) {
    __acc_f80 r;
    r.m = m;
    r.se = se;
    r.pad[0] = r.pad[1] = r.pad[2] = 0;
    return r;
  }
  /* The x87's default NaN ("real indefinite"). */
  static __device__ __acc_f80 indefinite() { return bits(0xc000000000000000ull, 0xffff); }
  static __device__ __acc_f80 infinity(bool neg) {
    return bits(0x8000000000000000ull, (unsigned short)(neg << 15 | 0x7fff));
  }
  static __device__ __acc_f80 zero(bool neg) { return bits(0, (unsigned short)(neg << 15)); }
  __device__ __acc_f80_parts parts() const {
    __acc_f80_parts p;
    p.neg = se >> 15;
    p.m = m;
    p.e = 0;
    const int be = se & 0x7fff;
    if (be == 0x7fff) {
      p.cls = (m >> 63) && !(m << 1) ? __acc_f80_parts::inf : __acc_f80_parts::nan;
    } else if (be == 0) {
      /* Denormal (or pseudo-denormal): m * 2^(1 - 16383 - 63). */
      if (m == 0) {
        p.cls = __acc_f80_parts::zero;
      } else {
        const int lz = __acc_clz64(m);
        p.m = m << lz;
        p.e = 1 - 16383 - 63 - lz;
        p.cls = __acc_f80_parts::finite;
      }
    } else if (!(m >> 63)) {
      p.cls = __acc_f80_parts::nan; /* an unnormal: the x87 rejects it */
    } else {
      p.e = be - 16383 - 63;
      p.cls = __acc_f80_parts::finite;
    }
    return p;
  }
  /* (m + rest / 2^64) * 2^e, m's top bit set, rounded to the format. */
  static __device__ __acc_f80 round(bool neg, int e, unsigned long long m, unsigned long long rest) {
    int be = e + 63 + 16383;
    if (be <= 0) {
      const int sh = 1 - be;
      __acc_u128 v = (__acc_u128)m << 64 | rest;
      bool sticky;
      if (sh >= 128) {
        sticky = v != 0;
        v = 0;
      } else {
        sticky = (v & (((__acc_u128)1 << sh) - 1)) != 0;
        v >>= sh;
      }
      m = (unsigned long long)(v >> 64);
      rest = (unsigned long long)v | sticky;
      be = 0;
    }
    const unsigned long long half = 0x8000000000000000ull;
    if (rest > half || (rest == half && (m & 1))) {
      m += 1;
      if (m == 0) {
        m = half;
        be += 1;
      } else if (be == 0 && (m >> 63)) {
        be = 1; /* a denormal rounded up to the smallest normal */
      }
    }
    if (be >= 0x7fff) return infinity(neg);
    return bits(m, (unsigned short)(neg << 15 | be));
  }
  /* The NaN an operation on `a` and `b` gives: the x87 quiets a NaN operand, the larger
   * significand of two. */
  static __device__ __acc_f80 propagate(const __acc_f80 &a, const __acc_f80 &b) {
    const bool an = a.parts().cls == __acc_f80_parts::nan;
    const bool bn = b.parts().cls == __acc_f80_parts::nan;
    const __acc_f80 &n = an && bn ? ((a.m << 1) >= (b.m << 1) ? a : b) : an ? a : b;
    if (!(n.m >> 63)) return indefinite(); /* pseudo-NaN, unnormal */
    return bits(n.m | 0x4000000000000000ull, n.se);
  }

  template <class T> __device__ void from_integer(T v) {
    bool neg = false;
    if constexpr (T(-1) < T(0)) neg = v < 0;
    const unsigned long long mag = neg ? 0ull - (unsigned long long)v : (unsigned long long)v;
    if (mag == 0) {
      *this = zero(false);
      return;
    }
    const int lz = __acc_clz64(mag);
    *this = bits(mag << lz, (unsigned short)(neg << 15 | (63 - lz + 16383)));
  }
  __device__ __acc_f80(double d) {
    unsigned long long b;
    memcpy(&b, &d, 8);
    const bool neg = b >> 63;
    const int ex = (int)(b >> 52 & 0x7ff);
    const unsigned long long fr = b & 0xfffffffffffffull;
    if (ex == 0x7ff) {
      *this = fr ? bits(0xc000000000000000ull | fr << 11, (unsigned short)(neg << 15 | 0x7fff))
                 : infinity(neg);
    } else if (ex == 0) {
      if (fr == 0) {
        *this = zero(neg);
      } else {
        const int lz = __acc_clz64(fr);
        *this = bits(fr << lz, (unsigned short)(neg << 15 | (-1074 + 63 - lz + 16383)));
      }
    } else {
      *this = bits(0x8000000000000000ull | fr << 11, (unsigned short)(neg << 15 | (ex - 1023 + 16383)));
    }
  }
  __device__ __acc_f80(float f) : __acc_f80((double)f) {}
  __device__ __acc_f80(int v) { from_integer(v); }
  __device__ __acc_f80(unsigned v) { from_integer(v); }
  __device__ __acc_f80(long v) { from_integer(v); }
  __device__ __acc_f80(unsigned long v) { from_integer(v); }
  __device__ __acc_f80(long long v) { from_integer(v); }
  __device__ __acc_f80(unsigned long long v) { from_integer(v); }
  __device__ __acc_f80(short v) { from_integer(v); }
  __device__ __acc_f80(unsigned short v) { from_integer(v); }
  __device__ __acc_f80(signed char v) { from_integer(v); }
  __device__ __acc_f80(unsigned char v) { from_integer(v); }
  __device__ __acc_f80(char v) { from_integer(v); }
  __device__ __acc_f80(bool v) { from_integer((int)v); }

  /* To the IEEE format of P significand bits and EBITS exponent bits, as its bits. */
  template <int P, int EBITS> __device__ unsigned long long to_binary() const {
    const int emax = (1 << (EBITS - 1)) - 1, emin = 1 - emax, frac = P - 1;
    const __acc_f80_parts p = parts();
    const unsigned long long sign = (unsigned long long)p.neg << (frac + EBITS);
    const unsigned long long exps = ((1ull << EBITS) - 1) << frac;
    if (p.cls == __acc_f80_parts::nan) {
      return sign | exps | 1ull << (frac - 1) | ((m << 1) >> (64 - frac));
    }
    if (p.cls == __acc_f80_parts::inf) return sign | exps;
    if (p.cls == __acc_f80_parts::zero) return sign;
    int E = p.e + 63; /* the value is in [2^E, 2^(E+1)) */
    const int shift = 64 - P + (E < emin ? emin - E : 0);
    unsigned long long q, rest;
    if (shift >= 128) {
      q = 0;
      rest = 1;
    } else if (shift >= 64) {
      const int s = shift - 64;
      q = 0;
      rest = s == 0 ? p.m : (p.m >> s) | ((p.m << (64 - s)) != 0);
    } else {
      q = p.m >> shift;
      rest = p.m << (64 - shift);
    }
    const unsigned long long half = 0x8000000000000000ull;
    if (rest > half || (rest == half && (q & 1))) q += 1;
    /* A denormal is its fraction (rounding up to the smallest normal sets the exponent). */
    if (E < emin) return sign | q;
    if (q >> P) {
      q >>= 1;
      E += 1;
    }
    if (E > emax) return sign | exps;
    return sign | (unsigned long long)(E + emax) << frac | (q & ((1ull << frac) - 1));
  }
  __device__ operator double() const {
    const unsigned long long b = to_binary<53, 11>();
    double d;
    memcpy(&d, &b, 8);
    return d;
  }
  __device__ operator float() const {
    const unsigned b = (unsigned)to_binary<24, 8>();
    float f;
    memcpy(&f, &b, 4);
    return f;
  }
  /* Truncation toward zero, as C converts to an integer type (out of range is undefined). */
  template <class T> __device__ T to_integer() const {
    const __acc_f80_parts p = parts();
    if (p.cls != __acc_f80_parts::finite) return 0;
    unsigned long long mag = p.e >= 0 ? (p.e < 64 ? p.m << p.e : 0) : p.e > -64 ? p.m >> -p.e : 0;
    return p.neg ? (T)(0ull - mag) : (T)mag;
  }
  __device__ operator int() const { return to_integer<int>(); }
  __device__ operator unsigned() const { return to_integer<unsigned>(); }
  __device__ operator long() const { return to_integer<long>(); }
  __device__ operator unsigned long() const { return to_integer<unsigned long>(); }
  __device__ operator long long() const { return to_integer<long long>(); }
  __device__ operator unsigned long long() const { return to_integer<unsigned long long>(); }
  __device__ operator short() const { return to_integer<short>(); }
  __device__ operator unsigned short() const { return to_integer<unsigned short>(); }
  __device__ operator signed char() const { return to_integer<signed char>(); }
  __device__ operator unsigned char() const { return to_integer<unsigned char>(); }
  __device__ operator char() const { return to_integer<char>(); }
  __device__ explicit operator bool() const {
    const __acc_f80_parts p = parts();
    return p.cls != __acc_f80_parts::zero;
  }

  static __device__ __acc_f80 add(const __acc_f80 &a, const __acc_f80 &b, bool subtract) {
    __acc_f80_parts x = a.parts(), y = b.parts();
    y.neg ^= subtract;
    if (x.cls == __acc_f80_parts::nan || y.cls == __acc_f80_parts::nan) return propagate(a, b);
    if (x.cls == __acc_f80_parts::inf) {
      return y.cls == __acc_f80_parts::inf && x.neg != y.neg ? indefinite() : infinity(x.neg);
    }
    if (y.cls == __acc_f80_parts::inf) return infinity(y.neg);
    if (x.cls == __acc_f80_parts::zero && y.cls == __acc_f80_parts::zero) return zero(x.neg && y.neg);
    if (x.cls == __acc_f80_parts::zero) return round(y.neg, y.e, y.m, 0);
    if (y.cls == __acc_f80_parts::zero) return round(x.neg, x.e, x.m, 0);
    if (x.e < y.e || (x.e == y.e && x.m < y.m)) {
      const __acc_f80_parts t = x;
      x = y;
      y = t;
    }
    const __acc_u128 A = (__acc_u128)x.m << 64;
    const __acc_u128 full = (__acc_u128)y.m << 64;
    const int d = x.e - y.e;
    __acc_u128 B;
    bool sticky;
    if (d >= 128) {
      B = 0;
      sticky = true;
    } else if (d == 0) {
      B = full;
      sticky = false;
    } else {
      B = full >> d;
      sticky = (full << (128 - d)) != 0;
    }
    int e = x.e - 64; /* S * 2^e */
    __acc_u128 S;
    if (x.neg == y.neg) {
      S = A + B;
      if (S < A) {
        sticky |= (bool)(S & 1);
        S = S >> 1 | (__acc_u128)1 << 127;
        e += 1;
      }
    } else {
      S = A - B;
      if (sticky) S -= 1;
      if (S == 0 && !sticky) return zero(false);
      const int lz = __acc_clz128(S);
      S <<= lz;
      e -= lz;
    }
    return round(x.neg, e + 64, (unsigned long long)(S >> 64), (unsigned long long)S | sticky);
  }
  static __device__ __acc_f80 mul(const __acc_f80 &a, const __acc_f80 &b) {
    const __acc_f80_parts x = a.parts(), y = b.parts();
    const bool neg = x.neg != y.neg;
    if (x.cls == __acc_f80_parts::nan || y.cls == __acc_f80_parts::nan) return propagate(a, b);
    if (x.cls == __acc_f80_parts::inf || y.cls == __acc_f80_parts::inf) {
      return x.cls == __acc_f80_parts::zero || y.cls == __acc_f80_parts::zero ? indefinite()
                                                                              : infinity(neg);
    }
    if (x.cls == __acc_f80_parts::zero || y.cls == __acc_f80_parts::zero) return zero(neg);
    __acc_u128 P = (__acc_u128)x.m * y.m;
    int e = x.e + y.e;
    if (!(P >> 127)) {
      P <<= 1;
      e -= 1;
    }
    return round(neg, e + 64, (unsigned long long)(P >> 64), (unsigned long long)P);
  }
  static __device__ __acc_f80 div(const __acc_f80 &a, const __acc_f80 &b) {
    const __acc_f80_parts x = a.parts(), y = b.parts();
    const bool neg = x.neg != y.neg;
    if (x.cls == __acc_f80_parts::nan || y.cls == __acc_f80_parts::nan) return propagate(a, b);
    if (x.cls == __acc_f80_parts::inf) {
      return y.cls == __acc_f80_parts::inf ? indefinite() : infinity(neg);
    }
    if (y.cls == __acc_f80_parts::inf) return zero(neg);
    if (y.cls == __acc_f80_parts::zero) {
      return x.cls == __acc_f80_parts::zero ? indefinite() : infinity(neg);
    }
    if (x.cls == __acc_f80_parts::zero) return zero(neg);
    const __acc_u128 N = (__acc_u128)x.m << 64;
    __acc_u128 q = N / y.m;
    unsigned long long r = (unsigned long long)(N % y.m);
    int e = x.e - y.e - 64; /* q * 2^e, plus r / y.m of its last unit */
    unsigned long long m, rest;
    if (q >> 64) {
      m = (unsigned long long)(q >> 1);
      rest = (unsigned long long)(q & 1) << 63 | (r != 0);
      e += 1;
    } else {
      m = (unsigned long long)q;
      const __acc_u128 R = (__acc_u128)r << 64;
      rest = (unsigned long long)(R / y.m) | ((R % y.m) != 0);
    }
    return round(neg, e, m, rest);
  }
  /* The square root, correctly rounded as the x87's fsqrt: the integer root of the significand
   * widened to 127 or 128 bits (an even power of two apart), its remainder deciding the
   * rounding (a root is never exactly halfway). */
  static __device__ __acc_f80 sqrt(const __acc_f80 &a) {
    const __acc_f80_parts x = a.parts();
    if (x.cls == __acc_f80_parts::nan) return propagate(a, a);
    if (x.cls == __acc_f80_parts::zero) return a;
    if (x.neg) return indefinite();
    if (x.cls == __acc_f80_parts::inf) return a;
    const int k = (x.e - 63) % 2 == 0 ? 63 : 64;
    __acc_u128 op = (__acc_u128)x.m << k, root = 0, one = (__acc_u128)1 << 126;
    while (one > op) one >>= 2;
    while (one != 0) {
      if (op >= root + one) {
        op -= root + one;
        root = (root >> 1) + one;
      } else {
        root >>= 1;
      }
      one >>= 2;
    }
    const unsigned long long r = (unsigned long long)root;
    const unsigned long long rest = op > root ? 0x8000000000000001ull : op != 0 ? 1ull : 0ull;
    return round(false, (x.e - k) / 2, r, rest);
  }
  /* -1, 0, 1, or 2 when unordered. */
  static __device__ int compare(const __acc_f80 &a, const __acc_f80 &b) {
    const __acc_f80_parts x = a.parts(), y = b.parts();
    if (x.cls == __acc_f80_parts::nan || y.cls == __acc_f80_parts::nan) return 2;
    if (x.cls == __acc_f80_parts::zero && y.cls == __acc_f80_parts::zero) return 0;
    /* Magnitude order: zero < finite (by e, then m) < inf. */
    auto rank = [](const __acc_f80_parts &p) { return p.cls == __acc_f80_parts::zero ? 0 : p.cls == __acc_f80_parts::finite ? 1 : 2; };
    int mag;
    if (rank(x) != rank(y)) {
      mag = rank(x) < rank(y) ? -1 : 1;
    } else if (rank(x) == 1 && (x.e != y.e || x.m != y.m)) {
      mag = x.e != y.e ? (x.e < y.e ? -1 : 1) : (x.m < y.m ? -1 : 1);
    } else {
      mag = 0;
    }
    const bool xn = x.neg && x.cls != __acc_f80_parts::zero, yn = y.neg && y.cls != __acc_f80_parts::zero;
    if (xn != yn) return xn ? -1 : 1;
    return xn ? -mag : mag;
  }

  __device__ __acc_f80 operator-() const { return bits(m, (unsigned short)(se ^ 0x8000)); }
  __device__ __acc_f80 operator+() const { return *this; }
  __device__ __acc_f80 &operator+=(const __acc_f80 &o) { return *this = add(*this, o, false); }
  __device__ __acc_f80 &operator-=(const __acc_f80 &o) { return *this = add(*this, o, true); }
  __device__ __acc_f80 &operator*=(const __acc_f80 &o) { return *this = mul(*this, o); }
  __device__ __acc_f80 &operator/=(const __acc_f80 &o) { return *this = div(*this, o); }
  __device__ __acc_f80 &operator++() { return *this += __acc_f80(1); }
  __device__ __acc_f80 &operator--() { return *this -= __acc_f80(1); }
  __device__ __acc_f80 operator++(int) { const __acc_f80 old = *this; *this += __acc_f80(1); return old; }
  __device__ __acc_f80 operator--(int) { const __acc_f80 old = *this; *this -= __acc_f80(1); return old; }
};
/* The operators, with the other operand of any arithmetic type (an exact match, so that they
 * win over the built-in operators through a conversion); only arithmetic types, so that other
 * classes' operators (the complex types') never meet them. */
template <class T> struct __acc_f80_arith { enum { value = 0 }; };
#define __ACC_F80_ARITH(T) \
  template <> struct __acc_f80_arith<T> { enum { value = 1 }; };
__ACC_F80_ARITH(bool) __ACC_F80_ARITH(char) __ACC_F80_ARITH(signed char)
__ACC_F80_ARITH(unsigned char) __ACC_F80_ARITH(short) __ACC_F80_ARITH(unsigned short)
__ACC_F80_ARITH(int) __ACC_F80_ARITH(unsigned) __ACC_F80_ARITH(long) __ACC_F80_ARITH(unsigned long)
__ACC_F80_ARITH(long long) __ACC_F80_ARITH(unsigned long long) __ACC_F80_ARITH(float)
__ACC_F80_ARITH(double)
#undef __ACC_F80_ARITH
template <bool B, class R> struct __acc_f80_if {};
template <class R> struct __acc_f80_if<true, R> { typedef R type; };
#define __ACC_F80_IF(T, R) typename __acc_f80_if<__acc_f80_arith<T>::value, R>::type
#define __ACC_F80_OP(op, f)                                                                      \
  static __device__ __acc_f80 operator op(const __acc_f80 &a, const __acc_f80 &b) { return f; } \
  template <class T> __device__ __ACC_F80_IF(T, __acc_f80) operator op(const __acc_f80 &a, T t) { \
    const __acc_f80 b(t);                                                                       \
    return f;                                                                                   \
  }                                                                                             \
  template <class T> __device__ __ACC_F80_IF(T, __acc_f80) operator op(T t, const __acc_f80 &b) { \
    const __acc_f80 a(t);                                                                       \
    return f;                                                                                   \
  }
__ACC_F80_OP(+, __acc_f80::add(a, b, false))
__ACC_F80_OP(-, __acc_f80::add(a, b, true))
__ACC_F80_OP(*, __acc_f80::mul(a, b))
__ACC_F80_OP(/, __acc_f80::div(a, b))
#undef __ACC_F80_OP
#define __ACC_F80_CMP(op, test)                                                                \
  static __device__ bool operator op(const __acc_f80 &a, const __acc_f80 &b) {              \
    const int c = __acc_f80::compare(a, b);                                                   \
    return test;                                                                              \
  }                                                                                           \
  template <class T> __device__ __ACC_F80_IF(T, bool) operator op(const __acc_f80 &a, T t) {    \
    return a op __acc_f80(t);                                                                   \
  }                                                                                             \
  template <class T> __device__ __ACC_F80_IF(T, bool) operator op(T t, const __acc_f80 &b) {    \
    return __acc_f80(t) op b;                                                                   \
  }
__ACC_F80_CMP(==, c == 0)
__ACC_F80_CMP(!=, c != 0)
__ACC_F80_CMP(<, c == -1)
__ACC_F80_CMP(<=, c == -1 || c == 0)
__ACC_F80_CMP(>, c == 1)
__ACC_F80_CMP(>=, c == 1 || c == 0)
#undef __ACC_F80_CMP
/* `a op= b` with an arithmetic `a` and a long double `b`: C computes in long double and
 * converts back (C++ would find the built-in operators ambiguous here). */
#define __ACC_F80_ASSIGN(op, f)                                                                 \
  template <class T> __device__ __ACC_F80_IF(T, T &) operator op(T &a, const __acc_f80 &b) {  \
    return a = (T)(f);                                                                         \
  }
__ACC_F80_ASSIGN(+=, __acc_f80::add(__acc_f80(a), b, false))
__ACC_F80_ASSIGN(-=, __acc_f80::add(__acc_f80(a), b, true))
__ACC_F80_ASSIGN(*=, __acc_f80::mul(__acc_f80(a), b))
__ACC_F80_ASSIGN(/=, __acc_f80::div(__acc_f80(a), b))
#undef __ACC_F80_ASSIGN
#undef __ACC_F80_IF
static __device__ __acc_f80 sqrtl(__acc_f80 x) { return __acc_f80::sqrt(x); }
static __device__ __acc_f80 fabsl(__acc_f80 x) { return __acc_f80::bits(x.m, (unsigned short)(x.se & 0x7fff)); }
static __device__ __acc_f80 fmaxl(__acc_f80 a, __acc_f80 b) { return a != a ? b : b != b ? a : a < b ? b : a; }
static __device__ __acc_f80 fminl(__acc_f80 a, __acc_f80 b) { return a != a ? b : b != b ? a : b < a ? b : a; }
#define LDBL_MAX (__acc_f80::bits(0xffffffffffffffffull, 0x7ffe))
#define LDBL_MIN (__acc_f80::bits(0x8000000000000000ull, 1))
#define LDBL_EPSILON (__acc_f80::bits(0x8000000000000000ull, 16383 - 63))
"#;

/// The prelude's functor of a reduction operator (`__acc_add`, ...).
pub fn functor(op: ReductionOp) -> &'static str {
    match op {
        ReductionOp::Add => "__acc_add",
        ReductionOp::Mul => "__acc_mul",
        ReductionOp::Max => "__acc_max",
        ReductionOp::Min => "__acc_min",
        ReductionOp::BitAnd => "__acc_bitand",
        ReductionOp::BitOr => "__acc_bitor",
        ReductionOp::BitXor => "__acc_bitxor",
        ReductionOp::LogAnd => "__acc_and",
        ReductionOp::LogOr => "__acc_or",
    }
}

/// C's complex long double on the GPU, after [`PRELUDE`] and [`PRELUDE_F80`] in a module that
/// needs the latter: the complex template over the 80-bit type (acc-c writes the C type's name
/// as `__acc_cldouble`), with its parts, conjugate and the usual mixed operands.
pub const PRELUDE_F80_COMPLEX: &str = r#"typedef __acc_complex<__acc_f80> __acc_cldouble;
static __device__ __acc_f80 creall(__acc_cldouble z) { return z.re; }
static __device__ __acc_f80 cimagl(__acc_cldouble z) { return z.im; }
static __device__ __acc_cldouble conjl(__acc_cldouble z) { return __acc_cldouble(z.re, -z.im); }
template <class T> static __device__ __acc_cldouble operator*(const __acc_cldouble &a, T b) { return a * __acc_cldouble(__acc_f80(b)); }
template <class T> static __device__ __acc_cldouble operator*(T a, const __acc_cldouble &b) { return __acc_cldouble(__acc_f80(a)) * b; }
template <class T> static __device__ __acc_cldouble operator+(const __acc_cldouble &a, T b) { return a + __acc_cldouble(__acc_f80(b)); }
template <class T> static __device__ __acc_cldouble operator+(T a, const __acc_cldouble &b) { return __acc_cldouble(__acc_f80(a)) + b; }
"#;

/// The whole module: the prelude (with [`PRELUDE_F80`] where the code names
/// `long double` or `LDBL_*`), the file's own
/// declarations that kernels may use (`support`: macros, types, `routine`
/// functions made `__device__`), then the kernels.
pub fn emit_module(support: &str, kernels: &[CudaKernel]) -> String {
    let mut out = String::from(PRELUDE);
    let mentions = |t: &str| {
        let words: Vec<&str> = t
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        words
            .windows(2)
            .any(|w| matches!((w[0], w[1]), ("long", "double") | ("double", "long")))
            || words
                .iter()
                .any(|w| w.starts_with("LDBL_") || w.starts_with("__acc_f80"))
    };
    if mentions(support)
        || kernels
            .iter()
            .any(|k| mentions(&k.decls) || mentions(&k.body) || mentions(&k.store))
    {
        out.push_str(PRELUDE_F80);
        out.push_str(PRELUDE_F80_COMPLEX);
    }
    out.push_str(support);
    for k in kernels {
        out.push_str(&emit_kernel(k));
    }
    out
}

/// One kernel, following `acc_rt.h`'s CUDA launch convention.
pub fn emit_kernel(k: &CudaKernel) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "\n/* {}:{} */", k.file, k.line);
    if !k.types.is_empty() {
        let _ = writeln!(out, "namespace {}_types {{\n{}", k.entry, k.types);
    }
    let mut params = Vec::new();
    for (i, p) in k.params.iter().enumerate() {
        match p {
            CudaParam::Pointer => params.push(format!("void *__acc_a{i}")),
            CudaParam::Value { decl } => {
                let _ = writeln!(out, "struct {}_v{i} {{ {decl}; }};", k.entry);
                params.push(format!("struct {}_v{i} __acc_a{i}", k.entry));
            }
        }
    }
    params.push("void *const *__acc_red".into());
    params.push("long long __acc_iterations".into());
    let _ = writeln!(
        out,
        "extern \"C\" __global__ void {}({}) {{",
        k.entry,
        params.join(", ")
    );
    if !k.params.is_empty() {
        let addrs: Vec<String> = (0..k.params.len())
            .map(|i| format!("(void *)&__acc_a{i}"))
            .collect();
        let _ = writeln!(
            out,
            "  void *const __acc_args[] = {{{}}};",
            addrs.join(", ")
        );
    }
    if !k.slot_bytes.is_empty() {
        let slots: Vec<String> = k
            .slot_bytes
            .iter()
            .enumerate()
            .map(|(j, bytes)| format!("(void *)((char *)__acc_red[{j}] + blockIdx.x * ({bytes}))"))
            .collect();
        let _ = writeln!(
            out,
            "  void *const __acc_slot[] = {{{}}};",
            slots.join(", ")
        );
    }
    if !k.reductions.is_empty() {
        // The scalar reductions' slots start at the identity, set here by each block (the
        // runtime does not preset them: see `acc_rt.h`), before any thread reads its slot.
        out.push_str("  if (threadIdx.x == 0 && threadIdx.y == 0) {");
        for r in &k.reductions {
            let _ = write!(
                out,
                " *({ty} *)__acc_slot[{j}] = __acc_identity<{ty}>({f}());",
                ty = r.ty,
                j = r.slot,
                f = functor(r.op),
            );
        }
        out.push_str(" }\n  __syncthreads();\n");
    }
    out.push_str("  (void)__acc_iterations;\n");
    // Every thread stores the same address before it can reach an atomic.
    let _ = writeln!(
        out,
        "  __acc_lock = (unsigned int *)__acc_red[{}];",
        k.slot_bytes.len()
    );
    let first_thread = "threadIdx.x == 0 && threadIdx.y == 0";
    let (first, step, guard) = match k.mode {
        Mode::Threads => (
            "((long long)blockIdx.x * blockDim.x * blockDim.y + (long long)threadIdx.y * blockDim.x + threadIdx.x)",
            "((long long)gridDim.x * blockDim.x * blockDim.y)",
            "1".to_string(),
        ),
        Mode::Blocks => (
            "(long long)blockIdx.x",
            "(long long)gridDim.x",
            first_thread.to_string(),
        ),
        Mode::Single => ("0LL", "1LL", format!("blockIdx.x == 0 && {first_thread}")),
        Mode::Lanes | Mode::Rows => {
            ("(long long)blockIdx.x", "(long long)gridDim.x", "1".to_string())
        }
    };
    let _ = writeln!(
        out,
        "#define __ACC_FIRST(t) {first}\n#define __ACC_END(t) (t)\n#define __ACC_STEP {step}\n\
         #define __ACC_ROUNDS(t) 1LL\n#define __ACC_BLOCK(t, r) 0LL\n\
         #define __ACC_BFIRST(t, b) __ACC_FIRST(t)\n#define __ACC_BEND(t, b) (t)"
    );
    // Gang-redundant statements that must run once per gang: on the block's first thread,
    // then a barrier so the block sees their effects (every thread reaches it: they stand at
    // the top level of the region). Blocks and single kernels run on one thread anyway.
    let leader = (
        format!("if ({first_thread}) {{"),
        "} __syncthreads();".to_string(),
    );
    let (begin, end) = if k.mode.every_thread() {
        leader.clone()
    } else {
        ("{".to_string(), "}".to_string())
    };
    let _ = writeln!(
        out,
        "#define __ACC_REDUNDANT_BEGIN {begin}\n#define __ACC_REDUNDANT_END {end}"
    );
    // The worker/vector vocabulary: spread over the block in `Lanes` and `Rows`, in order
    // elsewhere.
    let lanes = matches!(k.mode, Mode::Lanes | Mode::Rows);
    if lanes {
        let _ = writeln!(
            out,
            "#define __ACC_VFIRST(t) ((long long)threadIdx.y * blockDim.x + threadIdx.x)\n\
             #define __ACC_VEND(t) (t)\n\
             #define __ACC_VSTEP ((long long)blockDim.x * blockDim.y)\n\
             #define __ACC_VSYNC __syncthreads();\n\
             #define __ACC_VRED_BEGIN(save, fresh) {{ save; {{ fresh;\n\
             #define __ACC_VRED_END(combine, restore) combine; }} restore; }}\n\
             #define __ACC_VSINGLE_BEGIN {}\n#define __ACC_VSINGLE_END {}",
            leader.0, leader.1
        );
    } else {
        let _ = writeln!(
            out,
            "#define __ACC_VFIRST(t) 0LL\n#define __ACC_VEND(t) (t)\n#define __ACC_VSTEP 1LL\n\
             #define __ACC_VSYNC\n\
             #define __ACC_VRED_BEGIN(save, fresh) {{{{\n\
             #define __ACC_VRED_END(combine, restore) }}}}\n\
             #define __ACC_VSINGLE_BEGIN {{\n#define __ACC_VSINGLE_END }}"
        );
    }
    if k.mode == Mode::Rows {
        // Rows must lie within a warp unless the block is one row (see `Mode::Rows`); the
        // runtime launches them so, and anything else would deadlock or race.
        out.push_str(
            "  if (blockDim.y > 1 && 32 % blockDim.x != 0) __trap();\n\
             #define __ACC_WFIRST(t) ((long long)threadIdx.y)\n\
             #define __ACC_WEND(t) (t)\n\
             #define __ACC_WSTEP ((long long)blockDim.y)\n\
             #define __ACC_WSYNC __syncthreads();\n\
             #define __ACC_WRED_BEGIN(save, fresh) { save; { fresh;\n\
             #define __ACC_WRED_END(combine, restore) combine; } restore; }\n\
             #define __ACC_XFIRST(t) ((long long)threadIdx.x)\n\
             #define __ACC_XEND(t) (t)\n\
             #define __ACC_XSTEP ((long long)blockDim.x)\n\
             #define __ACC_XSYNC __acc_row_sync();\n\
             #define __ACC_XRED_BEGIN(save, fresh) { save; { fresh;\n\
             #define __ACC_XRED_END(combine, restore) combine; } restore; }\n\
             #define __ACC_XSINGLE_BEGIN if (threadIdx.x == 0) {\n\
             #define __ACC_XSINGLE_END } __acc_row_sync();\n",
        );
    }
    out.push_str(&k.decls);
    let _ = writeln!(out, "  if ({guard}) {{");
    let _ = writeln!(out, "#line {} \"{}\"", k.line, k.file.replace('\\', "\\\\"));
    out.push_str(&k.body);
    out.push('\n');
    if !k.mode.every_thread() {
        out.push_str(&k.store);
    }
    out.push_str(
        "  }\n#undef __ACC_FIRST\n#undef __ACC_END\n#undef __ACC_STEP\n\
         #undef __ACC_ROUNDS\n#undef __ACC_BLOCK\n#undef __ACC_BFIRST\n#undef __ACC_BEND\n\
         #undef __ACC_REDUNDANT_BEGIN\n#undef __ACC_REDUNDANT_END\n\
         #undef __ACC_VFIRST\n#undef __ACC_VEND\n#undef __ACC_VSTEP\n#undef __ACC_VSYNC\n\
         #undef __ACC_VRED_BEGIN\n#undef __ACC_VRED_END\n\
         #undef __ACC_VSINGLE_BEGIN\n#undef __ACC_VSINGLE_END\n",
    );
    if k.mode == Mode::Rows {
        out.push_str(
            "#undef __ACC_WFIRST\n#undef __ACC_WEND\n#undef __ACC_WSTEP\n#undef __ACC_WSYNC\n\
             #undef __ACC_WRED_BEGIN\n#undef __ACC_WRED_END\n\
             #undef __ACC_XFIRST\n#undef __ACC_XEND\n#undef __ACC_XSTEP\n#undef __ACC_XSYNC\n\
             #undef __ACC_XRED_BEGIN\n#undef __ACC_XRED_END\n\
             #undef __ACC_XSINGLE_BEGIN\n#undef __ACC_XSINGLE_END\n",
        );
    }
    if k.mode.every_thread() {
        for r in &k.reductions {
            let _ = writeln!(
                out,
                "  {{ const {ty} __acc_all = __acc_block_reduce<{ty}>({var}, {f}()); \
                 if ({first_thread}) *({ty} *)__acc_slot[{j}] = {f}()(*({ty} *)__acc_slot[{j}], __acc_all); }}",
                ty = r.ty,
                var = r.var,
                j = r.slot,
                f = functor(r.op),
            );
        }
    }
    out.push_str("}\n");
    if !k.types.is_empty() {
        // The entry keeps its unmangled name in the namespace (`extern "C"`); this makes it
        // visible by that name in the module's scope too.
        let _ = writeln!(out, "}}\nusing {e}_types::{e};", e = k.entry);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
            "#define __ACC_REDUNDANT_BEGIN if (threadIdx.x == 0 && threadIdx.y == 0) {\n\
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
        assert!(text.contains(
            "#define __ACC_VFIRST(t) ((long long)threadIdx.y * blockDim.x + threadIdx.x)"
        ));
        assert!(text.contains("#define __ACC_VSYNC __syncthreads();"));
        assert!(text.contains("#define __ACC_VRED_BEGIN(save, fresh) { save; { fresh;"));
        assert!(text
            .contains("#define __ACC_VSINGLE_BEGIN if (threadIdx.x == 0 && threadIdx.y == 0) {"));
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
        assert!(text.contains(
            "#define __ACC_VFIRST(t) ((long long)threadIdx.y * blockDim.x + threadIdx.x)"
        ));
        assert!(text.contains("#define __ACC_WFIRST(t) ((long long)threadIdx.y)"));
        assert!(text.contains("#define __ACC_WSTEP ((long long)blockDim.y)"));
        assert!(text.contains("#define __ACC_XFIRST(t) ((long long)threadIdx.x)"));
        assert!(text.contains("#define __ACC_XSTEP ((long long)blockDim.x)"));
        assert!(text.contains("#define __ACC_XSYNC __acc_row_sync();"));
        assert!(text.contains("#define __ACC_XSINGLE_BEGIN if (threadIdx.x == 0) {"));
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
            !emit_module("typedef unsigned long long u; long n;", &[sample()])
                .contains(PRELUDE_F80)
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
}
