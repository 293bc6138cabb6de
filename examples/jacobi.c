/* Jacobi iteration on a 2-D grid inside a data region: the README's main
 * job. Self-checking: compares against the same iteration on the host. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifdef _OPENACC
#include <openacc.h>
#endif

#define N 512
#define M 512
#define ITERS 200

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void) {
  double *a = malloc(sizeof(double) * N * M);
  double *anew = malloc(sizeof(double) * N * M);
  double *ref = malloc(sizeof(double) * N * M);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      double v = (i == 0) ? 1.0 : 0.0;
      a[i * M + j] = anew[i * M + j] = ref[i * M + j] = v;
    }

  double t0 = now();
  double err = 0.0;
  #pragma acc data copy(a[0:N*M]) create(anew[0:N*M])
  {
    for (int it = 0; it < ITERS; it++) {
      err = 0.0;
      #pragma acc parallel loop gang reduction(max:err)
      for (int i = 1; i < N - 1; i++) {
        #pragma acc loop vector reduction(max:err)
        for (int j = 1; j < M - 1; j++) {
          anew[i * M + j] = 0.25 * (a[i * M + j + 1] + a[i * M + j - 1] +
                                    a[(i - 1) * M + j] + a[(i + 1) * M + j]);
          err = fmax(err, fabs(anew[i * M + j] - a[i * M + j]));
        }
      }
      #pragma acc parallel loop collapse(2)
      for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < M - 1; j++)
          a[i * M + j] = anew[i * M + j];
    }
  }
  double t1 = now();

  /* The same iteration on the host, for the check. */
  double *rnew = malloc(sizeof(double) * N * M);
  for (int i = 0; i < N * M; i++) rnew[i] = ref[i];
  double rerr = 0.0;
  for (int it = 0; it < ITERS; it++) {
    rerr = 0.0;
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < M - 1; j++) {
        rnew[i * M + j] = 0.25 * (ref[i * M + j + 1] + ref[i * M + j - 1] +
                                  ref[(i - 1) * M + j] + ref[(i + 1) * M + j]);
        rerr = fmax(rerr, fabs(rnew[i * M + j] - ref[i * M + j]));
      }
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < M - 1; j++) ref[i * M + j] = rnew[i * M + j];
  }
  double maxdiff = 0.0;
  for (int i = 0; i < N * M; i++) maxdiff = fmax(maxdiff, fabs(a[i] - ref[i]));

#ifdef _OPENACC
  const char *device = acc_get_property_string(0, acc_get_device_type(), acc_property_name);
#else
  const char *device = "host (OpenMP or serial build)";
#endif
  printf("device: %s\n", device ? device : "unknown");
  printf("jacobi %dx%d, %d iterations: error %.6e (reference %.6e), max difference %.3e\n",
         N, M, ITERS, err, rerr, maxdiff);
  printf("time: %.3f s\n", t1 - t0);
  int ok = maxdiff < 1e-12 && fabs(err - rerr) < 1e-12;
  printf("check: %s\n", ok ? "PASSED" : "FAILED");
  free(a); free(anew); free(ref); free(rnew);
  return ok ? 0 : 1;
}
