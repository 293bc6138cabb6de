/* acc check corpus (fixed): a loop reads the result on the host every iteration but updates it only every tenth. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
int main(void) {
  double a[N];
  for (int i = 0; i < N; i++) a[i] = 0;
  #pragma acc data copy(a)
  for (int it = 0; it < 100; it++) {
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) a[i] += 1;
    #pragma acc update self(a)
    printf("%d %f\n", it, a[0]);
  }
  return 0;
}
