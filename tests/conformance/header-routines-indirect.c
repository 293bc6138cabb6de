/* A kernel that reaches its program's header functions only through the file's own
 * functions (a ray tracer's vector helpers, called by its shading code): all of them get an
 * implicit `routine seq` (OpenACC 3.3 2.15.1), so the header's must come into the GPU module.
 * acc had brought a header in only for functions a compute construct calls itself: the
 * kernel then had no CUDA version ("`hri_square` has no `routine` directive"). */
#include <stdio.h>

#include "header-routines-indirect.h"

#define N 64

static float shade(float x) { return hri_square(x) + 1.0f; }

static float volume_plus_shade(float x) { return hri_cube(x) + shade(x); }

int main(void) {
  float a[N], b[N];
#pragma acc parallel loop copyout(a, b)
  for (int i = 0; i < N; i++) {
    a[i] = shade((float)i);
    b[i] = volume_plus_shade((float)i);
  }
  int wrong = 0;
  for (int i = 0; i < N; i++) {
    float x = (float)i;
    wrong += a[i] != x * x + 1.0f || b[i] != x * x * x + x * x + 1.0f;
  }
  if (wrong)
    printf("header-routines-indirect: %d wrong\n", wrong);
  else
    printf("header-routines-indirect: ok\n");
  return wrong != 0;
}
