/* Error: a variable in more than one exp DSA, on a combined directive
 * too. */
void f(int n) {
  double t = 0;
  #pragma acc parallel loop firstprivate(t) reduction(+:t)
  for (int i = 0; i < n; ++i)
    t += i;
}
