/* num_gangs -> num_teams; exp private/firstprivate/reduction -> the
 * same; if -> if; self(c) -> if(!(c)). */
void f(int n, int c, double *p) {
  double a[100];
  int t, u = 1, s = 0;
  #pragma omp target teams if(n > 1) num_teams(8) private(t) firstprivate(u) map(ompx_hold,tofrom: a) reduction(+: s) map(ompx_hold,tofrom: s) shared(a)
  {
    t = u;
    s += t + a[0];
  }
  #pragma omp target teams if(!(c)) is_device_ptr(p)
  {
    p[1] = 2;
  }
}
