/* declare at file scope: create (an array and a scalar, kept in step with
 * update), copyin (a const table with a static initializer, on the device
 * from program start), device_resident (an array that lives on the device
 * and is only touched by device code), all referenced from routines and
 * directly from compute constructs without data clauses. */
#include <stdio.h>

#define N 128

double gbuf[N];
#pragma acc declare create(gbuf)
int gscale;
#pragma acc declare create(gscale)
static const int gtab[4] = {2, 3, 5, 7};
#pragma acc declare copyin(gtab)
static float gres[N];
#pragma acc declare device_resident(gres)

#pragma acc routine seq
static double term(int i) {
  return gbuf[i] * gtab[i % 4] * gscale;
}

int main(void) {
  static double out[N];
  for (int i = 0; i < N; i++) gbuf[i] = i;
  gscale = 3;
  #pragma acc update device(gbuf, gscale)

  #pragma acc parallel loop
  for (int i = 0; i < N; i++)
    gres[i] = (float)term(i);

  #pragma acc parallel loop
  for (int i = 0; i < N; i++)
    gbuf[i] = gres[i] + 1.0;

  #pragma acc parallel loop copyout(out)
  for (int i = 0; i < N; i++)
    out[i] = gbuf[i] - gtab[0];

  #pragma acc update self(gbuf)
  for (int i = 0; i < N; i++) {
    double want = (double)(float)(i * gtab[i % 4] * 3.0) + 1.0;
    if (gbuf[i] != want || out[i] != want - 2.0) {
      printf("declare-global: i=%d gbuf=%g out=%g, expected %g\n", i, gbuf[i], out[i], want);
      return 1;
    }
  }
  printf("declare-global: ok\n");
  return 0;
}
