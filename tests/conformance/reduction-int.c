/* reduction with every operator (+ * max min & | ^ && ||) on every integer
 * type: plain char, and signed and unsigned char, short, int, long and
 * long long.
 * Values are chosen so that no signed partial result can overflow, in any
 * order of combination; the unsigned char sum wraps, which is
 * well defined; plain char (whose signedness varies) only gets small
 * non-negative values. Each type is reduced on a combined parallel loop and the
 * result compared with a sequential host loop. Every function is the same
 * template apart from the type and the input values. */
#include <limits.h>
#include <stdio.h>

#define N 100

static int test_char(void) {
  char v[N], p[N];
  for (int i = 0; i < N; i++) {
    v[i] = (char)(i % 5 == 0 ? i % 4 + 1 : 0);
    p[i] = (char)(i % 23 == 0 ? 2 : 1);
  }
  char sum = 0, prod = 1, mx = CHAR_MIN, mn = CHAR_MAX, band = (char)~0, bor = 0, bxor = 0, land = 1, lor = 0;
  #pragma acc parallel loop copyin(v, p) reduction(+:sum) reduction(*:prod) reduction(max:mx) \
      reduction(min:mn) reduction(&:band) reduction(|:bor) reduction(^:bxor) reduction(&&:land) \
      reduction(||:lor)
  for (int i = 0; i < N; i++) {
    sum += v[i];
    prod *= p[i];
    mx = v[i] > mx ? v[i] : mx;
    mn = v[i] < mn ? v[i] : mn;
    band &= v[i] | 0x10;
    bor |= v[i];
    bxor ^= v[i];
    land = land && v[i] != 100;
    lor = lor || v[i] == 2;
  }
  char rsum = 0, rprod = 1, rmx = CHAR_MIN, rmn = CHAR_MAX, rband = (char)~0, rbor = 0, rbxor = 0, rland = 1, rlor = 0;
  for (int i = 0; i < N; i++) {
    rsum += v[i];
    rprod *= p[i];
    rmx = v[i] > rmx ? v[i] : rmx;
    rmn = v[i] < rmn ? v[i] : rmn;
    rband &= v[i] | 0x10;
    rbor |= v[i];
    rbxor ^= v[i];
    rland = rland && v[i] != 100;
    rlor = rlor || v[i] == 2;
  }
  if (sum != rsum || prod != rprod || mx != rmx || mn != rmn || band != rband || bor != rbor ||
      bxor != rbxor || land != rland || lor != rlor) {
    printf("reduction-int: char: + %lld/%lld * %lld/%lld max %lld/%lld min %lld/%lld & %lld/%lld "
           "| %lld/%lld ^ %lld/%lld && %lld/%lld || %lld/%lld\n",
           (long long)sum, (long long)rsum, (long long)prod, (long long)rprod, (long long)mx,
           (long long)rmx, (long long)mn, (long long)rmn, (long long)band, (long long)rband,
           (long long)bor, (long long)rbor, (long long)bxor, (long long)rbxor, (long long)land,
           (long long)rland, (long long)lor, (long long)rlor);
    return 1;
  }
  return 0;
}

