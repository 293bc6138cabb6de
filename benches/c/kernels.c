/* Kernels timed for scripts/bench-host: stream triad, Jacobi 2-D (one loop partitioned, the
 * nest collapsed, and the `kernels` form with its convergence test), a 1-D stencil, dot
 * product, matrix multiply, a 3-D 7-point stencil over a collapsed nest, a tiled transpose
 * and a triangular symmetric rank-k update. Written once; the directive set is chosen at
 * build time so every variant runs the same loops: the OpenACC directives as written (acc
 * cc, gcc -fopenacc); the OpenMP variant is this file with each directive replaced by the
 * `omp:` comment at its end (sed in scripts/bench-host); serial ignores both. Each kernel
 * prints its best time of REPS runs and a value to check.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>


#define REPS 7

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void report(const char *name, double best, double check) {
  printf("%s %.6f %.6g\n", name, best, check);
}

static void triad(void) {
  long n = 1L << 24;
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
  for (long i = 0; i < n; i++) { b[i] = i; c[i] = 2.0; a[i] = 0; }
  double s = 3.0, best = 1e30;
  for (int r = 0; r < REPS; r++) {
    double t = now();
    #pragma acc parallel loop copyin(b[0:n], c[0:n]) copyout(a[0:n]) /* omp: parallel for */
    for (long i = 0; i < n; i++)
      a[i] = b[i] + s * c[i];
    t = now() - t;
    if (t < best) best = t;
  }
  report("triad", best, a[n - 1]);
  free(a); free(b); free(c);
}

static void jacobi(void) {
  int n = 2048, m = 2048;
  double *u = calloc((size_t)n * m, sizeof *u), *v = calloc((size_t)n * m, sizeof *v);
  for (int j = 0; j < m; j++) u[j] = v[j] = 1.0;
  double best = 1e30;
  for (int r = 0; r < REPS; r++) {
    double t = now();
    #pragma acc parallel loop copyin(u[0:n*m]) copy(v[0:n*m]) /* omp: parallel for */
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        v[i * m + j] = 0.25 * (u[i * m + j - 1] + u[i * m + j + 1] + u[(i - 1) * m + j] + u[(i + 1) * m + j]);
    t = now() - t;
    if (t < best) best = t;
  }
  report("jacobi", best, v[m + 1]);
  free(u); free(v);
}

/* Jacobi 2-D with the nest collapsed into one partitioned iteration space. */
static void jacobi_collapse(void) {
  int n = 2048, m = 2048;
  double *u = calloc((size_t)n * m, sizeof *u), *v = calloc((size_t)n * m, sizeof *v);
  for (int j = 0; j < m; j++) u[j] = v[j] = 1.0;
  double best = 1e30;
  for (int r = 0; r < REPS; r++) {
    double t = now();
    #pragma acc parallel loop collapse(2) copyin(u[0:n*m]) copy(v[0:n*m]) /* omp: parallel for collapse(2) */
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < m - 1; j++)
        v[i * m + j] = 0.25 * (u[i * m + j - 1] + u[i * m + j + 1] + u[(i - 1) * m + j] + u[(i + 1) * m + j]);
    t = now() - t;
    if (t < best) best = t;
  }
  report("jacobi_collapse", best, v[m + 1]);
  free(u); free(v);
}

/* Jacobi 2-D as the tutorials write it for `kernels`: no clause on the loops, the largest
 * change reduced by `fmax` in the nest (a reduction no clause names). */
#define KN 2048
static double ku[KN][KN], kv[KN][KN];
static void jacobi_kernels(void) {
  for (int j = 0; j < KN; j++) ku[0][j] = kv[0][j] = 1.0;
  double best = 1e30, err = 0;
  for (int r = 0; r < REPS; r++) {
    double t = now();
    err = 0.0;
    #pragma acc kernels copyin(ku) copy(kv) /* omp: parallel for reduction(max:err) */
    for (int i = 1; i < KN - 1; i++)
      for (int j = 1; j < KN - 1; j++) {
        kv[i][j] = 0.25 * (ku[i][j - 1] + ku[i][j + 1] + ku[i - 1][j] + ku[i + 1][j]);
        err = fmax(err, fabs(kv[i][j] - ku[i][j]));
      }
    t = now() - t;
    if (t < best) best = t;
  }
  report("jacobi_kernels", best, err + kv[1][1]);
}

/* A 1-D 3-point stencil over an `int` index: the gang loop is the innermost loop, which the
 * host compiler vectorizes only when the index steps evenly in its own type. */
static void stencil1d(void) {
  int n = 1 << 22;
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  for (int i = 0; i < n; i++) { a[i] = i % 7; b[i] = 0; }
  double best = 1e30;
  for (int r = 0; r < REPS; r++) {
    double t = now();
    #pragma acc parallel loop copyin(a[0:n]) copy(b[0:n]) /* omp: parallel for */
    for (int i = 1; i < n - 1; i++)
      b[i] = 0.33333 * (a[i - 1] + a[i] + a[i + 1]);
    t = now() - t;
    if (t < best) best = t;
  }
  report("stencil1d", best, b[n / 2]);
  free(a); free(b);
}

