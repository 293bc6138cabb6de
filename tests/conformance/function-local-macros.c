/* Macros a function defines in its body, used by the compute construct after them (as
 * PolyBench's correlation does with `sqrt_of_array_cell`): the kernels, on every device,
 * expand them as the host code does. One is `#undef`ined when the function is done with it. */
#include <math.h>
#include <stdio.h>

#define N 64

static void roots(const double *a, double *b) {
#define ROOT_OF_CELL(x, j) sqrt((x)[j])
#define SCALE 2.0
  #pragma acc parallel loop copyin(a[0:N]) copyout(b[0:N])
  for (int j = 0; j < N; j++)
    b[j] = SCALE * ROOT_OF_CELL(a, j);
#undef SCALE
}

int main(void) {
  double a[N], b[N];
  for (int i = 0; i < N; i++)
    a[i] = (double)i * i;
  roots(a, b);
  for (int i = 0; i < N; i++)
    if (b[i] != 2.0 * i) {
      printf("b[%d] = %g, want %g\n", i, b[i], 2.0 * i);
      return 1;
    }
  printf("function-local-macros: ok\n");
  return 0;
}
