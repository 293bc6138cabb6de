/* Error: a variable appears more than once per exp DA. */
void f(int n, double *a) {
  #pragma omp target teams map(ompx_hold, tofrom: a[0:n]) map(ompx_hold, tofrom: a[0:n]) shared(a)
  { a[0] = 1; }
}
