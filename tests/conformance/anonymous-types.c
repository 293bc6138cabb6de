/* Variables whose type is a struct or union without a tag, declared with the variable
 * (`struct { double x, y; } pts[N];`): every spelling of such a type is a type of its own, so
 * the kernels must reach the variables without spelling the type twice (C warns about the
 * mismatch, C++ refuses a type defined in a cast). */
#include <stdio.h>

#define N 64

int main(void) {
  struct { double x, y; } pts[N];
  static struct { int count; double sum; } stats;
  union { double d; long long bits; } cell = {0};
  for (int i = 0; i < N; i++) pts[i].x = i, pts[i].y = 0;

  #pragma acc parallel loop copy(pts)
  for (int i = 0; i < N; i++) pts[i].y = 2 * pts[i].x;

  #pragma acc serial copy(stats, cell) copyin(pts)
  {
    for (int i = 0; i < N; i++) {
      stats.count++;
      stats.sum += pts[i].y;
    }
    cell.d = stats.sum;
  }

  int bad = stats.count != N || stats.sum != N * (N - 1) || cell.d != stats.sum;
  for (int i = 0; i < N; i++) bad += pts[i].y != 2.0 * i;
  if (bad) {
    printf("anonymous-types: %d wrong (count %d, sum %g)\n", bad, stats.count, stats.sum);
    return 1;
  }
  printf("anonymous-types: ok\n");
  return 0;
}
