/* shim.h — force-included before a CUDA C module that the fake NVRTC compiles as C++ for the
 * CPU: CUDA's keywords, built-in variables, barriers, warp collectives, atomics, intrinsics
 * and math, with GPU semantics where the simulated driver (libcuda.c) can give them.
 *
 * Threads of a block are fibers on one OS thread, so:
 * - `__shared__` is `static thread_local`: one copy per OS thread, i.e. per block in flight;
 *   the driver poisons it (all bits set) before each block, as a GPU leaves it undefined.
 * - `__syncthreads` and warp collectives switch fibers; nothing else does, except a failed
 *   `atomicCAS`, which lets the other threads run (a spin lock's holder may be one of them).
 * - `__device__` globals are ordinary globals of the module, shared by all blocks.
 * NVRTC includes no system headers; this shim declares only what CUDA provides anyway (math,
 * printf, memcpy, memset, malloc, free). It is not standalone CUDA: see README.md. */
#ifndef ACC_SIM_SHIM_H
#define ACC_SIM_SHIM_H

#include <math.h>

#include "sim_api.h"

#define __ACC_SIM_EXPORT extern "C" __attribute__((visibility("default")))

/* The driver's table, set by cuModuleLoadData through __acc_sim_bind. Relocatable device code
 * (-rdc=true: objects cuLinkComplete links into one module) shares one table, and one of each
 * exported function, among the objects of a link: weak definitions, which the link merges. */
#ifdef __ACC_SIM_RDC
#define __ACC_SIM_MODULE_WIDE __attribute__((weak))
__attribute__((weak, visibility("hidden"))) const struct acc_sim_api *__acc_sim_rt;
#else
#define __ACC_SIM_MODULE_WIDE
static const struct acc_sim_api *__acc_sim_rt;
#endif
__ACC_SIM_EXPORT __ACC_SIM_MODULE_WIDE int __acc_sim_bind(const struct acc_sim_api *api) {
  if (api->abi != ACC_SIM_ABI) return ACC_SIM_ABI;
  __acc_sim_rt = api;
  return 0;
}
/* Touching a thread_local makes the loader give this OS thread the module's TLS block (where
 * `__shared__` variables live), which the driver then poisons. */
static thread_local char __acc_sim_tls_anchor;
__ACC_SIM_EXPORT __ACC_SIM_MODULE_WIDE void *__acc_sim_tls(void) { return &__acc_sim_tls_anchor; }

/* ---- keywords ---------------------------------------------------------------------------- */
#define __global__
/* Default visibility, so that cuModuleGetGlobal finds a module's variables by name (kernel
 * objects are loaded RTLD_LOCAL and linked -Bsymbolic: nothing else sees them). */
#define __device__ __attribute__((visibility("default")))
#define __host__
#define __constant__
#define __managed__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __shared__ static thread_local
#define __launch_bounds__(...)
#define __grid_constant__
#define __CUDACC__ 1
#define __CUDACC_RTC__ 1
#define __NVCC__ 1

/* ---- built-in variables ---------------------------------------------------------------------- */
struct uint3 {
  unsigned int x, y, z;
};
struct dim3 {
  unsigned int x, y, z;
  dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};
static inline const struct acc_sim_thread *__acc_sim_self(void) { return __acc_sim_rt->self(); }
#define threadIdx (*(const uint3 *)&__acc_sim_self()->thread_idx)
#define blockIdx (*(const uint3 *)&__acc_sim_self()->block_idx)
#define blockDim (*(const dim3 *)&__acc_sim_self()->block_dim)
#define gridDim (*(const dim3 *)&__acc_sim_self()->grid_dim)
#define warpSize 32

