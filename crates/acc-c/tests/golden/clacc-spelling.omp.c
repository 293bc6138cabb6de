/* Printed as Clacc's -fopenacc-print prints it (Clang's spelling): map modifiers and lists
 * without spaces after commas; a variable the region never references gets no `shared`; a
 * variable only `private` on a combined construct's loop gets no `firstprivate` on the
 * effective `omp target teams`. */
void f(int n, double *a, double *b) {
  double t;
  #pragma omp target teams map(ompx_hold,tofrom: a[0:n],b[0:n]) shared(a) firstprivate(n)
  {
    #pragma omp distribute
    for (int i = 0; i < n; i++)
      a[i] = 1;
  }
  #pragma omp target teams map(ompx_hold,tofrom: a[0:n]) shared(a) firstprivate(n)
  #pragma omp distribute private(t)
  for (int i = 0; i < n; i++) {
    t = i;
    a[i] = t;
  }
}
