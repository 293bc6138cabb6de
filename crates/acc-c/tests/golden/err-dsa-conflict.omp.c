/* Error: a variable in more than one exp DSA, on a combined directive
 * too. */
void f(int n) {
  double t = 0;
  #pragma omp target teams firstprivate(t) firstprivate(n)
  #pragma omp distribute
  for (int i = 0; i < n; ++i)
    t += i;
}
