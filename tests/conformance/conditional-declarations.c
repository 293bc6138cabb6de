/* Declarations chosen by `#if` arms (the precision of a whole program, a struct's layout, a
   routine's formula): the device code is built from the arm the compiler sees, not from both. */
#include <stdio.h>
#ifdef USE_DOUBLE_PRECISION
typedef double real;
#else
typedef float real;
#endif
#if defined(USE_WIDE_POINTS)
typedef struct { real x, y, z, w; } point;
#else
typedef struct { real x, y; } point;
#endif
#ifndef USE_CUBES
#pragma acc routine seq
static real power(real v) { return v * v; }
#else
#pragma acc routine seq
static real power(real v) { return v * v * v; }
#endif
#define N 128
int main(void) {
  point p[N];
  real out[N];
  int sizes[2] = {0, 0};
  for (int i = 0; i < N; i++) { p[i].x = (real)i; p[i].y = (real)(N - i); }
  #pragma acc parallel loop copyin(p) copyout(out) copy(sizes)
  for (int i = 0; i < N; i++) {
    out[i] = power(p[i].x) + p[i].y;
    if (i == 0) { sizes[0] = (int)sizeof(real); sizes[1] = (int)sizeof(point); }
  }
  if (sizes[0] != (int)sizeof(real) || sizes[1] != (int)sizeof(point)) {
    printf("conditional-declarations: device sizes %d %d, host %d %d\n", sizes[0], sizes[1],
           (int)sizeof(real), (int)sizeof(point));
    return 1;
  }
  for (int i = 0; i < N; i++)
    if (out[i] != (real)i * (real)i + (real)(N - i)) {
      printf("conditional-declarations: out[%d] = %f\n", i, (double)out[i]);
      return 1;
    }
  printf("conditional-declarations: ok\n");
  return 0;
}
