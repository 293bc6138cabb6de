/* Variable-length arrays in kernels, as C99 code writes them: array parameters whose inner
 * extent is another parameter (`double a[n][m]`), local arrays of run-time size, a pointer to
 * rows (`double (*c)[m]`), a three-dimensional array whose extents are a global, and an extent
 * the body never names (the kernel still needs it for the type), and a local array in `kernels`,
 * whose extents are then copies of the host's scalars. CUDA C++ has no such types: the GPU's
 * kernels index them through acc's __acc_vla. */
#include <stdio.h>
#include <stdlib.h>

long long g = 3;

static void scale(int n, int m, double a[n][m]) {
#pragma acc parallel loop collapse(2) copy(a[0:n][0:m])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      a[i][j] *= 2;
}

static void first_column(int n, int m, double a[n][m]) {
#pragma acc parallel loop copy(a[0:n][0:m])
  for (int i = 0; i < n; i++)
    a[i][0] = -1;
}

int main(void) {
  int n = 5, m = 7;
  double b[n][m];
  double (*c)[m] = malloc(sizeof(double) * n * m);
  double cube[g][g][g];
  int out[n][m];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      b[i][j] = i * m + j;
      c[i][j] = 1;
    }
#pragma acc parallel loop copy(b, c[0:n][0:m])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      b[i][j] += 1;
      c[i][j] += b[i][j];
    }
  scale(n, m, b);
  first_column(n, m, c);
#pragma acc parallel loop collapse(3) copyout(cube)
  for (int i = 0; i < g; i++)
    for (int j = 0; j < g; j++)
      for (int k = 0; k < g; k++)
        cube[i][j][k] = i * 100 + j * 10 + k;
#pragma acc kernels
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      out[i][j] = i + j;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      if (out[i][j] != i + j) {
        printf("out[%d][%d] = %d\n", i, j, out[i][j]);
        return 1;
      }
      if (b[i][j] != 2 * (i * m + j + 1)) {
        printf("b[%d][%d] = %g\n", i, j, b[i][j]);
        return 1;
      }
      if (c[i][j] != (j == 0 ? -1 : 1 + i * m + j + 1)) {
        printf("c[%d][%d] = %g\n", i, j, c[i][j]);
        return 1;
      }
    }
  for (int i = 0; i < g; i++)
    for (int j = 0; j < g; j++)
      for (int k = 0; k < g; k++)
        if (cube[i][j][k] != i * 100 + j * 10 + k) {
          printf("cube[%d][%d][%d] = %g\n", i, j, k, cube[i][j][k]);
          return 1;
        }
  free(c);
  puts("ok");
  return 0;
}
