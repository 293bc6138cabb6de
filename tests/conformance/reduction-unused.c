/* A reduction clause whose variable the loop never updates (a program's left-over, or a search
   that finds nothing): the clause still implies `copy` on the compute part (OpenACC 3.3 2.11),
   and the variable keeps its value, combined with the operator's identity. */
#include <stdio.h>
#define N 64
int main(void) {
  int best = 5, worst = -3, a[N], c[N];
  double total = 1.5;
  for (int i = 0; i < N; i++) a[i] = i;
  #pragma acc parallel loop reduction(max:best) reduction(min:worst) copyin(a) copyout(c)
  for (int i = 0; i < N; i++) c[i] = 2 * a[i];
  #pragma acc kernels loop reduction(+:total) copy(c)
  for (int i = 0; i < N; i++) c[i] += 1;
  for (int i = 0; i < N; i++)
    if (c[i] != 2 * i + 1) { printf("reduction-unused: c[%d] = %d\n", i, c[i]); return 1; }
  if (best != 5 || worst != -3 || total != 1.5) {
    printf("reduction-unused: best %d worst %d total %f\n", best, worst, total);
    return 1;
  }
  printf("reduction-unused: ok\n");
  return 0;
}
