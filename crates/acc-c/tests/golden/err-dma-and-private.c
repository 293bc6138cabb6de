/* Error: an exp DMA and an unmappable exp DSA on one directive, even on a
 * combined directive. */
void f(int n) {
  double t;
  #pragma acc parallel loop copy(t) private(t)
  for (int i = 0; i < n; ++i)
    t = i;
}
