/* `kernels` regions whose loop's body is an `atomic` construct without braces (`for (…)`,
 * `#pragma acc atomic`, the statement), in one loop and in two nested ones (from a public
 * OpenACC/OpenMP tutorial): the loop's statement runs on from the directive to the statement
 * that completes it. */
#include <stdio.h>
#define N 256
int main(void) {
  float y[N] = {0}, z[N], w[N], u[N] = {0};
  for (int i = 0; i < N; i++) {
    z[i] = 1.0f;
    w[i] = 0.5f;
  }
#pragma acc kernels copy(y)
  for (int i = 0; i < N; i++)
#pragma acc atomic
    y[(i * 7) % N] += 1.0f;
#pragma acc kernels copy(u) copyin(z, w)
  for (int i = 0; i < N; i += 4)
    for (int j = 0; j < N; j += 4)
#pragma acc atomic update
      u[(i * j) % N] += z[i] * w[j];
  float s = 0, t = 0;
  for (int i = 0; i < N; i++) {
    s += y[i];
    t += u[i];
  }
  if (s != N || t != (float)((N / 4) * (N / 4)) * 0.5f) {
    printf("s = %g, t = %g\n", s, t);
    return 1;
  }
  printf("OK\n");
  return 0;
}
