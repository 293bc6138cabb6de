/* Macros the file defines in the arms of conditionals on names nothing defines (`#ifndef
 * BIG`, `#if !defined(…)`), on a predefined macro (`__STDC__`) and on a guarded default,
 * used by kernels: the CUDA module must define what the host compiler saw. acc had read
 * every arm (it could not tell those names' state without the preprocessor), and the GPU
 * module took the last definition in the file. */
#include <stdio.h>

#ifndef BIG_PROBLEM
#define SCALE 2
#else
#define SCALE 1000
#endif

#if !defined(NO_OFFSET) && !defined(ALSO_UNDEFINED)
#define OFFSET 7
#else
#define OFFSET -1
#endif

#ifdef __STDC__
#define SIGN 1
#else
#define SIGN -1
#endif

#ifndef WIDTH
#define WIDTH 64
#endif

int main(void) {
  int a[WIDTH];
#pragma acc parallel loop copyout(a)
  for (int i = 0; i < WIDTH; i++)
    a[i] = SIGN * (i * SCALE + OFFSET);
  int wrong = 0;
  for (int i = 0; i < WIDTH; i++)
    wrong += a[i] != 2 * i + 7;
  if (wrong)
    printf("conditional-macro-definitions: %d wrong (a[3] = %d, want 13)\n", wrong, a[3]);
  else
    printf("conditional-macro-definitions: ok\n");
  return wrong != 0;
}
