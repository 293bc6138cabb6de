/* imp nomap for a variable that is no_create on the enclosing data:
 * -> map(ompx_no_alloc, alloc: v) with the full array. */
void f(int n) {
  double a[100];
  double b[100];
  #pragma omp target data map(ompx_no_alloc,ompx_hold,alloc: a[0:n]) map(ompx_hold,tofrom: b)
  {
    #pragma omp target teams map(ompx_no_alloc,alloc: a) shared(a,b)
    {
      a[0] = b[0];
    }
  }
}
