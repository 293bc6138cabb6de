/* Directives written through macros, as the preprocessor replaces them in `#pragma acc` lines. */
#include <stdio.h>
#define LOOP loop
#define N 100
#define PAR_LOOP parallel LOOP
#define DATA(v) copy(v[0:N])
#define GANGS gang vector
int main(void) {
  double x[N], y[N];
  for (int i = 0; i < N; i++) { x[i] = i; y[i] = 0; }
  #pragma acc parallel LOOP copy(x)
  for (int i = 0; i < N; i++) x[i] *= 2;
  #pragma acc PAR_LOOP DATA(y) copyin(x) GANGS
  for (int i = 0; i < N; i++) y[i] = x[i] + 1;
  for (int i = 0; i < N; i++) if (x[i] != 2 * i || y[i] != 2 * i + 1) { printf("wrong %d\n", i); return 1; }
  printf("directive-macros: ok\n");
  return 0;
}
