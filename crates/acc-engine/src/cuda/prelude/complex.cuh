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
/* A real and a complex operand (`x + y * I`, `2 * z`), as C converts them: the result is the
 * complex type of the wider real type (an integer takes the complex's own). Templates over the
 * real operand's type match exactly, so no pair is ambiguous between the two complex types;
 * `__acc_mixed` has a result only for C's real types, so two complex operands take the
 * members above. */
template <class R, class T> struct __acc_mixed {};
#define __ACC_MIXED_REAL(R) \
  template <> struct __acc_mixed<R, float> { typedef __acc_cfloat type; }; \
  template <> struct __acc_mixed<R, double> { typedef __acc_cdouble type; };
__ACC_MIXED_REAL(char)
__ACC_MIXED_REAL(signed char)
__ACC_MIXED_REAL(unsigned char)
__ACC_MIXED_REAL(short)
__ACC_MIXED_REAL(unsigned short)
__ACC_MIXED_REAL(int)
__ACC_MIXED_REAL(unsigned)
__ACC_MIXED_REAL(long)
__ACC_MIXED_REAL(unsigned long)
__ACC_MIXED_REAL(long long)
__ACC_MIXED_REAL(unsigned long long)
__ACC_MIXED_REAL(float)
#undef __ACC_MIXED_REAL
template <> struct __acc_mixed<double, float> { typedef __acc_cdouble type; };
template <> struct __acc_mixed<double, double> { typedef __acc_cdouble type; };
template <class R, class T> __device__ typename __acc_mixed<R, T>::type operator+(R a, const __acc_complex<T> &b) {
  typedef typename __acc_mixed<R, T>::type C; return C(a) + C(b);
}
template <class R, class T> __device__ typename __acc_mixed<R, T>::type operator+(const __acc_complex<T> &a, R b) {
  typedef typename __acc_mixed<R, T>::type C; return C(a) + C(b);
}
template <class R, class T> __device__ typename __acc_mixed<R, T>::type operator-(R a, const __acc_complex<T> &b) {
  typedef typename __acc_mixed<R, T>::type C; return C(a) - C(b);
}
template <class R, class T> __device__ typename __acc_mixed<R, T>::type operator-(const __acc_complex<T> &a, R b) {
  typedef typename __acc_mixed<R, T>::type C; return C(a) - C(b);
}
template <class R, class T> __device__ typename __acc_mixed<R, T>::type operator*(R a, const __acc_complex<T> &b) {
  typedef typename __acc_mixed<R, T>::type C; const C z(b); return C(z.re * a, z.im * a);
}
template <class R, class T> __device__ typename __acc_mixed<R, T>::type operator*(const __acc_complex<T> &a, R b) {
  typedef typename __acc_mixed<R, T>::type C; const C z(a); return C(z.re * b, z.im * b);
}
template <class R, class T> __device__ typename __acc_mixed<R, T>::type operator/(R a, const __acc_complex<T> &b) {
  typedef typename __acc_mixed<R, T>::type C; return C(a) / C(b);
}
template <class R, class T> __device__ typename __acc_mixed<R, T>::type operator/(const __acc_complex<T> &a, R b) {
  typedef typename __acc_mixed<R, T>::type C; const C z(a); return C(z.re / b, z.im / b);
}
/* A float complex and a double complex operand: double complex, as C converts them. */
template <class T, class U> struct __acc_wider {};
template <> struct __acc_wider<float, double> { typedef __acc_cdouble type; };
template <> struct __acc_wider<double, float> { typedef __acc_cdouble type; };
#define __ACC_WIDER_OP(op) \
  template <class T, class U> \
  __device__ typename __acc_wider<T, U>::type operator op(const __acc_complex<T> &a, const __acc_complex<U> &b) { \
    return __acc_cdouble(a) op __acc_cdouble(b); \
  }
__ACC_WIDER_OP(+)
__ACC_WIDER_OP(-)
__ACC_WIDER_OP(*)
__ACC_WIDER_OP(/)
#undef __ACC_WIDER_OP
#define __acc_I (__acc_cfloat(0.0f, 1.0f))
static __device__ float crealf(__acc_cfloat z) { return z.re; }
static __device__ float cimagf(__acc_cfloat z) { return z.im; }
static __device__ double creal(__acc_cdouble z) { return z.re; }
static __device__ double cimag(__acc_cdouble z) { return z.im; }
static __device__ __acc_cfloat conjf(__acc_cfloat z) { return __acc_cfloat(z.re, -z.im); }
static __device__ __acc_cdouble conj(__acc_cdouble z) { return __acc_cdouble(z.re, -z.im); }
static __device__ float cabsf(__acc_cfloat z) { return hypotf(z.re, z.im); }
static __device__ double cabs(__acc_cdouble z) { return hypot(z.re, z.im); }
/* The rest of <complex.h>'s functions kernels use, by their textbook definitions on the principal
 * branch (a C library also takes care of infinities and overflow in the parts). */
#define __ACC_COMPLEX_FUNCTIONS(C, T, f) \
  static __device__ T carg##f(C z) { return atan2##f(z.im, z.re); } \
  static __device__ C cexp##f(C z) { const T r = exp##f(z.re); return C(r * cos##f(z.im), r * sin##f(z.im)); } \
  static __device__ C clog##f(C z) { return C(log##f(hypot##f(z.re, z.im)), atan2##f(z.im, z.re)); } \
  static __device__ C csqrt##f(C z) { \
    const T r = hypot##f(z.re, z.im); \
    return C(sqrt##f((r + z.re) / 2), copysign##f(sqrt##f((r - z.re) / 2), z.im)); \
  } \
  static __device__ C cpow##f(C a, C b) { \
    return a.re == 0 && a.im == 0 ? C(0, 0) : cexp##f(b * clog##f(a)); \
  } \
  static __device__ C csin##f(C z) { return C(sin##f(z.re) * cosh##f(z.im), cos##f(z.re) * sinh##f(z.im)); } \
  static __device__ C ccos##f(C z) { return C(cos##f(z.re) * cosh##f(z.im), -sin##f(z.re) * sinh##f(z.im)); } \
  static __device__ C cproj##f(C z) { return z; }
__ACC_COMPLEX_FUNCTIONS(__acc_cfloat, float, f)
__ACC_COMPLEX_FUNCTIONS(__acc_cdouble, double, )
#undef __ACC_COMPLEX_FUNCTIONS
/* GCC's names for them, which <complex.h> users spell directly too. */
#define __builtin_creal creal
#define __builtin_crealf crealf
#define __builtin_cimag cimag
#define __builtin_cimagf cimagf
#define __builtin_conj conj
#define __builtin_conjf conjf
#define __builtin_cabs cabs
#define __builtin_cabsf cabsf
