/* Error: default(none) and a variable without a data clause. */
void f(int n, double *a) {
  double s = 0;
  #pragma acc parallel default(none) copy(a[0:n])
  {
    a[0] = s + n;
  }
}