/* A 7-point stencil on a 3-D grid, the whole nest collapsed. */
static void stencil3d(void) {
  int n = 192;
  size_t cells = (size_t)n * n * n;
  double *u = malloc(cells * sizeof *u), *v = calloc(cells, sizeof *v);
  for (size_t c = 0; c < cells; c++) u[c] = (double)(c % 11);
  double best = 1e30;
  for (int r = 0; r < REPS; r++) {
    double t = now();
    #pragma acc parallel loop collapse(3) copyin(u[0:cells]) copy(v[0:cells]) /* omp: parallel for collapse(3) */
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        for (int k = 1; k < n - 1; k++) {
          size_t c = ((size_t)i * n + j) * n + k;
          v[c] = (u[c - 1] + u[c + 1] + u[c - n] + u[c + n] + u[c - (size_t)n * n] +
                  u[c + (size_t)n * n] - 6.0 * u[c]) / 6.0;
        }
    t = now() - t;
    if (t < best) best = t;
  }
  report("stencil3d", best, v[((size_t)(n / 2) * n + n / 2) * n + n / 2]);
  free(u); free(v);
}

/* A transpose, whose reads or writes stride by a row whatever the loop order: tiles keep
 * both within cache. */
static void transpose(void) {
  int n = 4096;
  double *a = malloc((size_t)n * n * sizeof *a), *b = malloc((size_t)n * n * sizeof *b);
  for (size_t k = 0; k < (size_t)n * n; k++) a[k] = (double)(k % 1000);
  double best = 1e30;
  for (int r = 0; r < REPS; r++) {
    double t = now();
    #pragma acc parallel loop tile(32, 32) copyin(a[0:n*n]) copyout(b[0:n*n]) /* omp: parallel for collapse(2) */
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        b[(size_t)j * n + i] = a[(size_t)i * n + j];
    t = now() - t;
    if (t < best) best = t;
  }
  report("transpose", best, b[(size_t)n * n - 2]);
  free(a); free(b);
}

static void dot(void) {
  long n = 1L << 24;
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  for (long i = 0; i < n; i++) { x[i] = 1.0 / (i + 1); y[i] = i % 3; }
  double best = 1e30, sum = 0;
  for (int r = 0; r < REPS; r++) {
    double t = now();
    sum = 0;
    #pragma acc parallel loop copyin(x[0:n], y[0:n]) reduction(+:sum) /* omp: parallel for reduction(+:sum) */
    for (long i = 0; i < n; i++)
      sum += x[i] * y[i];
    t = now() - t;
    if (t < best) best = t;
  }
  report("dot", best, sum);
  free(x); free(y);
}

static void matmul(void) {
  int n = 768;
  double *a = malloc((size_t)n * n * sizeof *a), *b = malloc((size_t)n * n * sizeof *b),
         *c = malloc((size_t)n * n * sizeof *c);
  for (int i = 0; i < n * n; i++) { a[i] = (i % 7) * 0.5; b[i] = (i % 5) * 0.25; c[i] = 0; }
  double best = 1e30;
  for (int r = 0; r < REPS; r++) {
    double t = now();
    #pragma acc parallel loop copyin(a[0:n*n], b[0:n*n]) copy(c[0:n*n]) /* omp: parallel for */
    for (int i = 0; i < n; i++)
      for (int k = 0; k < n; k++) {
        double aik = a[i * n + k];
        for (int j = 0; j < n; j++)
          c[i * n + j] += aik * b[k * n + j];
      }
    t = now() - t;
    if (t < best) best = t;
  }
  report("matmul", best, c[n * n - 1]);
  free(a); free(b); free(c);
}

/* A symmetric rank-k update (the lower triangle of A A^T): row i does i + 1 dot products, so
 * equal contiguous chunks would leave the last core most of the work. OpenMP's peer is what
 * an OpenMP programmer writes for a triangle: a dynamic schedule. */
static void syrk(void) {
  int n = 1536, m = 128;
  double *a = malloc((size_t)n * m * sizeof *a), *c = malloc((size_t)n * n * sizeof *c);
  for (size_t k = 0; k < (size_t)n * m; k++) a[k] = (double)(k % 11) * 0.125;
  for (size_t k = 0; k < (size_t)n * n; k++) c[k] = 0;
  double best = 1e30;
  for (int r = 0; r < REPS; r++) {
    double t = now();
    #pragma acc parallel loop copyin(a[0:n*m]) copy(c[0:n*n]) /* omp: parallel for schedule(dynamic, 4) */
    for (int i = 0; i < n; i++)
      for (int j = 0; j <= i; j++) {
        double s = 0;
        for (int k = 0; k < m; k++) s += a[(size_t)i * m + k] * a[(size_t)j * m + k];
        c[(size_t)i * n + j] = s;
      }
    t = now() - t;
    if (t < best) best = t;
  }
  report("syrk", best, c[(size_t)n * n - 2] + c[(size_t)(n / 2) * n + n / 3]);
  free(a); free(c);
}

int main(void) {
  triad();
  jacobi();
  jacobi_collapse();
  jacobi_kernels();
  stencil1d();
  dot();
  matmul();
  stencil3d();
  transpose();
  syrk();
  return 0;
}
