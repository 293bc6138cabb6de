/* A compute construct whose statement is partly another file's text (`#include` inside the
 * loop's body, the style of generated code): the variables the fragment names are the
 * construct's to map, reduce and privatize as if written in place. acc had read the loop
 * without them, and the kernels named variables they never declared. */
#include <stdio.h>

#define N 1000

int main(void) {
  static double series[N];
  double sum = 0.0, scale = 2.0;
  const double step = 1.0 / N;
#pragma acc parallel loop reduction(+ : sum) copyout(series)
  for (int i = 0; i < N; i++) {
#include "included-construct-bodies.inc"
  }
  double pi = sum * step;
  int errors = 0;
  if (pi < 3.14159 || pi > 3.14160)
    errors++;
  for (int i = 0; i < N; i++)
    if (series[i] != (i + 0.5) * step * scale)
      errors++;
  printf("%s (pi %.6f)\n", errors ? "FAILED" : "ok", pi);
  return errors != 0;
}
