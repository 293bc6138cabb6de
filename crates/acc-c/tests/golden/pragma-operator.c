/* _Pragma("acc ...") is a directive too. */
void f(int n, double *a) {
  _Pragma("acc parallel loop copy(a[0:n])")
  for (int i = 0; i < n; ++i)
    a[i] = i;
}
