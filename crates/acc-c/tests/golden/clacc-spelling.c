/* Printed as Clacc's -fopenacc-print prints it (Clang's spelling): map modifiers and lists
 * without spaces after commas; a variable the region never references gets no `shared`; a
 * variable only `private` on a combined construct's loop gets no `firstprivate` on the
 * effective `omp target teams`. */
void f(int n, double *a, double *b) {
  double t;
  #pragma acc parallel copy(a[0:n], b[0:n])
  {
    #pragma acc loop
    for (int i = 0; i < n; i++)
      a[i] = 1;
  }
  #pragma acc parallel loop private(t) copy(a[0:n])
  for (int i = 0; i < n; i++) {
    t = i;
    a[i] = t;
  }
}
