/* The readonly modifier: copyin(readonly:) on data, enter data and compute
 * constructs, and cache(readonly:): the data is only read on the device. A
 * const-qualified array is fine in copyin. The last loop skips d[0] and
 * d[N-1], so d is `copy`: `copyout` would bring back uninitialized device
 * memory there on a discrete device. */
#include <stdio.h>

#define N 256

static const int lut[8] = {1, 2, 4, 8, 16, 32, 64, 128};

int main(void) {
  static double a[N], b[N], c[N], d[N];
  for (int i = 0; i < N; i++) a[i] = i * 0.25;

  #pragma acc data copyin(readonly: a) copyout(b)
  {
    #pragma acc parallel loop copyin(readonly: lut)
    for (int i = 0; i < N; i++)
      b[i] = a[i] * lut[i % 8];
  }

  #pragma acc enter data copyin(readonly: a)
  #pragma acc parallel loop present(a) copyout(c)
  for (int i = 0; i < N; i++)
    c[i] = a[i] + 1.0;
  #pragma acc exit data delete(a)

  #pragma acc parallel loop copyin(readonly: a) copy(d)
  for (int i = 1; i < N - 1; i++) {
    #pragma acc cache(readonly: a[i - 1:3])
    d[i] = a[i - 1] + a[i] + a[i + 1];
  }

  for (int i = 0; i < N; i++) {
    double rd = (i > 0 && i < N - 1) ? a[i - 1] + a[i] + a[i + 1] : d[i];
    if (b[i] != a[i] * lut[i % 8] || c[i] != a[i] + 1.0 || d[i] != rd) {
      printf("data-readonly: i=%d b=%g c=%g d=%g\n", i, b[i], c[i], d[i]);
      return 1;
    }
  }
  printf("data-readonly: ok\n");
  return 0;
}
