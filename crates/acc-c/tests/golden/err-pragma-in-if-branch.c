/* A directive that ends a `#if` branch, its loop after `#endif`: acc reads the
 * source before preprocessing, so the loop is not the directive's statement. */
void scale(int n, double *x) {
#ifdef _OPENMP
  #pragma omp parallel for
#else
  #pragma acc parallel loop copy(x[0:n])
#endif
  for (int i = 0; i < n; i++) x[i] *= 2;
}