static int test_schar(void) {
  signed char v[N], p[N];
  for (int i = 0; i < N; i++) {
    v[i] = (signed char)(i % 7 - 3);
    p[i] = (signed char)(i % 23 == 0 ? -2 : 1);
  }
  signed char sum = 0, prod = 1, mx = SCHAR_MIN, mn = SCHAR_MAX, band = (signed char)~0, bor = 0, bxor = 0, land = 1, lor = 0;
  #pragma acc parallel loop copyin(v, p) reduction(+:sum) reduction(*:prod) reduction(max:mx) \
      reduction(min:mn) reduction(&:band) reduction(|:bor) reduction(^:bxor) reduction(&&:land) \
      reduction(||:lor)
  for (int i = 0; i < N; i++) {
    sum += v[i];
    prod *= p[i];
    mx = v[i] > mx ? v[i] : mx;
    mn = v[i] < mn ? v[i] : mn;
    band &= v[i] | 0x10;
    bor |= v[i];
    bxor ^= v[i];
    land = land && v[i] != 100;
    lor = lor || v[i] == 2;
  }
  signed char rsum = 0, rprod = 1, rmx = SCHAR_MIN, rmn = SCHAR_MAX, rband = (signed char)~0, rbor = 0, rbxor = 0, rland = 1, rlor = 0;
  for (int i = 0; i < N; i++) {
    rsum += v[i];
    rprod *= p[i];
    rmx = v[i] > rmx ? v[i] : rmx;
    rmn = v[i] < rmn ? v[i] : rmn;
    rband &= v[i] | 0x10;
    rbor |= v[i];
    rbxor ^= v[i];
    rland = rland && v[i] != 100;
    rlor = rlor || v[i] == 2;
  }
  if (sum != rsum || prod != rprod || mx != rmx || mn != rmn || band != rband || bor != rbor ||
      bxor != rbxor || land != rland || lor != rlor) {
    printf("reduction-int: signed char: + %lld/%lld * %lld/%lld max %lld/%lld min %lld/%lld & %lld/%lld "
           "| %lld/%lld ^ %lld/%lld && %lld/%lld || %lld/%lld\n",
           (long long)sum, (long long)rsum, (long long)prod, (long long)rprod, (long long)mx,
           (long long)rmx, (long long)mn, (long long)rmn, (long long)band, (long long)rband,
           (long long)bor, (long long)rbor, (long long)bxor, (long long)rbxor, (long long)land,
           (long long)rland, (long long)lor, (long long)rlor);
    return 1;
  }
  return 0;
}

static int test_uchar(void) {
  unsigned char v[N], p[N];
  for (int i = 0; i < N; i++) {
    v[i] = (unsigned char)(i % 7 + (i % 3) * 40);
    p[i] = (unsigned char)(i % 23 == 0 ? 2 : 1);
  }
  unsigned char sum = 0, prod = 1, mx = 0, mn = UCHAR_MAX, band = (unsigned char)~0, bor = 0, bxor = 0, land = 1, lor = 0;
  #pragma acc parallel loop copyin(v, p) reduction(+:sum) reduction(*:prod) reduction(max:mx) \
      reduction(min:mn) reduction(&:band) reduction(|:bor) reduction(^:bxor) reduction(&&:land) \
      reduction(||:lor)
  for (int i = 0; i < N; i++) {
    sum += v[i];
    prod *= p[i];
    mx = v[i] > mx ? v[i] : mx;
    mn = v[i] < mn ? v[i] : mn;
    band &= v[i] | 0x10;
    bor |= v[i];
    bxor ^= v[i];
    land = land && v[i] != 100;
    lor = lor || v[i] == 2;
  }
  unsigned char rsum = 0, rprod = 1, rmx = 0, rmn = UCHAR_MAX, rband = (unsigned char)~0, rbor = 0, rbxor = 0, rland = 1, rlor = 0;
  for (int i = 0; i < N; i++) {
    rsum += v[i];
    rprod *= p[i];
    rmx = v[i] > rmx ? v[i] : rmx;
    rmn = v[i] < rmn ? v[i] : rmn;
    rband &= v[i] | 0x10;
    rbor |= v[i];
    rbxor ^= v[i];
    rland = rland && v[i] != 100;
    rlor = rlor || v[i] == 2;
  }
  if (sum != rsum || prod != rprod || mx != rmx || mn != rmn || band != rband || bor != rbor ||
      bxor != rbxor || land != rland || lor != rlor) {
    printf("reduction-int: unsigned char: + %lld/%lld * %lld/%lld max %lld/%lld min %lld/%lld & %lld/%lld "
           "| %lld/%lld ^ %lld/%lld && %lld/%lld || %lld/%lld\n",
           (long long)sum, (long long)rsum, (long long)prod, (long long)rprod, (long long)mx,
           (long long)rmx, (long long)mn, (long long)rmn, (long long)band, (long long)rband,
           (long long)bor, (long long)rbor, (long long)bxor, (long long)rbxor, (long long)land,
           (long long)rland, (long long)lor, (long long)rlor);
    return 1;
  }
  return 0;
}

