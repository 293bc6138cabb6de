// options: acc-omp
/* acc-omp: OpenACC kept, OpenMP in comments; a changed block shows the
 * braces and declarations as comments. */
void f(int n, double *a) {
  int j;
  #pragma acc parallel loop copy(a[0:n])
  // #pragma omp target teams map(ompx_hold,tofrom: a[0:n]) shared(a) firstprivate(n)
  // #pragma omp distribute
  for (int i = 0; i < n; ++i)
    a[i] = i;
  #pragma acc parallel copy(a[0:n])
  // #pragma omp target teams map(ompx_hold,tofrom: a[0:n]) shared(a) firstprivate(j,n)
  #pragma acc loop seq private(j)
  // {
  // int j;
  for (int i = 0; i < n; ++i) {
    j = i;
    a[i] = j;
  }
  // }
}
