/* Rows reached through an array of pointers, mapped one at a time (`enter data copyin(m[0:nr])`
 * then `copyin(m[r][0:nc])` for each r): the device copy of each row pointer is attached to
 * the device copy of its row, so kernels that reach a row through `m[r]` work on the device's
 * data (OpenACC 3.3 2.7.2, 2.6.8); leaving detaches it again. An array of rows (`a[i][lo:n]`)
 * holds no pointers: nothing is attached there. */
#include <stdio.h>
#include <stdlib.h>

enum { NR = 6, NC = 40 };

static void scale_rows(double **m, int nr, int nc, double by) {
#pragma acc parallel loop present(m[0:nr])
  for (int r = 0; r < nr; r++)
    for (int k = 0; k < nc; k++) m[r][k] *= by;
}

int main(void) {
  double **m = malloc(NR * sizeof *m);
  double *fixed[NR];
  static double grid[NR][NC];
  for (int r = 0; r < NR; r++) {
    m[r] = malloc(NC * sizeof **m);
    fixed[r] = malloc(NC * sizeof **m);
    for (int k = 0; k < NC; k++) m[r][k] = fixed[r][k] = grid[r][k] = r * 100 + k;
  }
  /* Unstructured: the pointers first, then each row. */
#pragma acc enter data copyin(m[0:NR])
  for (int r = 0; r < NR; r++) {
#pragma acc enter data copyin(m[r][0:NC])
  }
  scale_rows(m, NR, NC, 2.0);
  for (int r = 0; r < NR; r++) {
#pragma acc exit data copyout(m[r][0:NC])
  }
#pragma acc exit data delete(m[0:NR])
  /* Structured, with an array of pointers: rows 1 and 2 only. */
#pragma acc data copyin(fixed)
  {
#pragma acc data copy(fixed[1][0:NC])
#pragma acc data copy(fixed[2][0:NC])
    {
#pragma acc parallel loop
      for (int k = 5; k < NC; k++) {
        fixed[1][k] += 0.5;
        fixed[2][k] += 0.25;
      }
    }
  }
  /* Rows of a two-dimensional array: sections of rows, no pointers between. */
#pragma acc data copy(grid)
  {
#pragma acc parallel loop
    for (int k = 0; k < NC; k++) grid[3][k] = -1;
#pragma acc update self(grid[3][10:5])
  }
  int bad = 0;
  for (int r = 0; r < NR; r++)
    for (int k = 0; k < NC; k++) {
      double v = r * 100 + k;
      bad += m[r][k] != 2 * v;
      bad += fixed[r][k] != v + (k >= 5 && r == 1 ? 0.5 : k >= 5 && r == 2 ? 0.25 : 0);
      bad += grid[r][k] != (r == 3 ? -1 : v);
    }
  for (int r = 0; r < NR; r++) {
    free(m[r]);
    free(fixed[r]);
  }
  free(m);
  if (bad) {
    printf("data-pointer-rows: %d wrong\n", bad);
    return 1;
  }
  printf("data-pointer-rows: ok\n");
  return 0;
}
