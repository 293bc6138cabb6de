// options: no-update-present
/* --update-present-omp=no-present: no `present` motion modifier. */
void f(int n, double *a) {
  #pragma acc update self(a[0:n])
}
