/* Loops whose control variable is a pointer (OpenACC 3.3 2.9 allows C's pointers): declared
 * before the loop and in it, stepping up and down by more than one, a gang loop and a vector
 * loop inside one; the iterations are counted in elements (they were counted in bytes, and a
 * partitioned `p++` loop wrote eight times past the array). */
#include <stdio.h>
#define N 640
int main(void) {
  static double b[N], c[N], m[16][N];
  double *p;
  int bad = 0;
  for (int i = 0; i < N; i++) {
    b[i] = 0;
    c[i] = i;
  }
#pragma acc parallel loop copy(b)
  for (p = b; p < b + N; p++)
    *p = 1.0;
#pragma acc parallel loop copy(b) copyin(c)
  for (double *q = b + N - 1; q >= b; q -= 2)
    *q += c[q - b];
#pragma acc parallel loop gang copyout(m)
  for (int r = 0; r < 16; r++) {
#pragma acc loop vector
    for (double *e = m[r]; e <= &m[r][N - 1]; e++)
      *e = r * 1000.0 + (e - m[r]);
  }
  for (int i = 0; i < N; i++) {
    double want = 1.0 + (i % 2 ? i : 0);
    if (b[i] != want) {
      printf("b[%d] = %g, want %g\n", i, b[i], want);
      bad = 1;
      break;
    }
  }
  for (int r = 0; r < 16 && !bad; r++)
    for (int i = 0; i < N; i++)
      if (m[r][i] != r * 1000.0 + i) {
        printf("m[%d][%d] = %g\n", r, i, m[r][i]);
        bad = 1;
        break;
      }
  if (!bad)
    printf("OK\n");
  return bad;
}
