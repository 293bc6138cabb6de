/* A long double constant that is not exactly a double (0.1L) in a kernel: right on
 * the CPU devices; the GPU version, whose long double constants are made from
 * double ones, is refused when it is compiled, and the runtime says so on a GPU. */
#include <stdio.h>

#define N 64

int main(void) {
  long double x[N];
  #pragma acc parallel loop copyout(x)
  for (int i = 0; i < N; i++) x[i] = i * 0.1L;
  for (int i = 0; i < N; i++)
    if (x[i] != i * 0.1L) {
      printf("long-double-inexact: x[%d] = %Lg\n", i, x[i]);
      return 1;
    }
  printf("long-double-inexact: ok\n");
  return 0;
}
