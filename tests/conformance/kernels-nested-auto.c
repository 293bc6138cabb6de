/* A kernels loop that the dependence test cannot parallelize (its pointers may alias), around
 * loops it could: an inner reduction whose result the outer iteration reads right after, and
 * an inner loop that uses that result. The inner loops must stay within the outer iteration:
 * made gang loops, each gang would run the outer loop redundantly and read a reduction that
 * only its own share went into. */
#include <stdio.h>

#define N 64
#define M 50

static int run(const int *a, int *b, int *c) {
  int temp = 0;
  #pragma acc kernels loop gang private(temp) copyin(a[0:N * M]) copy(b[0:N * M], c[0:N])
  for (int y = 0; y < N; y++) {
    temp = a[y * M];
    #pragma acc loop worker reduction(+:temp)
    for (int x = 1; x < M; x++)
      temp += a[y * M + x];
    c[y] = temp;
    #pragma acc loop worker
    for (int x = 0; x < M; x++)
      b[y * M + x] += c[y];
  }
  int failed = 0;
  for (int y = 0; y < N; y++) {
    int want = 0;
    for (int x = 0; x < M; x++) want += a[y * M + x];
    if (c[y] != want) {
      printf("c[%d] = %d, want %d\n", y, c[y], want);
      failed = 1;
    }
    for (int x = 0; x < M; x++)
      if (b[y * M + x] != x + want) {
        printf("b[%d][%d] = %d, want %d\n", y, x, b[y * M + x], x + want);
        return 1;
      }
  }
  return failed;
}

int main(void) {
  static int a[N * M], b[N * M], c[N];
  for (int i = 0; i < N * M; i++) {
    a[i] = (i * 7) % 11 - 3;
    b[i] = i % M;
  }
  if (run(a, b, c)) return 1;
  printf("kernels-nested-auto: ok\n");
  return 0;
}
