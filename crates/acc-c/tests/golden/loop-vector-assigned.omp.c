/* A vector loop whose control variable is only assigned: OpenMP makes it
 * pre linear on simd, so it gets a local copy in a compound statement;
 * on a gang loop it is exp private. */
void f(int n, double *a) {
  int i;
  #pragma omp target teams map(ompx_hold,tofrom: a[0:n]) shared(a) firstprivate(i,n)
  #pragma omp distribute private(i)
  for (i = 0; i < n; ++i)
    a[i] = i;
  #pragma omp target teams map(ompx_hold,tofrom: a[0:n]) shared(a) firstprivate(i,n)
  {
  int i;
  #pragma omp distribute simd
  for (i = 0; i < n; ++i)
    a[i] = i;
  }
}
