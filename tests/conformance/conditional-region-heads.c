/* A compute construct's head chosen by a `#if` chain, each arm a directive and the region's
   opening brace (NAS SHOC ports choose `parallel` or `kernels` so): the statement opens in one
   arm and closes after `#endif`. The arm the compiler sees is the construct, in the first arm
   and in a later one, and the chain stays whole around the launch. */
#include <stdio.h>
#define N 96
static double v[N], w[N];
static void twice(int n) {
  int i;
#ifndef USE_KERNELS_FORM
  #pragma acc parallel present(v) num_gangs(2) vector_length(32)
  {
#elif USE_KERNELS_FORM == 0
  #pragma acc kernels present(v)
  {
#endif
    #pragma acc loop gang vector
    for (i = 0; i < n; i++) v[i] = 2 * v[i];
  }
}
static void shift(int n) {
  int i;
#if defined(NEVER_DEFINED_FORM)
  #pragma acc kernels present(w)
  {
#else
  #pragma acc parallel present(w)
  {
#endif
    #pragma acc loop
    for (i = 0; i < n; i++) w[i] = w[i] + 3;
  }
}
int main(void) {
  for (int i = 0; i < N; i++) { v[i] = i; w[i] = -i; }
  #pragma acc data copy(v, w)
  {
    twice(N);
    shift(N);
  }
  for (int i = 0; i < N; i++)
    if (v[i] != 2.0 * i || w[i] != 3.0 - i) {
      printf("conditional-region-heads: %d: %f %f\n", i, v[i], w[i]);
      return 1;
    }
  printf("conditional-region-heads: ok\n");
  return 0;
}
