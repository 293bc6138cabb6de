/* Error: an exp DMA and an unmappable exp DSA on one directive, even on a
 * combined directive. */
void f(int n) {
  double t;
  #pragma omp target teams map(ompx_hold, tofrom: t) shared(t) firstprivate(n)
  #pragma omp distribute private(t)
  for (int i = 0; i < n; ++i)
    t = i;
}
