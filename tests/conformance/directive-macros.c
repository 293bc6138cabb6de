/* Directives written through macros, as the preprocessor replaces them in `#pragma acc` lines:
   whole clauses, and list items inside a clause (`copyin(SECT(x))`). */
#include <stdio.h>
#define LOOP loop
#define N 100
#define PAR_LOOP parallel LOOP
#define DATA(v) copy(v[0:N])
#define GANGS gang vector
#define SECT(v) v[0:N]
#define HALF(n) ((n) / 2)
int main(void) {
  double x[N], y[N];
  for (int i = 0; i < N; i++) { x[i] = i; y[i] = 0; }
  #pragma acc parallel LOOP copy(x)
  for (int i = 0; i < N; i++) x[i] *= 2;
  #pragma acc PAR_LOOP DATA(y) copyin(x) GANGS
  for (int i = 0; i < N; i++) y[i] = x[i] + 1;
  double z[N];
  #pragma acc parallel loop copyin(SECT(x), SECT(y)) copyout(SECT(z)) num_gangs(HALF(4))
  for (int i = 0; i < N; i++) z[i] = y[i] - x[i];
  for (int i = 0; i < N; i++) if (x[i] != 2 * i || y[i] != 2 * i + 1 || z[i] != 1) { printf("wrong %d\n", i); return 1; }
  printf("directive-macros: ok\n");
  return 0;
}
