/* The full wait-argument syntax: wait(devnum: n: queues: list) and
 * wait(queues: list) on the wait directive and as a wait clause. Device 0
 * of the current type is used. */
#include <stdio.h>

#define N 300

int main(void) {
  static int a[N], b[N], c[N];
  #pragma acc data copyout(a, b, c)
  {
    #pragma acc parallel loop async(1)
    for (int i = 0; i < N; i++)
      a[i] = i;
    #pragma acc parallel loop async(2)
    for (int i = 0; i < N; i++)
      b[i] = 2 * i;
    #pragma acc parallel loop async(3) wait(queues: 1, 2)
    for (int i = 0; i < N; i++)
      c[i] = a[i] + b[i];
    #pragma acc wait(devnum: 0: queues: 3)
    #pragma acc parallel loop wait(devnum: 0: 1, 2, 3)
    for (int i = 0; i < N; i++)
      c[i] += 1;
  }
  for (int i = 0; i < N; i++)
    if (c[i] != 3 * i + 1) { printf("wait-devnum: c[%d] = %d\n", i, c[i]); return 1; }
  printf("wait-devnum: ok\n");
  return 0;
}
