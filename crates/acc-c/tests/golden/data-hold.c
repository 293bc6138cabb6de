/* Data Directives with the defaults hold, present, no_alloc:
 * present -> present,hold,alloc; copy -> hold,tofrom; copyin -> hold,to;
 * copyout -> hold,from; create -> hold,alloc; no_create ->
 * no_alloc,hold,alloc. */
void f(int n, double *a, double *b, double *c, double *d, double *e, double *g) {
  #pragma acc data present(a[0:n]) copy(b[0:n]) copyin(c[0:n]) copyout(d[0:n]) \
      create(e[0:n]) no_create(g[0:n])
  {
    a[0] = 1;
  }
}
