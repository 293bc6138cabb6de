/* Error: a loop directive must be followed by a for loop. */
void f(int n, double *a) {
  #pragma acc parallel loop copy(a[0:n])
  while (n--)
    a[n] = 0;
}
