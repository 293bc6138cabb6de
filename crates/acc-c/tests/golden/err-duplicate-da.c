/* Error: a variable appears more than once per exp DA. */
void f(int n, double *a) {
  #pragma acc parallel copy(a[0:n]) copy(a[0:n])
  { a[0] = 1; }
}
