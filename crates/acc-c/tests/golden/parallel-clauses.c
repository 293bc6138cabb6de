/* num_gangs -> num_teams; exp private/firstprivate/reduction -> the
 * same; if -> if; self(c) -> if(!(c)). */
void f(int n, int c, double *p) {
  double a[100];
  int t, u = 1, s = 0;
  #pragma acc parallel num_gangs(8) private(t) firstprivate(u) reduction(+:s) copy(a) if(n > 1)
  {
    t = u;
    s += t + a[0];
  }
  #pragma acc parallel self(c) deviceptr(p)
  {
    p[1] = 2;
  }
}
