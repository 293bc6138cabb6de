/* The `#ifdef _OPENMP … #else #pragma acc … #endif` idiom of codes that build with OpenMP or
 * OpenACC: the directive of the branch an OpenACC compiler sees takes the loop after `#endif`. */
#include <stdio.h>
#define N 64
int main(void) {
  double x[N];
  for (int i = 0; i < N; i++) x[i] = i;
#ifdef _OPENMP
  #pragma omp parallel for
#else
  #pragma acc parallel loop copy(x)
#endif
  for (int i = 0; i < N; i++) x[i] *= 2;
#if defined(_OPENACC) && !defined(_OPENMP)
  #pragma acc parallel loop copy(x)
#elif defined(_OPENMP)
  #pragma omp parallel for
#endif
  for (int i = 0; i < N; i++) x[i] += 1;
  for (int i = 0; i < N; i++) if (x[i] != 2 * i + 1) { printf("wrong %d\n", i); return 1; }
  printf("openmp-idiom: ok\n");
  return 0;
}
