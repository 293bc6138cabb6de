/* imp nomap for a variable that is no_create on the enclosing data:
 * -> map(ompx_no_alloc, alloc: v) with the full array. */
void f(int n) {
  double a[100];
  double b[100];
  #pragma acc data no_create(a[0:n]) copy(b)
  {
    #pragma acc parallel
    {
      a[0] = b[0];
    }
  }
}
