/* The if clause on parallel, kernels, serial and combined constructs, with
 * conditions that are true, false and computed at run time. When the
 * condition is false the region runs on the local (host) thread and the
 * data clauses do nothing; either way the answer is the same. */
#include <stdio.h>

#define N 500

int main(void) {
  static int a[N], b[N], c[N], d[N], e[N];
  int on = 1, off = 0;
  for (int i = 0; i < N; i++) a[i] = i * 3 - 100;

  #pragma acc parallel loop if(on) copyin(a) copyout(b)
  for (int i = 0; i < N; i++)
    b[i] = a[i] + 1;

  #pragma acc parallel if(off) copyin(a) copyout(c)
  {
    #pragma acc loop
    for (int i = 0; i < N; i++)
      c[i] = a[i] * 2;
  }

  for (int rep = 0; rep < 2; rep++) {
    #pragma acc kernels if(rep == 1) copyin(a) copy(d)
    {
      for (int i = 0; i < N; i++)
        d[i] += a[i] - rep;
    }
  }

  int s = 0;
  #pragma acc serial if(N > 100) copyin(a) copy(s)
  {
    for (int i = 0; i < N; i++)
      s += a[i] & 7;
  }

  #pragma acc kernels loop if(off || on) copyin(a) copyout(e)
  for (int i = 0; i < N; i++)
    e[i] = -a[i];

  int rs = 0;
  for (int i = 0; i < N; i++) {
    if (b[i] != a[i] + 1 || c[i] != a[i] * 2 || d[i] != 2 * a[i] - 1 || e[i] != -a[i]) {
      printf("parallel-if: i=%d b=%d c=%d d=%d e=%d\n", i, b[i], c[i], d[i], e[i]);
      return 1;
    }
    rs += a[i] & 7;
  }
  if (s != rs) { printf("parallel-if: s = %d, expected %d\n", s, rs); return 1; }
  printf("parallel-if: ok\n");
  return 0;
}
