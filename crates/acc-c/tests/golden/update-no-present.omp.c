// options: no-update-present
/* --update-present-omp=no-present: no `present` motion modifier. */
void f(int n, double *a) {
  #pragma omp target update from(a[0:n])
}
