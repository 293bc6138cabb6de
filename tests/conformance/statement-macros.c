/* Macros used as whole statements with no `;` after them, as test and benchmark code writes
 * its loop bodies: a block (`ACCUMULATE`), a function-like macro expanding to a block
 * (`UPDATE(i)`), and statements ending in `;` followed by a statement of the file's own
 * (`CLEAR` then `c[i] = …`, which reads like a declaration of `c`). The variables their text
 * names are the construct's. */
#include <stdio.h>

#define ACCUMULATE { s += a[i] * scale; }
#define UPDATE(x) { b[x] = a[x] + shift; }
#define CLEAR c[i] = 0;
#define STEP t = a[j] * 0.5;

int main(void) {
  int n = 100, i;
  double a[100], b[100], c[100], d[100], s = 0, scale = 2.0, shift = 0.5;
  for (i = 0; i < n; i++) a[i] = i, c[i] = 1;
#pragma acc parallel loop reduction(+:s) copyin(a[0:n]) copyout(b[0:n]) copy(c[0:n])
  for (i = 0; i < n; i++) {
    ACCUMULATE
    UPDATE(i)
    CLEAR
    c[i] = c[i] + i;
  }
#pragma acc kernels copyin(a[0:n]) copyout(d[0:n])
  {
#pragma acc loop independent
    for (int j = 0; j < n; j++) {
      double t;
      STEP
      d[j] = t;
    }
  }
  int bad = s != 9900.0;
  for (i = 0; i < n; i++) bad += b[i] != i + 0.5 || c[i] != i || d[i] != i * 0.5;
  if (bad) {
    printf("statement-macros: %d wrong\n", bad);
    return 1;
  }
  printf("statement-macros: ok\n");
  return 0;
}