static int test_short(void) {
  short v[N], p[N];
  for (int i = 0; i < N; i++) {
    v[i] = (short)(i % 7 - 3);
    p[i] = (short)(i % 23 == 0 ? -2 : 1);
  }
  short sum = 0, prod = 1, mx = SHRT_MIN, mn = SHRT_MAX, band = (short)~0, bor = 0, bxor = 0, land = 1, lor = 0;
  #pragma acc parallel loop copyin(v, p) reduction(+:sum) reduction(*:prod) reduction(max:mx) \
      reduction(min:mn) reduction(&:band) reduction(|:bor) reduction(^:bxor) reduction(&&:land) \
      reduction(||:lor)
  for (int i = 0; i < N; i++) {
    sum += v[i];
    prod *= p[i];
    mx = v[i] > mx ? v[i] : mx;
    mn = v[i] < mn ? v[i] : mn;
    band &= v[i] | 0x10;
    bor |= v[i];
    bxor ^= v[i];
    land = land && v[i] != 100;
    lor = lor || v[i] == 2;
  }
  short rsum = 0, rprod = 1, rmx = SHRT_MIN, rmn = SHRT_MAX, rband = (short)~0, rbor = 0, rbxor = 0, rland = 1, rlor = 0;
  for (int i = 0; i < N; i++) {
    rsum += v[i];
    rprod *= p[i];
    rmx = v[i] > rmx ? v[i] : rmx;
    rmn = v[i] < rmn ? v[i] : rmn;
    rband &= v[i] | 0x10;
    rbor |= v[i];
    rbxor ^= v[i];
    rland = rland && v[i] != 100;
    rlor = rlor || v[i] == 2;
  }
  if (sum != rsum || prod != rprod || mx != rmx || mn != rmn || band != rband || bor != rbor ||
      bxor != rbxor || land != rland || lor != rlor) {
    printf("reduction-int: short: + %lld/%lld * %lld/%lld max %lld/%lld min %lld/%lld & %lld/%lld "
           "| %lld/%lld ^ %lld/%lld && %lld/%lld || %lld/%lld\n",
           (long long)sum, (long long)rsum, (long long)prod, (long long)rprod, (long long)mx,
           (long long)rmx, (long long)mn, (long long)rmn, (long long)band, (long long)rband,
           (long long)bor, (long long)rbor, (long long)bxor, (long long)rbxor, (long long)land,
           (long long)rland, (long long)lor, (long long)rlor);
    return 1;
  }
  return 0;
}

static int test_ushort(void) {
  unsigned short v[N], p[N];
  for (int i = 0; i < N; i++) {
    v[i] = (unsigned short)(i % 7 + (i % 3) * 40);
    p[i] = (unsigned short)(i % 23 == 0 ? 2 : 1);
  }
  unsigned short sum = 0, prod = 1, mx = 0, mn = USHRT_MAX, band = (unsigned short)~0, bor = 0, bxor = 0, land = 1, lor = 0;
  #pragma acc parallel loop copyin(v, p) reduction(+:sum) reduction(*:prod) reduction(max:mx) \
      reduction(min:mn) reduction(&:band) reduction(|:bor) reduction(^:bxor) reduction(&&:land) \
      reduction(||:lor)
  for (int i = 0; i < N; i++) {
    sum += v[i];
    prod *= p[i];
    mx = v[i] > mx ? v[i] : mx;
    mn = v[i] < mn ? v[i] : mn;
    band &= v[i] | 0x10;
    bor |= v[i];
    bxor ^= v[i];
    land = land && v[i] != 100;
    lor = lor || v[i] == 2;
  }
  unsigned short rsum = 0, rprod = 1, rmx = 0, rmn = USHRT_MAX, rband = (unsigned short)~0, rbor = 0, rbxor = 0, rland = 1, rlor = 0;
  for (int i = 0; i < N; i++) {
    rsum += v[i];
    rprod *= p[i];
    rmx = v[i] > rmx ? v[i] : rmx;
    rmn = v[i] < rmn ? v[i] : rmn;
    rband &= v[i] | 0x10;
    rbor |= v[i];
    rbxor ^= v[i];
    rland = rland && v[i] != 100;
    rlor = rlor || v[i] == 2;
  }
  if (sum != rsum || prod != rprod || mx != rmx || mn != rmn || band != rband || bor != rbor ||
      bxor != rbxor || land != rland || lor != rlor) {
    printf("reduction-int: unsigned short: + %lld/%lld * %lld/%lld max %lld/%lld min %lld/%lld & %lld/%lld "
           "| %lld/%lld ^ %lld/%lld && %lld/%lld || %lld/%lld\n",
           (long long)sum, (long long)rsum, (long long)prod, (long long)rprod, (long long)mx,
           (long long)rmx, (long long)mn, (long long)rmn, (long long)band, (long long)rband,
           (long long)bor, (long long)rbor, (long long)bxor, (long long)rbxor, (long long)land,
           (long long)rland, (long long)lor, (long long)rlor);
    return 1;
  }
  return 0;
}

