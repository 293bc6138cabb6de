/* A `kernels` region whose statements set a reduction's variable before its loop and read it
   after (`s = 0;`, `loop reduction(+:s)`, `t = 2 * s;`): the region runs in order, so each
   statement sees what the one before left, with the variable in an explicit `copyout` (whose
   device copy starts undefined) or only in the reduction, or declared in the region's block
   (which keeps the region one kernel: the loop's result still reaches the code after it). */
#include <stdio.h>
#define N 1000
int main(void) {
  double a[N], s = -7, t = 0, m = -1, out = 42;
  for (int i = 0; i < N; i++) a[i] = 1.0 + (i % 3);
  #pragma acc kernels copyin(a)
  {
    s = 0.0;
    #pragma acc loop reduction(+:s)
    for (int i = 0; i < N; i++) s += a[i];
    t = s * 2;
    m = 1.0;
    #pragma acc loop reduction(max:m)
    for (int i = 0; i < N; i++) m = a[i] > m ? a[i] : m;
  }
  #pragma acc kernels copyin(a) copyout(out)
  {
    out = 0.5;
    #pragma acc loop reduction(+:out)
    for (int i = 0; i < N; i++) out += a[i];
  }
  double total = -1;
  #pragma acc kernels copyin(a) copy(total)
  {
    double local = 0.25;
    #pragma acc loop reduction(+:local)
    for (int i = 0; i < N; i++) local += a[i];
    total = local;
  }
  if (s != 1999 || t != 3998 || m != 3 || out != 1999.5 || total != 1999.25) {
    printf("kernels-reduction-statements: s %g t %g m %g out %g total %g\n", s, t, m, out, total);
    return 1;
  }
  printf("kernels-reduction-statements: ok\n");
  return 0;
}
