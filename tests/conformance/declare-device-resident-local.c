/* declare device_resident in function scope: a local array that exists
 * only in device memory for the duration of the call, used as scratch by
 * the compute regions of a function called several times. */
#include <stdio.h>

#define N 64

static void smooth(const double *in, double *out, int n) {
  double scratch[N];
  #pragma acc declare device_resident(scratch)
  #pragma acc parallel loop copyin(in[0:n]) present(scratch)
  for (int i = 0; i < n; i++)
    scratch[i] = in[i] * 2.0;
  #pragma acc parallel loop present(scratch) copyout(out[0:n])
  for (int i = 0; i < n; i++)
    out[i] = scratch[i] + (i > 0 ? scratch[i - 1] : 0.0);
}

int main(void) {
  double in[N], out[N];
  for (int round = 0; round < 3; round++) {
    for (int i = 0; i < N; i++) in[i] = i + round;
    smooth(in, out, N);
    for (int i = 0; i < N; i++) {
      double want = 2.0 * in[i] + (i > 0 ? 2.0 * in[i - 1] : 0.0);
      if (out[i] != want) {
        printf("declare-device-resident-local: round %d out[%d] = %g, expected %g\n", round, i, out[i], want);
        return 1;
      }
    }
  }
  printf("declare-device-resident-local: ok\n");
  return 0;
}
