/* Error: a variable in more than one exp DMA. */
void f(int n, double *a) {
  #pragma acc data copyin(a[0:n]) copyout(a[0:n])
  { a[0] = 1; }
}
/* The same variable with different subarrays is the same variable. */
void g(int n, double *a) {
  #pragma acc data copyin(a[0:n]) copyout(a[n:n])
  { a[0] = 1; }
}
