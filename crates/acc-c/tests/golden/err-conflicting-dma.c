/* Error: a variable in more than one exp DMA. */
void f(int n, double *a) {
  #pragma acc data copyin(a[0:n]) copyout(a[0:n])
  { a[0] = 1; }
}
