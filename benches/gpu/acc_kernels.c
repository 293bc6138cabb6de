/* The OpenACC side of scripts/gpu-check: stream triad, Jacobi 2-D sweep, dot product and an
 * empty launch (and one that increments a present variable), with the data resident on the
 * device (one data region around the repetitions), so the times are the kernels' own; and the
 * transfer time of `update device/self`. Prints `name best_seconds check` lines, like
 * gpu_baseline (the hand-written CUDA side) prints for the same loops. */
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define REPS 20

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void) {
  const long n = 1L << 25;
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
  for (long i = 0; i < n; i++) { a[i] = 0; b[i] = i % 1000; c[i] = 2.0; }
  const double s = 3.0;
  double best = 1e30;
  #pragma acc data copyin(b[0:n], c[0:n]) copyout(a[0:n])
  {
    for (int r = 0; r < REPS; r++) {
      double t = now();
      #pragma acc parallel loop present(a[0:n], b[0:n], c[0:n])
      for (long i = 0; i < n; i++)
        a[i] = b[i] + s * c[i];
      t = now() - t;
      if (t < best) best = t;
    }
  }
  printf("triad %.9f %.6g\n", best, a[n - 1]);

  /* Transfers of the program's (pageable) memory: update device and update self of n doubles,
   * which the runtime stages through pinned buffers unless ACC_CUDA_STAGING=off. */
  double h2d = 1e30, d2h = 1e30;
  #pragma acc data create(b[0:n])
  {
    for (int r = 0; r < 5; r++) {
      double t = now();
      #pragma acc update device(b[0:n])
      t = now() - t;
      if (t < h2d) h2d = t;
      t = now();
      #pragma acc update self(b[0:n])
      t = now() - t;
      if (t < d2h) d2h = t;
    }
  }
  printf("h2d %.9f %.6g\n", h2d, b[n - 1]);
  printf("d2h %.9f %.6g\n", d2h, b[n - 1]);

  double sum = 0;
  best = 1e30;
  #pragma acc data copyin(b[0:n], c[0:n])
  {
    for (int r = 0; r < REPS; r++) {
      double t = now();
      sum = 0;
      #pragma acc parallel loop present(b[0:n], c[0:n]) reduction(+:sum)
      for (long i = 0; i < n; i++)
        sum += b[i] * c[i];
      t = now() - t;
      if (t < best) best = t;
    }
  }
  printf("dot %.9f %.6g\n", best, sum);
  free(a); free(b); free(c);

  const int m = 4096;
  double *u = calloc((size_t)m * m, sizeof *u), *v = calloc((size_t)m * m, sizeof *v);
  for (int j = 0; j < m; j++) u[j] = v[j] = 1.0;
  best = 1e30;
  #pragma acc data copyin(u[0:m*m]) copy(v[0:m*m])
  {
    for (int r = 0; r < REPS; r++) {
      double t = now();
      #pragma acc parallel loop collapse(2) present(u[0:m*m], v[0:m*m])
      for (int i = 1; i < m - 1; i++)
        for (int j = 1; j < m - 1; j++)
          v[i * m + j] = 0.25 * (u[i * m + j - 1] + u[i * m + j + 1] + u[(i - 1) * m + j] + u[(i + 1) * m + j]);
      t = now() - t;
      if (t < best) best = t;
    }
  }
  printf("jacobi %.9f %.6g\n", best, v[m + 1]);
  free(u); free(v);

  /* An empty compute construct, as the raw side launches an empty kernel; then one that does
   * a little (reads and writes one present variable), which shows what a construct's data
   * costs on top. */
  const int launches = 2000;
  #pragma acc parallel num_gangs(1)
  { }
  double t = now();
  for (int r = 0; r < launches; r++) {
    #pragma acc parallel num_gangs(1)
    { }
  }
  t = (now() - t) / launches;
  printf("empty %.9f 0\n", t);

  int dummy = 0;
  #pragma acc data copy(dummy)
  {
    #pragma acc parallel num_gangs(1) present(dummy)
    dummy += 1;
    t = now();
    for (int r = 0; r < launches; r++) {
      #pragma acc parallel num_gangs(1) present(dummy)
      dummy += 1;
    }
    t = (now() - t) / launches;
  }
  printf("increment %.9f %d\n", t, dummy);
  return 0;
}
