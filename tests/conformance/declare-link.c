/* declare link at file scope: a global array that routines refer to, whose
 * device copy exists only while a data clause maps it (here a copyin on a
 * compute construct, then a copy on a data construct). */
#include <stdio.h>

#define N 1000

double big[N];
#pragma acc declare link(big)

#pragma acc routine seq
static double twice(int i) {
  return 2.0 * big[i];
}

#pragma acc routine seq
static void bump(int i) {
  big[i] += 1.0;
}

int main(void) {
  static double out[N];
  for (int i = 0; i < N; i++) big[i] = i * 0.5;

  #pragma acc parallel loop copyin(big) copyout(out)
  for (int i = 0; i < N; i++)
    out[i] = twice(i);

  #pragma acc data copy(big)
  {
    #pragma acc parallel loop
    for (int i = 0; i < N; i++)
      bump(i);
  }

  for (int i = 0; i < N; i++)
    if (out[i] != i * 1.0 || big[i] != i * 0.5 + 1.0) {
      printf("declare-link: i=%d out=%g big=%g\n", i, out[i], big[i]);
      return 1;
    }
  printf("declare-link: ok\n");
  return 0;
}
