/* The device's one lock word for atomics (every module's kernels share it: the runtime passes
 * it after the reductions' slots, and each kernel stores it here as it starts). A file's
 * routines linked into another file's kernels (a routine library) use that module's. */
#ifdef __ACC_ROUTINE_LIBRARY
extern __device__ unsigned int *__acc_lock;
#else
__device__ unsigned int *__acc_lock;
#endif
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
  if (__isLocal(p)) {
    /* A thread's own variable (a gang's private scalar where a thread runs the gang): no
     * other thread sees it, and the GPU has no atomics on local memory. */
    const T cur = *p;
    *p = f(cur, e);
    return fresh ? *p : cur;
  }
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
  if (__isLocal(p)) return *p;
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
  if (__isLocal(p)) {
    *p = v;
    return;
  }
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
/* A routine's variable-length array parameter (`double a[n][m]`, acc-c's `cuda::parameters`):
 * the address of its first element, from a pointer of any type (C's compatible array
 * pointers) or from a kernel's `__acc_vla`; the body rebuilds the array from the extents. */
template <class T> struct __acc_vla_arg {
  T *p;
  template <class U> __device__ __acc_vla_arg(U *q) : p((T *)q) {}
  template <class U, int R> __device__ __acc_vla_arg(const __acc_vla<U, R> &v) : p((T *)v.p) {}
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
