// options: no-hold no-present no-no_alloc
/* The portable options drop ompx_hold, present and ompx_no_alloc. */
void f(int n, double *a, double *b, double *g) {
  #pragma acc data present(a[0:n]) pcopy(b[0:n]) no_create(g[0:n]) if(n > 0)
  {
    a[0] = 1;
  }
}
