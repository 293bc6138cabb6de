//! The prelude's 80-bit `long double` (`__acc_f80`) and its complex form: C++ text a CUDA
//! module includes after [`PRELUDE`](super::PRELUDE) only where its code names them (most of
//! the preludes' text, which NVRTC would otherwise parse for every module).
//!
//! Tables of text, as `prelude`: this module must not know about kernels or modes.

/// The prelude's `long double` (`__acc_f80`), which a module includes after [`PRELUDE`](super::PRELUDE) when
/// its code may use one (see [`emit_module`](super::emit_module)): it is most of the prelude's text, and NVRTC
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
  static __device__ __acc_f80 rounded(bool neg, int e, unsigned long long m, unsigned long long rest) {
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
    if (x.cls == __acc_f80_parts::zero) return rounded(y.neg, y.e, y.m, 0);
    if (y.cls == __acc_f80_parts::zero) return rounded(x.neg, x.e, x.m, 0);
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
    return rounded(x.neg, e + 64, (unsigned long long)(S >> 64), (unsigned long long)S | sticky);
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
    return rounded(neg, e + 64, (unsigned long long)(P >> 64), (unsigned long long)P);
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
    return rounded(neg, e, m, rest);
  }
  /* The square root, correctly rounded as the x87's fsqrt: the integer root of the significand
   * widened to 127 or 128 bits (an even power of two apart), its remainder deciding the
   * rounding (a root is never exactly halfway). */
  static __device__ __acc_f80 root(const __acc_f80 &a) {
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
    return rounded(false, (x.e - k) / 2, r, rest);
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
static __device__ __acc_f80 sqrtl(__acc_f80 x) { return __acc_f80::root(x); }
static __device__ __acc_f80 fabsl(__acc_f80 x) { return __acc_f80::bits(x.m, (unsigned short)(x.se & 0x7fff)); }
static __device__ __acc_f80 fmaxl(__acc_f80 a, __acc_f80 b) { return a != a ? b : b != b ? a : a < b ? b : a; }
static __device__ __acc_f80 fminl(__acc_f80 a, __acc_f80 b) { return a != a ? b : b != b ? a : b < a ? b : a; }
#define LDBL_MAX (__acc_f80::bits(0xffffffffffffffffull, 0x7ffe))
#define LDBL_MIN (__acc_f80::bits(0x8000000000000000ull, 1))
#define LDBL_EPSILON (__acc_f80::bits(0x8000000000000000ull, 16383 - 63))
"#;

/// C's complex long double on the GPU, after [`PRELUDE`](super::PRELUDE) and [`PRELUDE_F80`] in a module that
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
