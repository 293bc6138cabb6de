// options: no-hold no-present no-no_alloc
/* The portable options drop ompx_hold, present and ompx_no_alloc. */
void f(int n, double *a, double *b, double *g) {
  #pragma omp target data if(n > 0) map(alloc: a[0:n]) map(tofrom: b[0:n]) map(alloc: g[0:n])
  {
    a[0] = 1;
  }
}
