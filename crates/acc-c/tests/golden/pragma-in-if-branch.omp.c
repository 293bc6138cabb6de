/* The `#ifdef _OPENMP … #else #pragma acc … #endif` idiom: _OPENACC is defined and _OPENMP is
 * not, as for any OpenACC compiler, so the `#else` branch is the one the compiler sees and its
 * directive takes the loop after `#endif`; `#if defined(...)` chains likewise. */
void scale(int n, double *x) {
#ifdef _OPENMP
  #pragma omp parallel for
#else
  #pragma omp target teams map(ompx_hold,tofrom: x[0:n]) shared(x) firstprivate(n)
  #pragma omp distribute
#endif
  for (int i = 0; i < n; i++) x[i] *= 2;
#if defined(_OPENACC) && !defined(_OPENMP)
  #pragma omp target teams map(ompx_hold,tofrom: x[0:n]) shared(x) firstprivate(n)
  #pragma omp distribute
#elif defined(_OPENMP)
  #pragma omp parallel for
#endif
  for (int i = 0; i < n; i++) x[i] += 1;
}
