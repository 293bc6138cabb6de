/* A vector loop whose control variable is only assigned: OpenMP makes it
 * pre linear on simd, so it gets a local copy in a compound statement;
 * on a gang loop it is exp private. */
void f(int n, double *a) {
  int i;
  #pragma acc parallel loop gang copy(a[0:n])
  for (i = 0; i < n; ++i)
    a[i] = i;
  #pragma acc parallel loop vector copy(a[0:n])
  for (i = 0; i < n; ++i)
    a[i] = i;
}
