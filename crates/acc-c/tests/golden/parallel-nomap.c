/* imp nomap (suppressed by the enclosing data's exp DMA): a scalar ->
 * defaultmap(tofrom: scalar), once; an array -> nothing beyond shared. */
void f(int n) {
  double a[100];
  double s = 0;
  int m = n;
  #pragma acc data copy(a, s, m)
  {
    #pragma acc parallel
    {
      a[0] = s + m;
    }
  }
}