/* ---- barriers, fences, traps --------------------------------------------------------------- */
/* The compiler barriers make the kernel reload memory another fiber may have written. */
#define __ACC_SIM_CLOBBER() __asm__ __volatile__("" ::: "memory")
static inline void __syncthreads(void) {
  __ACC_SIM_CLOBBER();
  __acc_sim_rt->syncthreads(0);
  __ACC_SIM_CLOBBER();
}
static inline int __syncthreads_count(int p) {
  __ACC_SIM_CLOBBER();
  int n = __acc_sim_rt->syncthreads(p);
  __ACC_SIM_CLOBBER();
  return n;
}
static inline int __syncthreads_or(int p) { return __syncthreads_count(p) != 0; }
static inline int __syncthreads_and(int p) {
  /* Every live thread passed a true predicate: count the false ones instead. */
  return __syncthreads_count(!p) == 0;
}
static inline void __threadfence(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline void __threadfence_block(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline void __threadfence_system(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
[[noreturn]] static inline void __trap(void) {
  __acc_sim_rt->trap("__trap()");
  __builtin_unreachable();
}
[[noreturn]] static inline void __brkpt(void) {
  __acc_sim_rt->trap("__brkpt()");
  __builtin_unreachable();
}
static inline void __nanosleep(unsigned int) { __acc_sim_rt->spin(); }
#define assert(e) ((e) ? (void)0 : __acc_sim_rt->trap("assertion failed: " #e))

/* ---- warp collectives ---------------------------------------------------------------------- */
static inline unsigned int __acc_sim_lane(void) {
  const struct acc_sim_thread *t = __acc_sim_self();
  unsigned int linear = (t->thread_idx.z * t->block_dim.y + t->thread_idx.y) * t->block_dim.x +
                        t->thread_idx.x;
  return linear % 32;
}
static inline void __syncwarp(unsigned int mask = 0xffffffffu) {
  __ACC_SIM_CLOBBER();
  __acc_sim_rt->warp(ACC_SIM_WARP_SYNC, mask, 0, -1);
  __ACC_SIM_CLOBBER();
}
static inline unsigned int __activemask(void) { return __acc_sim_rt->active_mask(); }
static inline unsigned int __ballot_sync(unsigned int mask, int p) {
  return (unsigned int)__acc_sim_rt->warp(ACC_SIM_WARP_BALLOT, mask, p != 0, -1);
}
static inline int __any_sync(unsigned int mask, int p) { return __ballot_sync(mask, p) != 0; }
static inline int __all_sync(unsigned int mask, int p) { return __ballot_sync(mask, p) == mask; }
template <class T> static inline T __acc_sim_shfl(unsigned int mask, T v, int src) {
  static_assert(sizeof(T) <= 8, "__shfl_*_sync of a value of at most 8 bytes");
  unsigned long long bits = 0;
  __builtin_memcpy(&bits, &v, sizeof(T));
  bits = __acc_sim_rt->warp(ACC_SIM_WARP_SHFL, mask, bits, src);
  T r;
  __builtin_memcpy(&r, &bits, sizeof(T));
  return r;
}
/* Source lanes as CUDA defines them for a warp split into sections of `width` lanes; -1 (the
 * caller's own value) where the source falls outside the caller's section. */
template <class T> static inline T __shfl_sync(unsigned int mask, T v, int src, int width = 32) {
  int lane = (int)__acc_sim_lane(), base = lane & ~(width - 1);
  return __acc_sim_shfl(mask, v, base + (src & (width - 1)));
}
template <class T>
static inline T __shfl_up_sync(unsigned int mask, T v, unsigned int d, int width = 32) {
  int lane = (int)__acc_sim_lane(), base = lane & ~(width - 1), s = lane - (int)d;
  return __acc_sim_shfl(mask, v, s < base ? -1 : s);
}
template <class T>
static inline T __shfl_down_sync(unsigned int mask, T v, unsigned int d, int width = 32) {
  int lane = (int)__acc_sim_lane(), base = lane & ~(width - 1), s = lane + (int)d;
  return __acc_sim_shfl(mask, v, s >= base + width ? -1 : s);
}
template <class T> static inline T __shfl_xor_sync(unsigned int mask, T v, int m, int width = 32) {
  int lane = (int)__acc_sim_lane(), base = lane & ~(width - 1), s = lane ^ m;
  return __acc_sim_shfl(mask, v, s >= base + width ? -1 : s);
}

/* ---- atomics (device-wide: blocks may run on other OS threads) ----------------------------- */
/* The host's atomics work on any memory: no pointer needs telling apart as a thread's own. */
static inline unsigned int __isLocal(const void *) { return 0; }
#define __ACC_SIM_RMW(NAME, T, BUILTIN)                                                           \
  static inline T NAME(T *p, T v) { return BUILTIN(p, v, __ATOMIC_SEQ_CST); }
#define __ACC_SIM_INT_ATOMICS(T)                                                                  \
  __ACC_SIM_RMW(atomicAdd, T, __atomic_fetch_add)                                               \
  __ACC_SIM_RMW(atomicSub, T, __atomic_fetch_sub)                                               \
  __ACC_SIM_RMW(atomicAnd, T, __atomic_fetch_and)                                               \
  __ACC_SIM_RMW(atomicOr, T, __atomic_fetch_or)                                                 \
  __ACC_SIM_RMW(atomicXor, T, __atomic_fetch_xor)                                               \
  static inline T atomicExch(T *p, T v) { return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); } \
  static inline T atomicCAS(T *p, T cmp, T v) {                                                 \
    T old = cmp;                                                                                \
    if (!__atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))     \
      __acc_sim_rt->spin();                                                                     \
    return old;                                                                                 \
  }                                                                                             \
  static inline T atomicMin(T *p, T v) {                                                        \
    T old = __atomic_load_n(p, __ATOMIC_SEQ_CST);                                               \
    while (v < old &&                                                                           \
           !__atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) \
      ;                                                                                         \
    return old;                                                                                 \
  }                                                                                             \
  static inline T atomicMax(T *p, T v) {                                                        \
    T old = __atomic_load_n(p, __ATOMIC_SEQ_CST);                                               \
    while (v > old &&                                                                           \
           !__atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) \
      ;                                                                                         \
    return old;                                                                                 \
  }
__ACC_SIM_INT_ATOMICS(int)
__ACC_SIM_INT_ATOMICS(unsigned int)
__ACC_SIM_INT_ATOMICS(long long)
__ACC_SIM_INT_ATOMICS(unsigned long long)
static inline unsigned short atomicCAS(unsigned short *p, unsigned short cmp, unsigned short v) {
  unsigned short old = cmp;
  if (!__atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
    __acc_sim_rt->spin();
  return old;
}
#undef __ACC_SIM_INT_ATOMICS
#undef __ACC_SIM_RMW
/* ((old >= v) ? 0 : old + 1) and (((old == 0) || (old > v)) ? v : old - 1), as CUDA defines. */
static inline unsigned int atomicInc(unsigned int *p, unsigned int v) {
  unsigned int old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
  while (!__atomic_compare_exchange_n(p, &old, old >= v ? 0u : old + 1, false, __ATOMIC_SEQ_CST,
                                      __ATOMIC_SEQ_CST))
    ;
  return old;
}
static inline unsigned int atomicDec(unsigned int *p, unsigned int v) {
  unsigned int old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
  while (!__atomic_compare_exchange_n(p, &old, (old == 0 || old > v) ? v : old - 1, false,
                                      __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
    ;
  return old;
}
template <class F, class I> static inline F __acc_sim_float_add(F *p, F v) {
  I *q = (I *)p;
  I old = __atomic_load_n(q, __ATOMIC_SEQ_CST), next;
  F f;
  do {
    __builtin_memcpy(&f, &old, sizeof f);
    f += v;
    __builtin_memcpy(&next, &f, sizeof f);
  } while (!__atomic_compare_exchange_n(q, &old, next, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
  __builtin_memcpy(&f, &old, sizeof f);
  return f;
}
static inline float atomicAdd(float *p, float v) {
  return __acc_sim_float_add<float, unsigned int>(p, v);
}
static inline double atomicAdd(double *p, double v) {
  return __acc_sim_float_add<double, unsigned long long>(p, v);
}
static inline float atomicExch(float *p, float v) {
  float old;
  __atomic_exchange(p, &v, &old, __ATOMIC_SEQ_CST);
  return old;
}

/* ---- intrinsics ------------------------------------------------------------------------------ */
/* CUDA never fuses the _rn operations into a multiply-add; the kernels here may be compiled
 * with contraction (`--fmad`, as NVRTC's default), so each result and operand passes an empty
 * asm that the compiler cannot see through. */
template <class T> static inline T __acc_sim_opaque(T v) {
  __asm__("" : "+m"(v));
  return v;
}
#define __ACC_SIM_RN2(name, T, op)                                                              \
  static inline T name(T a, T b) { return __acc_sim_opaque(__acc_sim_opaque(a) op __acc_sim_opaque(b)); }
__ACC_SIM_RN2(__fadd_rn, float, +)
__ACC_SIM_RN2(__fsub_rn, float, -)
__ACC_SIM_RN2(__fmul_rn, float, *)
__ACC_SIM_RN2(__fdiv_rn, float, /)
__ACC_SIM_RN2(__dadd_rn, double, +)
__ACC_SIM_RN2(__dsub_rn, double, -)
__ACC_SIM_RN2(__dmul_rn, double, *)
__ACC_SIM_RN2(__ddiv_rn, double, /)
#undef __ACC_SIM_RN2
static inline float __fsqrt_rn(float a) { return sqrtf(a); }
static inline float __frcp_rn(float a) { return 1.0f / a; }
static inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
static inline double __dsqrt_rn(double a) { return sqrt(a); }
static inline double __drcp_rn(double a) { return 1.0 / a; }
static inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }
static inline float __fdividef(float a, float b) { return a / b; }
static inline float __saturatef(float a) { return a < 0.0f ? 0.0f : a > 1.0f ? 1.0f : a; }
template <class To, class From> static inline To __acc_sim_bits(From v) {
  static_assert(sizeof(To) == sizeof(From), "a reinterpretation keeps the size");
  To r;
  __builtin_memcpy(&r, &v, sizeof r);
  return r;
}
static inline float __int_as_float(int v) { return __acc_sim_bits<float>(v); }
static inline float __uint_as_float(unsigned int v) { return __acc_sim_bits<float>(v); }
static inline int __float_as_int(float v) { return __acc_sim_bits<int>(v); }
static inline unsigned int __float_as_uint(float v) { return __acc_sim_bits<unsigned int>(v); }
static inline double __longlong_as_double(long long v) { return __acc_sim_bits<double>(v); }
static inline long long __double_as_longlong(double v) { return __acc_sim_bits<long long>(v); }
static inline int __popc(unsigned int v) { return __builtin_popcount(v); }
static inline int __popcll(unsigned long long v) { return __builtin_popcountll(v); }
static inline int __clz(int v) { return v == 0 ? 32 : __builtin_clz((unsigned int)v); }
static inline int __clzll(long long v) { return v == 0 ? 64 : __builtin_clzll((unsigned long long)v); }
static inline int __ffs(int v) { return __builtin_ffs(v); }
static inline int __ffsll(long long v) { return __builtin_ffsll(v); }
static inline unsigned int __brev(unsigned int v) {
  unsigned int r = 0;
  for (int i = 0; i < 32; i++) r |= ((v >> i) & 1u) << (31 - i);
  return r;
}
template <class T> static inline T __ldg(const T *p) { return *p; }
static inline long long clock64(void) {
  static long long ticks;
  return __atomic_add_fetch(&ticks, 1, __ATOMIC_RELAXED);
}

/* ---- math beyond <math.h> ------------------------------------------------------------------ */
static inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
static inline double rsqrt(double x) { return 1.0 / sqrt(x); }
static inline int min(int a, int b) { return b < a ? b : a; }
static inline int max(int a, int b) { return b < a ? a : b; }
static inline unsigned int min(unsigned int a, unsigned int b) { return b < a ? b : a; }
static inline unsigned int max(unsigned int a, unsigned int b) { return b < a ? a : b; }
static inline long long min(long long a, long long b) { return b < a ? b : a; }
static inline long long max(long long a, long long b) { return b < a ? a : b; }
static inline unsigned long long min(unsigned long long a, unsigned long long b) {
  return b < a ? b : a;
}
static inline unsigned long long max(unsigned long long a, unsigned long long b) {
  return b < a ? a : b;
}
static inline float min(float a, float b) { return fminf(a, b); }
static inline float max(float a, float b) { return fmaxf(a, b); }
static inline double min(double a, double b) { return fmin(a, b); }
static inline double max(double a, double b) { return fmax(a, b); }

/* ---- printf, memory ------------------------------------------------------------------------ */
extern "C" int printf(const char *, ...);
extern "C" void *memcpy(void *, const void *, __SIZE_TYPE__);
extern "C" void *memset(void *, int, __SIZE_TYPE__);
/* CUDA's vprintf takes the packed argument buffer, not a va_list: the module's own definition,
 * hidden, so that libc's vprintf can never be bound in its place. */
extern "C" __attribute__((visibility("hidden"))) __ACC_SIM_MODULE_WIDE int vprintf(const char *format,
                                                                                  const char *args) {
  return __acc_sim_rt->vprintf(format, args);
}

/* ---- the entry points the driver calls ----------------------------------------------------- */
/* cuLaunchKernel's `kernelParams[i]` points at parameter i's value; the parameter types come
 * from the kernel's own signature. */
template <unsigned long... I> struct __acc_sim_seq {};
template <unsigned long N, unsigned long... I>
struct __acc_sim_make_seq : __acc_sim_make_seq<N - 1, N - 1, I...> {};
template <unsigned long... I> struct __acc_sim_make_seq<0, I...> {
  typedef __acc_sim_seq<I...> type;
};
template <class T> struct __acc_sim_plain {
  typedef T type;
};
template <class... A, unsigned long... I>
static inline void __acc_sim_call(void (*f)(A...), void **p, __acc_sim_seq<I...>) {
  f(*(typename __acc_sim_plain<A>::type *)p[I]...);
}
template <class... A> static inline void __acc_sim_invoke(void (*f)(A...), void **p) {
  __acc_sim_call(f, p, typename __acc_sim_make_seq<sizeof...(A)>::type());
}

#endif
