/* main.c — checks the kernels of vec.c against the answers worked out by
 * hand, prints what it found and exits with 0 when all is right. */
#include <stdio.h>
#include <stdlib.h>

#include "vec.h"

#ifdef _OPENACC
#include <openacc.h>
#endif

#define N 100000

int main(void) {
  float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
  double *u = malloc(N * sizeof *u), *v = malloc(N * sizeof *v);
  if (!x || !y || !u || !v) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  for (int i = 0; i < N; i++) {
    x[i] = (float)(i % 100);
    y[i] = 1.0f;
    u[i] = 1.0;
    v[i] = (double)i;
  }
#ifdef _OPENACC
  printf("OpenACC %d, %d device(s) of the default type\n", _OPENACC,
         acc_get_num_devices(acc_get_device_type()));
#else
  printf("built without OpenACC\n");
#endif
  int bad = 0;

  saxpy(N, 2.0f, x, y);
  for (int i = 0; i < N; i++) {
    if (y[i] != 2.0f * (float)(i % 100) + 1.0f) {
      printf("saxpy: y[%d] = %g, expected %g\n", i, y[i], 2.0 * (i % 100) + 1.0);
      bad = 1;
      break;
    }
  }
  if (!bad)
    printf("saxpy ok\n");

  double got = dot(N, u, v), want = (double)N * (N - 1) / 2;
  if (got != want) {
    printf("dot: %.17g, expected %.17g\n", got, want);
    bad = 1;
  } else {
    printf("dot ok: %.0f\n", got);
  }

  free(x);
  free(y);
  free(u);
  free(v);
  return bad;
}
