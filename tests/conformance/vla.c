/* Variable-length arrays in data clauses: the kernel (and its CUDA version) reaches them through
 * a pointer to an array of unknown bound; an inner dimension of constant size stays. */
#include <stdio.h>
int main(void) {
  int n = 50, m = 4;
  double c[n], d[n][4];
  for (int i = 0; i < n; i++) c[i] = i;
  #pragma acc parallel loop copy(c, d)
  for (int i = 0; i < n; i++) { c[i] *= 2; for (int j = 0; j < 4; j++) d[i][j] = c[i] + j; }
  for (int i = 0; i < n; i++) if (c[i] != 2 * i || d[i][3] != 2 * i + 3) { printf("wrong %d\n", i); return 1; }
  printf("vla: ok\n"); (void)m;
  return 0;
}
