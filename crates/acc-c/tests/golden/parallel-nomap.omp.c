/* imp nomap (suppressed by the enclosing data's exp DMA): a scalar ->
 * defaultmap(tofrom: scalar), once; an array -> nothing beyond shared. */
void f(int n) {
  double a[100];
  double s = 0;
  int m = n;
  #pragma omp target data map(ompx_hold,tofrom: a,s,m)
  {
    #pragma omp target teams defaultmap(tofrom: scalar) shared(a,s,m)
    {
      a[0] = s + m;
    }
  }
}
