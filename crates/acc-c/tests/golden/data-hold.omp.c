/* Data Directives with the defaults hold, present, no_alloc:
 * present -> present,hold,alloc; copy -> hold,tofrom; copyin -> hold,to;
 * copyout -> hold,from; create -> hold,alloc; no_create ->
 * no_alloc,hold,alloc. */
void f(int n, double *a, double *b, double *c, double *d, double *e, double *g) {
  #pragma omp target data map(present,ompx_hold,alloc: a[0:n]) map(ompx_hold,tofrom: b[0:n]) map(ompx_hold,to: c[0:n]) map(ompx_hold,from: d[0:n]) map(ompx_hold,alloc: e[0:n]) map(ompx_no_alloc,ompx_hold,alloc: g[0:n])
  {
    a[0] = 1;
  }
}
