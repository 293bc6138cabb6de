/* Sections of a jagged array (`double **a`, rows allocated one by one) whose rows' part does
 * not start at the row pointer: `copy(a[2:4][3:4])` maps and attaches each row's section, a
 * kernel writes through the device's row pointers, and `update self/device(a[i:1][j:1])`
 * moves one element of one row (an exercise's pattern; acc refused any rows' section not
 * starting at 0). */
#include <stdio.h>
#include <stdlib.h>
#define N 8
int main(void) {
  double **a = malloc(N * sizeof *a);
  for (int i = 0; i < N; i++) {
    a[i] = malloc(N * sizeof **a);
    for (int j = 0; j < N; j++)
      a[i][j] = 100 * i + j;
  }
  int bad = 0;
#pragma acc data copy(a[2:4][3:4])
  {
#pragma acc parallel loop present(a[2:4][3:4])
    for (int i = 2; i < 6; i++)
      for (int j = 3; j < 7; j++)
        a[i][j] = -a[i][j];
    int k = 4;
#pragma acc update self(a[k:1][k:1])
    if (a[k][k] != -(100 * k + k)) {
      printf("after update self: a[%d][%d] = %g\n", k, k, a[k][k]);
      bad = 1;
    }
    a[k][k] = 7;
#pragma acc update device(a[k:1][k:1])
#pragma acc parallel loop present(a[2:4][3:4])
    for (int i = 2; i < 6; i++)
      a[i][i + 1] *= 2;
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double want = 100 * i + j;
      if (i >= 2 && i < 6 && j >= 3 && j < 7)
        want = i == 4 && j == 4 ? 7 : -want;
      if (i >= 2 && i < 6 && j == i + 1)
        want *= 2;
      if (a[i][j] != want) {
        printf("a[%d][%d] = %g, want %g\n", i, j, a[i][j], want);
        bad = 1;
      }
    }
  for (int i = 0; i < N; i++)
    free(a[i]);
  free(a);
  if (!bad)
    printf("OK\n");
  return bad;
}
