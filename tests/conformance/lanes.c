/* Worker and vector loops inside gang loops, in the shapes a GPU spreads over
 * a block's threads: a matrix-vector product with a vector reduction, integer
 * and max reductions, vector-single code around the loops (stores, a gang
 * reduction's update, an atomic), a vector loop whose results the code after it
 * reads, a collapsed vector loop, a worker loop, and two vector loops in turn. */
#include <stdio.h>

#define N 37
#define M 301

static double a[N][M], x[M], y[N], z[N];
static long cnt[N], hist[4];
static int big[N], t[N][M], u[N][M];

int main(void) {
  int ok = 1;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      a[i][j] = (i * 7 + j * 3) % 11 - 5;
      t[i][j] = (i * 13 + j * 5) % 97;
    }
  for (int j = 0; j < M; j++) x[j] = (j % 5) + 0.5;

  double total = 0.0;
  long hits = 0;
  #pragma acc parallel loop gang copyin(a, x, t) copyout(y, z, cnt, big, u) copy(hist, hits) reduction(+:total)
  for (int i = 0; i < N; i++) {
    double s = 0.0;
    long c = 0;
    int m = -1000;
    #pragma acc loop vector reduction(+:s) reduction(+:c) reduction(max:m)
    for (int j = 0; j < M; j++) {
      s += a[i][j] * x[j];
      c += a[i][j] > 0;
      m = t[i][j] > m ? t[i][j] : m;
    }
    y[i] = s;
    cnt[i] = c;
    big[i] = m;
    total += s;
    #pragma acc atomic update
    hits += 1;
    if (i % 4 == 1) {
      #pragma acc atomic update
      hist[i % 4] += c;
    }
    /* A vector loop, then code reading what all of its lanes wrote. */
    #pragma acc loop vector
    for (int j = 0; j < M; j++) u[i][j] = t[i][j] * 2 + i;
    double w = 0.0;
    for (int j = 0; j < M; j += 50) w += u[i][j];
    z[i] = w;
  }

  static double g[N][8][16];
  #pragma acc parallel num_gangs(5) vector_length(32) copyout(g)
  {
    #pragma acc loop gang
    for (int i = 0; i < N; i++) {
      #pragma acc loop vector collapse(2)
      for (int p = 0; p < 8; p++)
        for (int q = 0; q < 16; q++) g[i][p][q] = i * 1000 + p * 16 + q;
    }
  }

  static double h[N][M];
  #pragma acc parallel loop gang num_workers(4) vector_length(32) copyin(a) copyout(h)
  for (int i = 0; i < N; i++) {
    #pragma acc loop worker
    for (int j = 0; j < M; j++) h[i][j] = a[i][j] * 3.0 + 1.0;
  }

  double y2[N];
  #pragma acc parallel loop gang copyin(a) copyout(y2)
  for (int i = 0; i < N; i++) {
    double lo = 1e300, hi = -1e300;
    #pragma acc loop vector reduction(min:lo)
    for (int j = 0; j < M; j++) lo = a[i][j] < lo ? a[i][j] : lo;
    #pragma acc loop vector reduction(max:hi)
    for (int j = 0; j < M; j++) hi = a[i][j] > hi ? a[i][j] : hi;
    y2[i] = hi - lo;
  }

  /* A `continue` in a statement that stores: the lanes cannot leave one thread behind, so
   * this loop keeps one thread a gang iteration. */
  double skip[N];
  #pragma acc parallel loop gang copyin(a) copyout(skip)
  for (int i = 0; i < N; i++) {
    if (i % 3 == 0) {
      skip[i] = -1.0;
      continue;
    }
    double s = 0.0;
    #pragma acc loop vector reduction(+:s)
    for (int j = 0; j < M; j++) s += a[i][j];
    skip[i] = s;
  }
  for (int i = 0; i < N; i++) {
    double s = 0.0;
    for (int j = 0; j < M; j++) s += a[i][j];
    if (skip[i] != (i % 3 == 0 ? -1.0 : s)) {
      printf("lanes: skip[%d] = %g\n", i, skip[i]);
      ok = 0;
    }
  }

  double want_total = 0.0;
  long want_hist = 0;
  for (int i = 0; i < N; i++) {
    double s = 0.0, lo = 1e300, hi = -1e300, w = 0.0;
    long c = 0;
    int m = -1000;
    for (int j = 0; j < M; j++) {
      s += a[i][j] * x[j];
      c += a[i][j] > 0;
      m = t[i][j] > m ? t[i][j] : m;
      lo = a[i][j] < lo ? a[i][j] : lo;
      hi = a[i][j] > hi ? a[i][j] : hi;
      if (u[i][j] != t[i][j] * 2 + i) {
        printf("lanes: u[%d][%d] = %d\n", i, j, u[i][j]);
        ok = 0;
      }
      if (h[i][j] != a[i][j] * 3.0 + 1.0) {
        printf("lanes: h[%d][%d] = %g\n", i, j, h[i][j]);
        ok = 0;
      }
    }
    for (int j = 0; j < M; j += 50) w += t[i][j] * 2 + i;
    want_total += s;
    if (i % 4 == 1) want_hist += c;
    /* Integer-valued data: every order of summation gives the same doubles. */
    if (y[i] != s || cnt[i] != c || big[i] != m || z[i] != w || y2[i] != hi - lo) {
      printf("lanes: row %d: y %g/%g cnt %ld/%ld big %d/%d z %g/%g y2 %g/%g\n", i, y[i], s,
             cnt[i], c, big[i], m, z[i], w, y2[i], hi - lo);
      ok = 0;
    }
    for (int p = 0; p < 8; p++)
      for (int q = 0; q < 16; q++)
        if (g[i][p][q] != i * 1000 + p * 16 + q) {
          printf("lanes: g[%d][%d][%d] = %g\n", i, p, q, g[i][p][q]);
          ok = 0;
        }
  }
  if (total != want_total || hits != N || hist[1] != want_hist) {
    printf("lanes: total %g/%g hits %ld/%d hist %ld/%ld\n", total, want_total, hits, N, hist[1],
           want_hist);
    ok = 0;
  }
  if (!ok) return 1;
  printf("lanes: ok\n");
  return 0;
}
