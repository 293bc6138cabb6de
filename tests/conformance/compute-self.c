/* The self clause on compute constructs (OpenACC 2.7+): self(cond) with a
 * true condition runs the region on the local (host) device, self with no
 * argument is self(true), a false condition runs it on the current device.
 * The answer is the same either way. */
#include <stdio.h>

#define N 300

int main(void) {
  static double a[N], b[N], c[N], d[N];
  int yes = 1, no = 0;
  for (int i = 0; i < N; i++) a[i] = i * 0.25;

  #pragma acc parallel loop self(yes) copyin(a) copyout(b)
  for (int i = 0; i < N; i++)
    b[i] = a[i] * 4.0;

  #pragma acc parallel self(no) copyin(a) copyout(c)
  {
    #pragma acc loop
    for (int i = 0; i < N; i++)
      c[i] = a[i] + 1.0;
  }

  #pragma acc kernels self copyin(a) copyout(d)
  {
    for (int i = 0; i < N; i++)
      d[i] = a[i] - 1.0;
  }

  double s = 0.0;
  #pragma acc serial self(N < 10) copyin(a) copy(s)
  {
    for (int i = 0; i < N; i++)
      s += a[i];
  }

  double rs = 0.0;
  for (int i = 0; i < N; i++) {
    if (b[i] != a[i] * 4.0 || c[i] != a[i] + 1.0 || d[i] != a[i] - 1.0) {
      printf("compute-self: i=%d b=%g c=%g d=%g\n", i, b[i], c[i], d[i]);
      return 1;
    }
    rs += a[i];
  }
  if (s != rs) { printf("compute-self: s = %g, expected %g\n", s, rs); return 1; }
  printf("compute-self: ok\n");
  return 0;
}
