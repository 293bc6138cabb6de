// options: no-no_alloc
/* With --no-create-omp=no-no_alloc the imp nomap is discarded. */
void f(int n) {
  double a[100];
  #pragma omp target data map(ompx_hold,alloc: a[0:n])
  {
    #pragma omp target teams shared(a)
    {
      a[0] = 1;
    }
  }
}
