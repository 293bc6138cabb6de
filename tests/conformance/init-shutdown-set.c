/* The init, set and shutdown directives (no runtime API calls): init (with
 * and without if), set default_async (async with no argument then uses
 * that queue, so wait on it finishes the work), set device_num(0), compute
 * work in between, and shutdown at the end. */
#include <stdio.h>

#define N 300

int main(void) {
  static int a[N], b[N];
  int yes = 1;
  #pragma acc init
  #pragma acc init if(yes)
  #pragma acc set device_num(0)
  #pragma acc set default_async(3)

  #pragma acc data copyout(a, b)
  {
    #pragma acc parallel loop async
    for (int i = 0; i < N; i++)
      a[i] = i * 5;
    #pragma acc wait(3)
    #pragma acc parallel loop async(4) wait(3)
    for (int i = 0; i < N; i++)
      b[i] = a[i] + 1;
    #pragma acc wait
  }

  #pragma acc shutdown
  for (int i = 0; i < N; i++)
    if (a[i] != i * 5 || b[i] != i * 5 + 1) { printf("init-shutdown-set: i=%d a=%d b=%d\n", i, a[i], b[i]); return 1; }
  printf("init-shutdown-set: ok\n");
  return 0;
}
