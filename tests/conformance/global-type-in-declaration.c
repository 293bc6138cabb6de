/* File-scope variables whose declarations define their own tagged types (`struct particle
 * {…} parts[N];`, an enum likewise), used in compute constructs: the kernels, in C and in the
 * CUDA module, name the types by their tags and never define them again. */
#include <stdio.h>

#define N 256

struct particle { double x, v; } parts[N];
enum phase { SOLID, LIQUID, GAS } phases[N];

int main(void) {
  for (int i = 0; i < N; i++) {
    parts[i].x = i;
    parts[i].v = 0.5 * i;
    phases[i] = SOLID;
  }
  #pragma acc parallel loop copy(parts, phases)
  for (int i = 0; i < N; i++) {
    parts[i].x += parts[i].v;
    phases[i] = parts[i].x > 100 ? GAS : LIQUID;
  }
  for (int i = 0; i < N; i++) {
    double want = 1.5 * i;
    if (parts[i].x != want || phases[i] != (want > 100 ? GAS : LIQUID)) {
      printf("parts[%d] = %g, phase %d\n", i, parts[i].x, (int)phases[i]);
      return 1;
    }
  }
  printf("global types in declarations: ok\n");
  return 0;
}
