/* Declarations and expressions written through macros, in the style of benchmark suites: a
 * parameter declared through a function-like macro (`DATA_TYPE ARRAY_2D(A, N, M, n, m)`), a
 * type that is a macro, loop bounds whose macros name parameters, and an index macro that
 * uses a variable its arguments do not name. The constructs see what the compiler sees. */
#include <stdio.h>

#define DATA_TYPE double
#define N 40
#define M 24
#define SELECT(x, y) x
#define PAD 0
#define ARRAY_2D(var, d1, d2, dd1, dd2) var[SELECT(d1, dd1) + PAD][SELECT(d2, dd2) + PAD]
#define ARRAY_1D(var, d1, dd1) var[SELECT(d1, dd1) + PAD]
#define BOUND(x, y) y
#define LOOP_N BOUND(N, n)
#define LOOP_M BOUND(M, m)
#define AT(i, j) ((i) * stride + (j))

static void kernel(int n, int m, int stride, DATA_TYPE scale, DATA_TYPE ARRAY_2D(A, N, M, n, m),
                   DATA_TYPE ARRAY_1D(s, N, n), DATA_TYPE *flat) {
  DATA_TYPE total = 0;
  #pragma acc parallel loop copy(A, s) copyout(flat[0:N * M]) reduction(+:total)
  for (int i = 0; i < LOOP_N; i++) {
    s[i] = 0;
    for (int j = 0; j < LOOP_M; j++) {
      A[i][j] = scale * (i + j);
      flat[AT(i, j)] = A[i][j];
      s[i] += A[i][j];
    }
    total += s[i];
  }
  s[0] = total;
}

int main(void) {
  static DATA_TYPE A[N][M], s[N], flat[N * M];
  kernel(N, M, M, 2.0, A, s, flat);
  DATA_TYPE total = 0;
  for (int i = 0; i < N; i++) {
    DATA_TYPE row = 0;
    for (int j = 0; j < M; j++) {
      if (A[i][j] != 2.0 * (i + j) || flat[i * M + j] != A[i][j]) {
        printf("A[%d][%d] = %g, flat %g\n", i, j, A[i][j], flat[i * M + j]);
        return 1;
      }
      row += A[i][j];
    }
    total += row;
    if (i > 0 && s[i] != row) {
      printf("s[%d] = %g, want %g\n", i, s[i], row);
      return 1;
    }
  }
  if (s[0] != total) {
    printf("total %g, want %g\n", s[0], total);
    return 1;
  }
  printf("macro-declarators: ok\n");
  return 0;
}