static int test_int(void) {
  int v[N], p[N];
  for (int i = 0; i < N; i++) {
    v[i] = (int)(i % 7 - 3);
    p[i] = (int)(i % 23 == 0 ? -2 : 1);
  }
  int sum = 0, prod = 1, mx = INT_MIN, mn = INT_MAX, band = (int)~0, bor = 0, bxor = 0, land = 1, lor = 0;
  #pragma acc parallel loop copyin(v, p) reduction(+:sum) reduction(*:prod) reduction(max:mx) \
      reduction(min:mn) reduction(&:band) reduction(|:bor) reduction(^:bxor) reduction(&&:land) \
      reduction(||:lor)
  for (int i = 0; i < N; i++) {
    sum += v[i];
    prod *= p[i];
    mx = v[i] > mx ? v[i] : mx;
    mn = v[i] < mn ? v[i] : mn;
    band &= v[i] | 0x10;
    bor |= v[i];
    bxor ^= v[i];
    land = land && v[i] != 100;
    lor = lor || v[i] == 2;
  }
  int rsum = 0, rprod = 1, rmx = INT_MIN, rmn = INT_MAX, rband = (int)~0, rbor = 0, rbxor = 0, rland = 1, rlor = 0;
  for (int i = 0; i < N; i++) {
    rsum += v[i];
    rprod *= p[i];
    rmx = v[i] > rmx ? v[i] : rmx;
    rmn = v[i] < rmn ? v[i] : rmn;
    rband &= v[i] | 0x10;
    rbor |= v[i];
    rbxor ^= v[i];
    rland = rland && v[i] != 100;
    rlor = rlor || v[i] == 2;
  }
  if (sum != rsum || prod != rprod || mx != rmx || mn != rmn || band != rband || bor != rbor ||
      bxor != rbxor || land != rland || lor != rlor) {
    printf("reduction-int: int: + %lld/%lld * %lld/%lld max %lld/%lld min %lld/%lld & %lld/%lld "
           "| %lld/%lld ^ %lld/%lld && %lld/%lld || %lld/%lld\n",
           (long long)sum, (long long)rsum, (long long)prod, (long long)rprod, (long long)mx,
           (long long)rmx, (long long)mn, (long long)rmn, (long long)band, (long long)rband,
           (long long)bor, (long long)rbor, (long long)bxor, (long long)rbxor, (long long)land,
           (long long)rland, (long long)lor, (long long)rlor);
    return 1;
  }
  return 0;
}

