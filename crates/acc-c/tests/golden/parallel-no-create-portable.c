// options: no-no_alloc
/* With --no-create-omp=no-no_alloc the imp nomap is discarded. */
void f(int n) {
  double a[100];
  #pragma acc data no_create(a[0:n])
  {
    #pragma acc parallel
    {
      a[0] = 1;
    }
  }
}
