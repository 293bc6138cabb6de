/* Variables declared through a typedef of a variably modified type (`typedef double
 * row_t[n];`, and a typedef of one): their kernels receive them as the types the typedefs stand
 * for (`row_t *a` is `double (*a)[n]`), with the extents as values, since a kernel cannot
 * repeat such a typedef before it has the extents, and CUDA C++ has no such types. */
#include <stdio.h>
#include <stdlib.h>

static int check(int n, int m) {
  typedef double row_t[n];
  typedef row_t plane_t[m];
  row_t *a = malloc(sizeof(row_t) * m);
  plane_t *c = malloc(sizeof(plane_t) * 2);
  row_t b[m];
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) a[i][j] = i + j, b[i][j] = 1;
#pragma acc parallel loop collapse(2) copy(a[0:m]) copyin(b) copyout(c[0:2])
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      a[i][j] = 2 * a[i][j] + b[i][j];
      c[0][i][j] = a[i][j];
      c[1][i][j] = -a[i][j];
    }
  int bad = 0;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      bad += a[i][j] != 2.0 * (i + j) + 1 || c[0][i][j] != a[i][j] || c[1][i][j] != -a[i][j];
  free(a);
  free(c);
  return bad;
}

int main(void) {
  int bad = check(37, 5) + check(3, 11);
  if (bad) {
    printf("vla-typedefs: %d wrong elements\n", bad);
    return 1;
  }
  printf("vla-typedefs: ok\n");
  return 0;
}
