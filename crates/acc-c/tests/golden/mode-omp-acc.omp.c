// options: omp-acc
/* omp-acc: OpenMP printed, OpenACC in comments, continuation lines too. */
void f(int n, double *a) {
  // #pragma acc parallel loop \
  // copy(a[0:n])
  #pragma omp target teams map(ompx_hold,tofrom: a[0:n]) shared(a) firstprivate(n)
  #pragma omp distribute
  for (int i = 0; i < n; ++i)
    a[i] = i;
}
