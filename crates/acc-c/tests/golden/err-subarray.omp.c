/* Error: a subarray with no `:` and one integer; subarrays in private and
 * firstprivate. */
void f(int n) {
  double a[10];
  #pragma omp target data map(ompx_hold, tofrom: a[3])
  { a[0] = 1; }
  #pragma omp target teams private(a[0:2]) firstprivate(a[2:2])
  { a[0] = 1; }
}