static int test_uint(void) {
  unsigned int v[N], p[N];
  for (int i = 0; i < N; i++) {
    v[i] = (unsigned int)(i % 7 + (i % 3) * 40);
    p[i] = (unsigned int)(i % 23 == 0 ? 2 : 1);
  }
  unsigned int sum = 0, prod = 1, mx = 0, mn = UINT_MAX, band = (unsigned int)~0, bor = 0, bxor = 0, land = 1, lor = 0;
  #pragma acc parallel loop copyin(v, p) reduction(+:sum) reduction(*:prod) reduction(max:mx) \
      reduction(min:mn) reduction(&:band) reduction(|:bor) reduction(^:bxor) reduction(&&:land) \
      reduction(||:lor)
  for (int i = 0; i < N; i++) {
    sum += v[i];
    prod *= p[i];
    mx = v[i] > mx ? v[i] : mx;
    mn = v[i] < mn ? v[i] : mn;
    band &= v[i] | 0x10;
    bor |= v[i];
    bxor ^= v[i];
    land = land && v[i] != 100;
    lor = lor || v[i] == 2;
  }
  unsigned int rsum = 0, rprod = 1, rmx = 0, rmn = UINT_MAX, rband = (unsigned int)~0, rbor = 0, rbxor = 0, rland = 1, rlor = 0;
  for (int i = 0; i < N; i++) {
    rsum += v[i];
    rprod *= p[i];
    rmx = v[i] > rmx ? v[i] : rmx;
    rmn = v[i] < rmn ? v[i] : rmn;
    rband &= v[i] | 0x10;
    rbor |= v[i];
    rbxor ^= v[i];
    rland = rland && v[i] != 100;
    rlor = rlor || v[i] == 2;
  }
  if (sum != rsum || prod != rprod || mx != rmx || mn != rmn || band != rband || bor != rbor ||
      bxor != rbxor || land != rland || lor != rlor) {
    printf("reduction-int: unsigned int: + %lld/%lld * %lld/%lld max %lld/%lld min %lld/%lld & %lld/%lld "
           "| %lld/%lld ^ %lld/%lld && %lld/%lld || %lld/%lld\n",
           (long long)sum, (long long)rsum, (long long)prod, (long long)rprod, (long long)mx,
           (long long)rmx, (long long)mn, (long long)rmn, (long long)band, (long long)rband,
           (long long)bor, (long long)rbor, (long long)bxor, (long long)rbxor, (long long)land,
           (long long)rland, (long long)lor, (long long)rlor);
    return 1;
  }
  return 0;
}

static int test_long(void) {
  long v[N], p[N];
  for (int i = 0; i < N; i++) {
    v[i] = (long)(i % 7 - 3);
    p[i] = (long)(i % 23 == 0 ? -2 : 1);
  }
  long sum = 0, prod = 1, mx = LONG_MIN, mn = LONG_MAX, band = (long)~0, bor = 0, bxor = 0, land = 1, lor = 0;
  #pragma acc parallel loop copyin(v, p) reduction(+:sum) reduction(*:prod) reduction(max:mx) \
      reduction(min:mn) reduction(&:band) reduction(|:bor) reduction(^:bxor) reduction(&&:land) \
      reduction(||:lor)
  for (int i = 0; i < N; i++) {
    sum += v[i];
    prod *= p[i];
    mx = v[i] > mx ? v[i] : mx;
    mn = v[i] < mn ? v[i] : mn;
    band &= v[i] | 0x10;
    bor |= v[i];
    bxor ^= v[i];
    land = land && v[i] != 100;
    lor = lor || v[i] == 2;
  }
  long rsum = 0, rprod = 1, rmx = LONG_MIN, rmn = LONG_MAX, rband = (long)~0, rbor = 0, rbxor = 0, rland = 1, rlor = 0;
  for (int i = 0; i < N; i++) {
    rsum += v[i];
    rprod *= p[i];
    rmx = v[i] > rmx ? v[i] : rmx;
    rmn = v[i] < rmn ? v[i] : rmn;
    rband &= v[i] | 0x10;
    rbor |= v[i];
    rbxor ^= v[i];
    rland = rland && v[i] != 100;
    rlor = rlor || v[i] == 2;
  }
  if (sum != rsum || prod != rprod || mx != rmx || mn != rmn || band != rband || bor != rbor ||
      bxor != rbxor || land != rland || lor != rlor) {
    printf("reduction-int: long: + %lld/%lld * %lld/%lld max %lld/%lld min %lld/%lld & %lld/%lld "
           "| %lld/%lld ^ %lld/%lld && %lld/%lld || %lld/%lld\n",
           (long long)sum, (long long)rsum, (long long)prod, (long long)rprod, (long long)mx,
           (long long)rmx, (long long)mn, (long long)rmn, (long long)band, (long long)rband,
           (long long)bor, (long long)rbor, (long long)bxor, (long long)rbxor, (long long)land,
           (long long)rland, (long long)lor, (long long)rlor);
    return 1;
  }
  return 0;
}

