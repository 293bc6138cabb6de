/* A `declare create` global whose type the file defines after its first routines (a ray
 * tracer's vector helpers, then its scene's struct and table): the GPU module's device
 * pointer to the global must come after the type. acc had declared it before the first
 * routine, where the type was not yet defined, and the module did not compile. */
#include <stdio.h>

static float twice(float x) { return 2.0f * x; }

#pragma acc routine seq
static float half(float x) { return 0.5f * x; }

typedef struct {
  float a, b;
} pair;

#define N 16
pair table[N];
#pragma acc declare create(table)

static float entry(int i) { return twice(table[i].a) + half(table[i].b); }

int main(void) {
  float out[N];
  for (int i = 0; i < N; i++) {
    table[i].a = (float)i;
    table[i].b = 2.0f;
  }
#pragma acc update device(table)
#pragma acc parallel loop copyout(out)
  for (int i = 0; i < N; i++)
    out[i] = entry(i);
  int wrong = 0;
  for (int i = 0; i < N; i++)
    wrong += out[i] != 2.0f * (float)i + 1.0f;
  if (wrong)
    printf("declare-global-after-routines: %d wrong\n", wrong);
  else
    printf("declare-global-after-routines: ok\n");
  return wrong != 0;
}
