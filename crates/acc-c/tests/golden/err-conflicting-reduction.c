/* Error: multiple imp|exp reductions with different operators for one
 * variable, including imp reductions promoted from sibling loops. */
void f(int n, double *a) {
  double s = 0;
  #pragma acc parallel copyin(a[0:n]) copy(s)
  {
    #pragma acc loop gang reduction(+:s)
    for (int i = 0; i < n; ++i)
      s += a[i];
    #pragma acc loop gang reduction(max:s)
    for (int i = 0; i < n; ++i)
      s = a[i] > s ? a[i] : s;
  }
}