static int test_ulong(void) {
  unsigned long v[N], p[N];
  for (int i = 0; i < N; i++) {
    v[i] = (unsigned long)(i % 7 + (i % 3) * 40);
    p[i] = (unsigned long)(i % 23 == 0 ? 2 : 1);
  }
  unsigned long sum = 0, prod = 1, mx = 0, mn = ULONG_MAX, band = (unsigned long)~0, bor = 0, bxor = 0, land = 1, lor = 0;
  #pragma acc parallel loop copyin(v, p) reduction(+:sum) reduction(*:prod) reduction(max:mx) \
      reduction(min:mn) reduction(&:band) reduction(|:bor) reduction(^:bxor) reduction(&&:land) \
      reduction(||:lor)
  for (int i = 0; i < N; i++) {
    sum += v[i];
    prod *= p[i];
    mx = v[i] > mx ? v[i] : mx;
    mn = v[i] < mn ? v[i] : mn;
    band &= v[i] | 0x10;
    bor |= v[i];
    bxor ^= v[i];
    land = land && v[i] != 100;
    lor = lor || v[i] == 2;
  }
  unsigned long rsum = 0, rprod = 1, rmx = 0, rmn = ULONG_MAX, rband = (unsigned long)~0, rbor = 0, rbxor = 0, rland = 1, rlor = 0;
  for (int i = 0; i < N; i++) {
    rsum += v[i];
    rprod *= p[i];
    rmx = v[i] > rmx ? v[i] : rmx;
    rmn = v[i] < rmn ? v[i] : rmn;
    rband &= v[i] | 0x10;
    rbor |= v[i];
    rbxor ^= v[i];
    rland = rland && v[i] != 100;
    rlor = rlor || v[i] == 2;
  }
  if (sum != rsum || prod != rprod || mx != rmx || mn != rmn || band != rband || bor != rbor ||
      bxor != rbxor || land != rland || lor != rlor) {
    printf("reduction-int: unsigned long: + %lld/%lld * %lld/%lld max %lld/%lld min %lld/%lld & %lld/%lld "
           "| %lld/%lld ^ %lld/%lld && %lld/%lld || %lld/%lld\n",
           (long long)sum, (long long)rsum, (long long)prod, (long long)rprod, (long long)mx,
           (long long)rmx, (long long)mn, (long long)rmn, (long long)band, (long long)rband,
           (long long)bor, (long long)rbor, (long long)bxor, (long long)rbxor, (long long)land,
           (long long)rland, (long long)lor, (long long)rlor);
    return 1;
  }
  return 0;
}

static int test_llong(void) {
  long long v[N], p[N];
  for (int i = 0; i < N; i++) {
    v[i] = (long long)(i % 7 - 3);
    p[i] = (long long)(i % 23 == 0 ? -2 : 1);
  }
  long long sum = 0, prod = 1, mx = LLONG_MIN, mn = LLONG_MAX, band = (long long)~0, bor = 0, bxor = 0, land = 1, lor = 0;
  #pragma acc parallel loop copyin(v, p) reduction(+:sum) reduction(*:prod) reduction(max:mx) \
      reduction(min:mn) reduction(&:band) reduction(|:bor) reduction(^:bxor) reduction(&&:land) \
      reduction(||:lor)
  for (int i = 0; i < N; i++) {
    sum += v[i];
    prod *= p[i];
    mx = v[i] > mx ? v[i] : mx;
    mn = v[i] < mn ? v[i] : mn;
    band &= v[i] | 0x10;
    bor |= v[i];
    bxor ^= v[i];
    land = land && v[i] != 100;
    lor = lor || v[i] == 2;
  }
  long long rsum = 0, rprod = 1, rmx = LLONG_MIN, rmn = LLONG_MAX, rband = (long long)~0, rbor = 0, rbxor = 0, rland = 1, rlor = 0;
  for (int i = 0; i < N; i++) {
    rsum += v[i];
    rprod *= p[i];
    rmx = v[i] > rmx ? v[i] : rmx;
    rmn = v[i] < rmn ? v[i] : rmn;
    rband &= v[i] | 0x10;
    rbor |= v[i];
    rbxor ^= v[i];
    rland = rland && v[i] != 100;
    rlor = rlor || v[i] == 2;
  }
  if (sum != rsum || prod != rprod || mx != rmx || mn != rmn || band != rband || bor != rbor ||
      bxor != rbxor || land != rland || lor != rlor) {
    printf("reduction-int: long long: + %lld/%lld * %lld/%lld max %lld/%lld min %lld/%lld & %lld/%lld "
           "| %lld/%lld ^ %lld/%lld && %lld/%lld || %lld/%lld\n",
           (long long)sum, (long long)rsum, (long long)prod, (long long)rprod, (long long)mx,
           (long long)rmx, (long long)mn, (long long)rmn, (long long)band, (long long)rband,
           (long long)bor, (long long)rbor, (long long)bxor, (long long)rbxor, (long long)land,
           (long long)rland, (long long)lor, (long long)rlor);
    return 1;
  }
  return 0;
}

