/* Error: subarrays in private and firstprivate. (An array element in a data clause,
 * `copy(a[3])`, is that one element: no error.) */
void f(int n) {
  double a[10];
  #pragma acc data copy(a[3])
  { a[0] = 1; }
  #pragma acc parallel private(a[0:2]) firstprivate(a[2:2])
  { a[0] = 1; }
}
