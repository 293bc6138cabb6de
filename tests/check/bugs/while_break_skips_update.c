/* acc check corpus (seeded bug): a loop left by break on a path that skips the update. */
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
      if (++it > 5) break;
      #pragma acc update self(a)
    }
    printf("%f\n", a[0]);
  }
  return 0;
}
