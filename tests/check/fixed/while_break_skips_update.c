/* acc check corpus (fixed): a loop left by break on a path that skips the update. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
int main(void) {
  double a[N];
  for (int i = 0; i < N; i++) a[i] = 0;
  int it = 0;
  #pragma acc data copy(a)
  {
    while (1) {
      #pragma acc parallel loop
      for (int i = 0; i < N; i++) a[i] += 1;
      #pragma acc update self(a)
      if (++it > 5) break;
    }
    printf("%f\n", a[0]);
  }
  return 0;
}
