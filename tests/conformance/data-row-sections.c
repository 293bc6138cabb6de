/* Sections of multi-dimensional arrays that are contiguous though not their first dimension
 * alone is partial: leading dimensions of length 1 pick a row (`a[i:1][3:2]`, `c[1:1][2:1][4:3]`,
 * OpenACC 3.3 2.7.1), whole later rows follow a partial one (`a[1:2][0:C]`). */
#include <stdio.h>

enum { R = 4, C = 10, P = 3 };
static int a[R][C];
static double c[2][P][C];

int main(void) {
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) a[i][j] = -1;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < P; j++)
      for (int k = 0; k < C; k++) c[i][j][k] = i + j + k;
#pragma acc data copyin(a)
  {
#pragma acc parallel loop collapse(2) present(a)
    for (int i = 0; i < R; i++)
      for (int j = 0; j < C; j++) a[i][j] = i * 100 + j;
    for (int i = 0; i < R; i++) {
#pragma acc update self(a[i:1][3:2])
    }
#pragma acc update self(a[1:2][0:C])
  }
#pragma acc parallel loop copy(c[1:1][2:1][4:3])
  for (int k = 4; k < 7; k++) c[1][2][k] *= 10;
  int bad = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      /* Elements no update names keep the host's value where memory is separate. */
      int copied = (j == 3 || j == 4 || i == 1 || i == 2);
      bad += a[i][j] != i * 100 + j && (copied || a[i][j] != -1);
    }
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < P; j++)
      for (int k = 0; k < C; k++) {
        double want = i + j + k;
        if (i == 1 && j == 2 && k >= 4 && k < 7) want *= 10;
        bad += c[i][j][k] != want;
      }
  if (bad) {
    printf("data-row-sections: %d wrong\n", bad);
    return 1;
  }
  printf("data-row-sections: ok\n");
  return 0;
}
