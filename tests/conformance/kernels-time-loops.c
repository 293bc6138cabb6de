/* A `kernels` region whose statement is a time loop (no directive, its iterations depend on
 * each other) around two `loop independent` nests, a stencil and the copy back: every gang
 * would run the time loop itself, and nothing makes one gang's part of the first nest visible
 * to the others before the second reads it. acc runs such nests on one gang (nvc runs the time
 * loop on the host); the answer must be the sequential one on every device. And the same with
 * an `independent` outer loop, whose gangs may share the inner gang loop (its iterations are
 * the program's promise). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#define N 200
#define T 20

static void stencil(int n, double (*restrict a)[N], double (*restrict b)[N], int steps) {
#pragma acc kernels copy(a[0:N][0:N]) create(b[0:N][0:N])
  for (int t = 0; t < steps; t++) {
#pragma acc loop independent
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        b[i][j] = 0.2 * (a[i][j] + a[i][j - 1] + a[i][j + 1] + a[i + 1][j] + a[i - 1][j]);
#pragma acc loop independent
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        a[i][j] = b[i][j];
  }
}

int main(void) {
  double(*a)[N] = malloc(sizeof(double[N][N])), (*b)[N] = malloc(sizeof(double[N][N]));
  double(*r)[N] = malloc(sizeof(double[N][N])), (*s)[N] = malloc(sizeof(double[N][N]));
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      r[i][j] = a[i][j] = (i + j) % 2 ? 1.0 : 0.0;
  stencil(N, a, b, T);
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        s[i][j] = 0.2 * (r[i][j] + r[i][j - 1] + r[i][j + 1] + r[i + 1][j] + r[i - 1][j]);
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        r[i][j] = s[i][j];
  }
  double err = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      err = fmax(err, fabs(a[i][j] - r[i][j]));

  static int d[8][16];
  int bad = 0;
#pragma acc kernels copy(d)
#pragma acc loop independent
  for (int k = 0; k < 8; k++) {
#pragma acc loop independent gang
    for (int i = 0; i < 16; i++)
      d[k][i] += k * i;
  }
  for (int k = 0; k < 8; k++)
    for (int i = 0; i < 16; i++)
      bad += d[k][i] != k * i;
  free(a);
  free(b);
  free(r);
  free(s);
  if (err > 0 || bad) {
    printf("stencil differs by %g; %d wrong elements\n", err, bad);
    return 1;
  }
  printf("OK\n");
  return 0;
}
