/* Includes, macros, comments and layout outside the directives survive
 * byte for byte; the directive keeps the user's spelling (N, not 1024). */
#include <stddef.h>
#define N 1024
#define SQUARE(x) ((x) * (x))

static double   data[N];   /* odd   spacing kept */

void f(void) {
  // a comment before
  #pragma omp target teams map(ompx_hold,tofrom: data[0:N]) shared(data)
  #pragma omp distribute /* trailing comment */
  for (size_t i = 0; i < N; ++i)
    data[i] = SQUARE(i);   // and after
}
