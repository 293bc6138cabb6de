/* C's implicit conversions between integers and enumerated types in kernels and routines: an
 * int assigned to an enum variable, compound assignment and ++ on one, an enum parameter
 * given an int, typedef'd enums with and without negative enumerators. C++ (a GPU's kernels)
 * allows none of them without a cast; the answers must be C's. */
#include <stdio.h>

enum shape { CIRCLE, SQUARE, TRIANGLE };
typedef enum { F_NONE = 0, F_POS = 1, F_EVEN = 2 } flags_t;
typedef enum signed_kind { BELOW = -1, ZERO, ABOVE } signed_kind_t;

#pragma acc routine seq
static int sides(enum shape s) {
  switch (s) {
  case SQUARE:
    return 4;
  case TRIANGLE:
    return 3;
  default:
    return 0;
  }
}

int main(void) {
  enum { N = 300 };
  int codes[N], out[N], flagged[N], signs[N];
  for (int i = 0; i < N; i++) codes[i] = (i * 7) % 3;
#pragma acc parallel loop copyin(codes) copyout(out, flagged, signs)
  for (int i = 0; i < N; i++) {
    enum shape s = codes[i];
    enum shape next = s;
    next++;
    if (next > TRIANGLE) next = CIRCLE;
    flags_t f = F_NONE;
    if (i > 0) f |= F_POS;
    if (i % 2 == 0) f |= F_EVEN;
    signed_kind_t k = i % 3 - 1;
    out[i] = sides(s) * 10 + sides(codes[i]) + 100 * (int)next;
    flagged[i] = f;
    signs[i] = (k < ZERO) * 2 + (k == ABOVE) + (int)sizeof k;
  }
  int bad = 0;
  for (int i = 0; i < N; i++) {
    int s = (i * 7) % 3, next = (s + 1) % 3;
    int n = s == SQUARE ? 4 : s == TRIANGLE ? 3 : 0;
    int f = (i > 0 ? F_POS : 0) | (i % 2 == 0 ? F_EVEN : 0);
    int k = i % 3 - 1;
    bad += out[i] != n * 11 + 100 * next || flagged[i] != f ||
           signs[i] != (k < 0) * 2 + (k == 1) + (int)sizeof(signed_kind_t);
  }
  if (bad) {
    printf("enum-conversions: %d wrong (out[1] %d, flagged[2] %d, signs[0] %d)\n", bad, out[1],
           flagged[2], signs[0]);
    return 1;
  }
  printf("enum-conversions: ok\n");
  return 0;
}
