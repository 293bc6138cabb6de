/* Arrays whose first extent their initializer decides (`int t[] = {…}`, `char s[] = "…"`,
   `double m[][2] = {{…}, …}`) used in kernels, `sizeof` included: the kernel has their complete
   types. */
#include <stdio.h>
int main(void) {
  int t[] = {3, 1, 4, 1, 5};
  char s[] = "openacc";
  double m[][2] = {{1, 2}, {3, 4}, {5, 6}};
  int out[12];
  double rows = 0;
  #pragma acc parallel loop copyin(t, s, m) copyout(out) reduction(+:rows)
  for (int i = 0; i < 12; i++) {
    out[i] = t[i % (int)(sizeof t / sizeof t[0])] + (int)sizeof s + s[i % 7];
    rows += (double)(sizeof m / sizeof m[0]) * m[i % 3][1];
  }
  for (int i = 0; i < 12; i++)
    if (out[i] != t[i % 5] + 8 + s[i % 7]) { printf("initializer-sized-arrays: out[%d] = %d\n", i, out[i]); return 1; }
  if (rows != 3.0 * 4 * (2 + 4 + 6)) { printf("initializer-sized-arrays: rows %g\n", rows); return 1; }
  printf("initializer-sized-arrays: ok\n");
  return 0;
}
