/* Error: update, enter data and exit data may not be the immediate
 * substatement of another statement. */
void f(int n, double *a) {
  if (n)
    #pragma acc update self(a[0:n])
  while (n--)
    #pragma acc enter data copyin(a[0:n])
  {
    #pragma acc exit data delete(a[0:n])
  }
}
