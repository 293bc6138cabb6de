/* Parameters declared as arrays (C makes them pointers): a data clause that names one whole maps
 * the array its declarator gives (`copy(x)` with `double x[N]` is `copy(x[0:N])`), and a 2-D one
 * indexes as declared in the kernel. */
#include <stdio.h>
#define N 8
#define M 6
static void k1(double x[N]) {
  #pragma acc parallel loop copy(x)
  for (int i = 0; i < N; i++) x[i] += i;
}
static void k2(double A[N][M]) {
  #pragma acc parallel loop collapse(2) copy(A)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) A[i][j] = i * M + j;
}
static void k3(int n, double y[n]) {
  #pragma acc parallel loop copy(y[0:n])
  for (int i = 0; i < n; i++) y[i] = 2 * i;
}
int main(void) {
  double x[N] = {0}, A[N][M], y[5];
  k1(x); k2(A); k3(5, y);
  for (int i = 0; i < N; i++) if (x[i] != i) { printf("x[%d]=%g\n", i, x[i]); return 1; }
  for (int i = 0; i < N; i++) for (int j = 0; j < M; j++) if (A[i][j] != i * M + j) { printf("A wrong\n"); return 1; }
  for (int i = 0; i < 5; i++) if (y[i] != 2 * i) { printf("y wrong\n"); return 1; }
  printf("array-parameters: ok\n");
  return 0;
}
