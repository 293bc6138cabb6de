/* acc check corpus (fixed): one case of a switch forgets the update before the host reads. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
int main(int argc, char **argv) {
  double a[N];
  for (int i = 0; i < N; i++) a[i] = 0;
  #pragma acc data copy(a)
  {
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) a[i] = i;
    switch (argc) {
    case 1:
      #pragma acc update self(a)
      break;
    case 2:
      #pragma acc update self(a)
      break;
    default:
      #pragma acc update self(a)
    }
    printf("%f\n", a[2]);
  }
  return 0;
}
