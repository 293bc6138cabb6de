/* GCC's builtins in kernels, as C code calls them by name (math through its own macros, bit
 * counting, byte swaps, `__extension__`, `__builtin_offsetof`), its predefined limits
 * (`__INT_MAX__`), an empty `__asm__ __volatile__` barrier, and `abort()` on a path not taken:
 * a GPU's CUDA has none of them under these names, and the module did not compile. Each result
 * is exact. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 64
#define SQUARE_ROOT(x) __builtin_sqrt(x)

struct pair {
  int first;
  double second;
};

int main(void) {
  long bits[N], math[N], limits[N];
  double reals[N];
#pragma acc parallel loop copyout(bits, math, reals, limits)
  for (int i = 0; i < N; i++) {
    if (i >= N)
      abort();
    __asm__ __volatile__("");
    limits[i] = (i % 2 ? __INT_MAX__ : (long)(__LONG_LONG_MAX__ >> 40)) + __CHAR_BIT__;
    unsigned u = 0x10203u * (unsigned)(i + 1);
    unsigned long long w = 0x0102030405060708ull + (unsigned long long)i;
    __extension__ long long wide = (long long)i << 33;
    bits[i] = __builtin_popcount(u) + 100 * __builtin_ctz(u) + 10000 * __builtin_clz(u) +
              1000000L * __builtin_parity(u) + 10000000L * __builtin_ffs(i) +
              (long)(__builtin_bswap32(u) & 0xff) * 1000000000L +
              (long)(__builtin_bswap64(w) >> 56) * 1000000000000L + __builtin_popcountll(wide);
    math[i] = (long)SQUARE_ROOT((double)(i * i)) + 100 * (long)__builtin_fabs(-2.0 * i) +
              10000 * (long)__builtin_floor(i / 4.0) + 1000000L * __builtin_abs(-i) +
              100000000L * (long)__builtin_offsetof(struct pair, second);
    reals[i] = __builtin_fmax((double)i, 10.0) + __builtin_pow(2.0, 3.0) +
               (__builtin_inf() > 1e308 ? 1.0 : 0.0) + (isnan(__builtin_nan("")) ? 2.0 : 0.0);
  }
  int wrong = 0;
  for (int i = 0; i < N; i++) {
    unsigned u = 0x10203u * (unsigned)(i + 1);
    unsigned long long w = 0x0102030405060708ull + (unsigned long long)i;
    long long wide = (long long)i << 33;
    long want_bits = __builtin_popcount(u) + 100 * __builtin_ctz(u) + 10000 * __builtin_clz(u) +
                     1000000L * __builtin_parity(u) + 10000000L * __builtin_ffs(i) +
                     (long)(__builtin_bswap32(u) & 0xff) * 1000000000L +
                     (long)(__builtin_bswap64(w) >> 56) * 1000000000000L +
                     __builtin_popcountll(wide);
    long want_math = i + 100 * 2 * i + 10000 * (i / 4) + 1000000L * i +
                     100000000L * (long)offsetof(struct pair, second);
    double want_real = (i > 10 ? i : 10) + 8.0 + 1.0 + 2.0;
    long want_limit = (i % 2 ? 2147483647L : 8388607L) + 8;
    if (limits[i] != want_limit)
      wrong = 1;
    if (bits[i] != want_bits || math[i] != want_math || reals[i] != want_real) {
      printf("at %d: %ld %ld %g, want %ld %ld %g\n", i, bits[i], math[i], reals[i], want_bits,
             want_math, want_real);
      wrong = 1;
      break;
    }
  }
  if (!wrong)
    printf("gnu-builtins-in-kernels: ok\n");
  return wrong;
}
