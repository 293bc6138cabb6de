/* Parallel Directives: an array referenced and declared outside gets imp
 * copy (-> exp map hold,tofrom) and imp shared (-> exp shared); a scalar
 * gets imp firstprivate (-> exp firstprivate). A local is predetermined
 * private and needs nothing. */
void f(int n, double *p) {
  double a[100];
  int x = 3;
  #pragma omp target teams map(ompx_hold,tofrom: a) shared(a) firstprivate(x,n,p)
  {
    int local = x;
    a[0] = local + n + p[0];
  }
}
