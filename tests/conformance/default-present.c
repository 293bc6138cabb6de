/* default(present): arrays used in the region without a data clause must
 * already be present (from an enclosing data construct or an enter data);
 * scalars keep their usual firstprivate default. */
#include <stdio.h>

#define N 256

static int a[N], b[N], c[N];

static void scale_c(int k) {
  #pragma acc parallel loop default(present)
  for (int i = 0; i < N; i++)
    c[i] *= k;
}

int main(void) {
  int k = 3;
  for (int i = 0; i < N; i++) { a[i] = i; c[i] = i % 5; }

  #pragma acc data copyin(a) copyout(b)
  {
    #pragma acc parallel default(present)
    {
      #pragma acc loop
      for (int i = 0; i < N; i++)
        b[i] = a[i] * k;
    }
    #pragma acc kernels default(present)
    {
      for (int i = 0; i < N; i++)
        b[i] += 1;
    }
  }

  #pragma acc enter data copyin(c)
  scale_c(k);
  long sum = 0;
  #pragma acc serial default(present) copy(sum)
  {
    for (int i = 0; i < N; i++)
      sum += c[i];
  }
  #pragma acc exit data copyout(c)

  long rsum = 0;
  for (int i = 0; i < N; i++) rsum += (i % 5) * k;
  if (sum != rsum) { printf("default-present: sum = %ld, expected %ld\n", sum, rsum); return 1; }
  for (int i = 0; i < N; i++) {
    if (b[i] != a[i] * k + 1) { printf("default-present: b[%d] = %d\n", i, b[i]); return 1; }
    if (c[i] != (i % 5) * k) { printf("default-present: c[%d] = %d\n", i, c[i]); return 1; }
  }
  printf("default-present: ok\n");
  return 0;
}
