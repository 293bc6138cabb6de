/* A gang's private array is the gang's, shared by its workers and vector lanes (OpenACC 3.3
 * 2.9.10), as is an array declared in the gang's code outside its vector loops (2.6.1): one
 * vector loop fills it, the next reads elements other lanes wrote (a row reversed, a stencil
 * over the scratch row). The same one level down for a worker's array. On a GPU acc had given
 * each thread a copy of its own, which held only what its lanes wrote (nvc-style scratch rows;
 * wrong on the GPU only). */
#include <stdio.h>
#define N 48
#define M 64
#define W 4
int main(void) {
  double a[N][M], out[N], rows[N][W];
  double t[M];
  int i, j, bad = 0;
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++)
      a[i][j] = i + 0.5 * j;
  /* `private(t)` on the gang loop: the second vector loop reads the row reversed. */
#pragma acc parallel loop gang private(t) copyin(a) copyout(out)
  for (i = 0; i < N; i++) {
#pragma acc loop vector
    for (j = 0; j < M; j++)
      t[j] = a[i][j] * 2;
    double s = 0;
#pragma acc loop vector reduction(+ : s)
    for (j = 0; j < M; j++)
      s += t[M - 1 - j] * (j + 1);
    out[i] = s;
  }
  for (i = 0; i < N; i++) {
    double want = 0;
    for (j = 0; j < M; j++)
      want += a[i][M - 1 - j] * 2 * (j + 1);
    if (out[i] != want) {
      printf("gang private: out[%d] = %g, want %g\n", i, out[i], want);
      bad = 1;
    }
  }
  /* An array declared in the gang loop's body: a three-point stencil over it. */
#pragma acc parallel loop gang copyin(a) copyout(out)
  for (i = 0; i < N; i++) {
    double row[M];
#pragma acc loop vector
    for (j = 0; j < M; j++)
      row[j] = a[i][j];
    double s = 0;
#pragma acc loop vector reduction(+ : s)
    for (j = 1; j < M - 1; j++)
      s += row[j - 1] - 2 * row[j] + row[j + 1] + row[j];
    out[i] = s;
  }
  for (i = 0; i < N; i++) {
    double want = 0;
    for (j = 1; j < M - 1; j++)
      want += a[i][j - 1] - 2 * a[i][j] + a[i][j + 1] + a[i][j];
    if (out[i] != want) {
      printf("gang local: out[%d] = %g, want %g\n", i, out[i], want);
      bad = 1;
    }
  }
  /* A worker's array, shared by its vector lanes. */
#pragma acc parallel loop gang num_workers(W) copyin(a) copyout(rows)
  for (i = 0; i < N; i++) {
#pragma acc loop worker
    for (int w = 0; w < W; w++) {
      double part[M];
#pragma acc loop vector
      for (j = 0; j < M; j++)
        part[j] = a[i][j] + w;
      double s = 0;
#pragma acc loop vector reduction(+ : s)
      for (j = 0; j < M; j++)
        s += part[(j + 1) % M] * j;
      rows[i][w] = s;
    }
  }
  for (i = 0; i < N; i++)
    for (int w = 0; w < W; w++) {
      double want = 0;
      for (j = 0; j < M; j++)
        want += (a[i][(j + 1) % M] + w) * j;
      if (rows[i][w] != want) {
        printf("worker local: rows[%d][%d] = %g, want %g\n", i, w, rows[i][w], want);
        bad = 1;
      }
    }
  if (!bad)
    printf("gang-private-arrays: ok\n");
  return bad;
}
