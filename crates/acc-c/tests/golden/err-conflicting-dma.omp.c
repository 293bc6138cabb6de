/* Error: a variable in more than one exp DMA. */
void f(int n, double *a) {
  #pragma omp target data map(ompx_hold, to: a[0:n]) map(ompx_hold, from: a[0:n])
  { a[0] = 1; }
}
