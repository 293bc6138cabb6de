/* Parallel Directives: an array referenced and declared outside gets imp
 * copy (-> exp map hold,tofrom) and imp shared (-> exp shared); a scalar
 * gets imp firstprivate (-> exp firstprivate). A local is predetermined
 * private and needs nothing. */
void f(int n, double *p) {
  double a[100];
  int x = 3;
  #pragma acc parallel
  {
    int local = x;
    a[0] = local + n + p[0];
  }
}
