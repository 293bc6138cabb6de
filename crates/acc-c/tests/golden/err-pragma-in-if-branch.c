/* A directive that ends a `#if` branch, its loop after `#endif`, under a condition acc cannot
 * evaluate (USE_OMP is defined nowhere acc can see: a -D option may define it): the loop is not
 * the directive's statement. */
void scale(int n, double *x) {
#ifdef USE_OMP
  #pragma omp parallel for
#else
  #pragma acc parallel loop copy(x[0:n])
#endif
  for (int i = 0; i < n; i++) x[i] *= 2;
}
