// options: acc
/* acc: the source unchanged. */
void f(int n, double *a) {
  #pragma acc parallel loop copy(a[0:n])
  for (int i = 0; i < n; ++i)
    a[i] = i;
}
