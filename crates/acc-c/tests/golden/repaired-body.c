/* A directive as the unbraced body of a for loop (which GCC accepts):
 * the directive and the next statement are the body. */
void f(int n, double *a) {
  #pragma acc parallel copy(a[0:n*n])
  #pragma acc loop gang
  for (int i = 0; i < n; ++i)
    #pragma acc loop vector
    for (int j = 0; j < n; ++j)
      a[i * n + j] = 0;
}
