/* _Pragma("acc ...") is a directive too. */
void f(int n, double *a) {
  #pragma omp target teams map(ompx_hold,tofrom: a[0:n]) shared(a) firstprivate(n)
  #pragma omp distribute
  for (int i = 0; i < n; ++i)
    a[i] = i;
}