static int test_ullong(void) {
  unsigned long long v[N], p[N];
  for (int i = 0; i < N; i++) {
    v[i] = (unsigned long long)(i % 7 + (i % 3) * 40);
    p[i] = (unsigned long long)(i % 23 == 0 ? 2 : 1);
  }
  unsigned long long sum = 0, prod = 1, mx = 0, mn = ULLONG_MAX, band = (unsigned long long)~0, bor = 0, bxor = 0, land = 1, lor = 0;
  #pragma acc parallel loop copyin(v, p) reduction(+:sum) reduction(*:prod) reduction(max:mx) \
      reduction(min:mn) reduction(&:band) reduction(|:bor) reduction(^:bxor) reduction(&&:land) \
      reduction(||:lor)
  for (int i = 0; i < N; i++) {
    sum += v[i];
    prod *= p[i];
    mx = v[i] > mx ? v[i] : mx;
    mn = v[i] < mn ? v[i] : mn;
    band &= v[i] | 0x10;
    bor |= v[i];
    bxor ^= v[i];
    land = land && v[i] != 100;
    lor = lor || v[i] == 2;
  }
  unsigned long long rsum = 0, rprod = 1, rmx = 0, rmn = ULLONG_MAX, rband = (unsigned long long)~0, rbor = 0, rbxor = 0, rland = 1, rlor = 0;
  for (int i = 0; i < N; i++) {
    rsum += v[i];
    rprod *= p[i];
    rmx = v[i] > rmx ? v[i] : rmx;
    rmn = v[i] < rmn ? v[i] : rmn;
    rband &= v[i] | 0x10;
    rbor |= v[i];
    rbxor ^= v[i];
    rland = rland && v[i] != 100;
    rlor = rlor || v[i] == 2;
  }
  if (sum != rsum || prod != rprod || mx != rmx || mn != rmn || band != rband || bor != rbor ||
      bxor != rbxor || land != rland || lor != rlor) {
    printf("reduction-int: unsigned long long: + %lld/%lld * %lld/%lld max %lld/%lld min %lld/%lld & %lld/%lld "
           "| %lld/%lld ^ %lld/%lld && %lld/%lld || %lld/%lld\n",
           (long long)sum, (long long)rsum, (long long)prod, (long long)rprod, (long long)mx,
           (long long)rmx, (long long)mn, (long long)rmn, (long long)band, (long long)rband,
           (long long)bor, (long long)rbor, (long long)bxor, (long long)rbxor, (long long)land,
           (long long)rland, (long long)lor, (long long)rlor);
    return 1;
  }
  return 0;
}

int main(void) {
  int bad = 0;
  bad |= test_char();
  bad |= test_schar();
  bad |= test_uchar();
  bad |= test_short();
  bad |= test_ushort();
  bad |= test_int();
  bad |= test_uint();
  bad |= test_long();
  bad |= test_ulong();
  bad |= test_llong();
  bad |= test_ullong();
  if (bad) return 1;
  printf("reduction-int: ok\n");
  return 0;
}
