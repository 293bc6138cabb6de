/* Conditionals around a construct's statement, as real code writes them: a macro whose name
 * contains OPENACC chooses the directives (`#if ENABLE_OPENACC == 1`), and a data region's
 * statement has its braces inside `#ifdef … #endif` lines, so the region ends in a
 * preprocessor line. Every device gives the sequential answer. */
#include <stdio.h>

#ifndef ENABLE_OPENACC
#define ENABLE_OPENACC 1
#endif
#define SWEEPS
#define N 64

int main(void) {
  int a[N], b[N];
  for (int i = 0; i < N; i++) b[i] = i;
#if ENABLE_OPENACC == 1
  #pragma acc data copyout(a[0:N]) copyin(b[0:N])
#endif
#ifdef SWEEPS
  {
#endif
#if ENABLE_OPENACC == 1
    #pragma acc parallel loop
#endif
    for (int i = 0; i < N; i++) a[i] = 2 * b[i] + 1;
#ifdef SWEEPS
  }
#endif
  for (int i = 0; i < N; i++)
    if (a[i] != 2 * i + 1) {
      printf("a[%d] = %d, want %d\n", i, a[i], 2 * i + 1);
      return 1;
    }
  printf("conditional-braces: ok\n");
  return 0;
}
