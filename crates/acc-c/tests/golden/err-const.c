/* Error: exp copyout, create, private or reduction of a const variable,
 * and a const variable in update self/device. copy, copyin, firstprivate
 * and present are fine. */
void f(int n) {
  const double c[4] = {1, 2, 3, 4};
  const int k = 3;
  double s = 0;
  #pragma acc data copyout(c) create(k)
  { s = c[0]; }
  #pragma acc parallel private(k) copy(c) firstprivate(s)
  { s = c[0]; }
  #pragma acc parallel loop reduction(+:k) copyin(c)
  for (int i = 0; i < n; ++i)
    s += c[0];
  #pragma acc update self(c)
}
