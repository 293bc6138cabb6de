/* Worker loops with vector loops inside, in the shapes a GPU spreads as worker →
 * threadIdx.y, vector → threadIdx.x: a row sum per worker iteration (a vector
 * reduction into a variable of the worker loop, then a store), a worker reduction
 * updated by worker-single code, an atomic there, a vector loop writing a row, a
 * private copy of a vector loop, a collapsed vector loop, and every launch shape
 * (default, vector_length below a warp, above a warp with and without workers,
 * not a power of two). One kernel reduces a vector loop straight into the worker
 * loop's variable, which stays on the threads of the whole block. */
#include <stdio.h>

#define N 23
#define M 41
#define K 67

static double a[N][M][K], rowsum[N][M], b[N][M][K], c[N][M][4][5];
static double gsum[N], gmax[N];
static long total_hits;

static int check(const char *what, int vl, int nw) {
  int ok = 1;
  long hits = 0;
  for (int i = 0; i < N; i++) {
    double g = 0.0, m = -1e300;
    for (int j = 0; j < M; j++) {
      double s = 0.0;
      for (int k = 0; k < K; k++) {
        s += a[i][j][k];
        double want = a[i][j][k] * 2.0 + j;
        if (b[i][j][k] != want) {
          if (ok) printf("rows %s (%d, %d): b[%d][%d][%d] = %g, want %g\n", what, vl, nw, i, j, k, b[i][j][k], want);
          ok = 0;
        }
      }
      if (rowsum[i][j] != s) {
        if (ok) printf("rows %s (%d, %d): rowsum[%d][%d] = %g, want %g\n", what, vl, nw, i, j, rowsum[i][j], s);
        ok = 0;
      }
      g += s;
      m = s > m ? s : m;
      if (s > 0) hits++;
      for (int p = 0; p < 4; p++)
        for (int q = 0; q < 5; q++)
          if (c[i][j][p][q] != i + j * 10 + p * 100 + q * 1000) {
            if (ok) printf("rows %s (%d, %d): c[%d][%d][%d][%d] = %g\n", what, vl, nw, i, j, p, q, c[i][j][p][q]);
            ok = 0;
          }
    }
    if (gsum[i] != g || gmax[i] != m) {
      if (ok) printf("rows %s (%d, %d): row %d: sum %g/%g max %g/%g\n", what, vl, nw, i, gsum[i], g, gmax[i], m);
      ok = 0;
    }
  }
  if (total_hits != hits) {
    if (ok) printf("rows %s (%d, %d): hits %ld/%ld\n", what, vl, nw, total_hits, hits);
    ok = 0;
  }
  return ok;
}

static void clear(void) {
  for (int i = 0; i < N; i++) {
    gsum[i] = gmax[i] = -1.0;
    for (int j = 0; j < M; j++) {
      rowsum[i][j] = -1.0;
      for (int k = 0; k < K; k++) b[i][j][k] = -1.0;
      for (int p = 0; p < 4; p++)
        for (int q = 0; q < 5; q++) c[i][j][p][q] = -1.0;
    }
  }
  total_hits = 0;
}

/* The kernel, under every launch shape: num_workers and vector_length are run-time values. */
static int run(int vl, int nw) {
  clear();
  #pragma acc parallel loop gang num_workers(nw) vector_length(vl) copyin(a) copyout(rowsum, b, c, gsum, gmax) copy(total_hits)
  for (int i = 0; i < N; i++) {
    double g = 0.0, m = -1e300;
    #pragma acc loop worker reduction(+:g) reduction(max:m)
    for (int j = 0; j < M; j++) {
      double s = 0.0, t;
      #pragma acc loop vector reduction(+:s) private(t)
      for (int k = 0; k < K; k++) {
        t = a[i][j][k];
        s += t;
      }
      rowsum[i][j] = s;
      g += s;
      if (s > m) m = s;
      if (s > 0) {
        #pragma acc atomic update
        total_hits++;
      }
      #pragma acc loop vector
      for (int k = 0; k < K; k++) b[i][j][k] = a[i][j][k] * 2.0 + j;
      #pragma acc loop vector collapse(2)
      for (int p = 0; p < 4; p++)
        for (int q = 0; q < 5; q++) c[i][j][p][q] = i + j * 10 + p * 100 + q * 1000;
    }
    gsum[i] = g;
    gmax[i] = m;
  }
  return check("run", vl, nw);
}

/* Default shape, and a vector loop reducing straight into the worker loop's variable. */
static int straight(void) {
  clear();
  #pragma acc parallel loop gang copyin(a) copyout(rowsum, b, c, gsum, gmax) copy(total_hits)
  for (int i = 0; i < N; i++) {
    double g = 0.0, m = -1e300;
    #pragma acc loop worker reduction(+:g)
    for (int j = 0; j < M; j++) {
      #pragma acc loop vector reduction(+:g)
      for (int k = 0; k < K; k++) g += a[i][j][k];
    }
    #pragma acc loop worker reduction(max:m)
    for (int j = 0; j < M; j++) {
      double s = 0.0;
      #pragma acc loop vector reduction(+:s)
      for (int k = 0; k < K; k++) {
        s += a[i][j][k];
        b[i][j][k] = a[i][j][k] * 2.0 + j;
      }
      rowsum[i][j] = s;
      m = s > m ? s : m;
      if (s > 0) {
        #pragma acc atomic update
        total_hits += 1;
      }
      for (int p = 0; p < 4; p++) {
        #pragma acc loop vector
        for (int q = 0; q < 5; q++) c[i][j][p][q] = i + j * 10 + p * 100 + q * 1000;
      }
    }
    gsum[i] = g;
    gmax[i] = m;
  }
  return check("straight", 0, 0);
}

int main(void) {
  /* Integer-valued data: every order of summation gives the same doubles. */
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      for (int k = 0; k < K; k++) a[i][j][k] = (i * 7 + j * 3 + k * 5) % 13 - 6;
  int ok = 1;
  const int shapes[][2] = {{32, 4}, {8, 4}, {16, 7}, {128, 2}, {64, 1}, {24, 3}, {1, 5}, {96, 1}};
  for (unsigned s = 0; s < sizeof shapes / sizeof shapes[0]; s++) ok &= run(shapes[s][0], shapes[s][1]);
  ok &= straight();
  if (!ok) return 1;
  printf("rows: ok\n");
  return 0;
}
