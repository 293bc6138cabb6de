/* Every reduction operator, on int and double, on a combined loop and on
 * a loop inside a parallel region (promoted to the region). */
#include <stdio.h>

#define N 1000

int main(void) {
  int v[N];
  double d[N];
  for (int i = 0; i < N; i++) { v[i] = (i % 7) + 1; d[i] = (i % 5) * 0.5 + 0.25; }
  int isum = 0, imax = -1, imin = 1 << 30, iand = ~0, ior = 0, ixor = 0, land = 1, lor = 0;
  double dsum = 0, dprod = 1, dmax = -1e300, dmin = 1e300;
  #pragma acc parallel loop copyin(v, d) reduction(+:isum) reduction(max:imax) reduction(min:imin) \
      reduction(&:iand) reduction(|:ior) reduction(^:ixor) reduction(&&:land) reduction(||:lor)
  for (int i = 0; i < N; i++) {
    isum += v[i];
    imax = v[i] > imax ? v[i] : imax;
    imin = v[i] < imin ? v[i] : imin;
    iand &= v[i] | 0x100;
    ior |= v[i];
    ixor ^= v[i];
    land = land && v[i] > 0;
    lor = lor || v[i] == 7;
  }
  #pragma acc parallel copyin(d)
  {
    #pragma acc loop gang vector reduction(+:dsum) reduction(max:dmax) reduction(min:dmin)
    for (int i = 0; i < N; i++) {
      dsum += d[i];
      dmax = d[i] > dmax ? d[i] : dmax;
      dmin = d[i] < dmin ? d[i] : dmin;
    }
  }
  #pragma acc parallel loop reduction(*:dprod)
  for (int i = 0; i < 20; i++)
    dprod *= (i % 2) ? 2.0 : 0.5 * 2.0;
  int risum = 0, rimax = -1, rimin = 1 << 30, riand = ~0, rior = 0, rixor = 0, rland = 1, rlor = 0;
  double rdsum = 0, rdmax = -1e300, rdmin = 1e300;
  for (int i = 0; i < N; i++) {
    risum += v[i];
    rimax = v[i] > rimax ? v[i] : rimax;
    rimin = v[i] < rimin ? v[i] : rimin;
    riand &= v[i] | 0x100;
    rior |= v[i];
    rixor ^= v[i];
    rland = rland && v[i] > 0;
    rlor = rlor || v[i] == 7;
    rdsum += d[i];
    rdmax = d[i] > rdmax ? d[i] : rdmax;
    rdmin = d[i] < rdmin ? d[i] : rdmin;
  }
  int bad = isum != risum || imax != rimax || imin != rimin || iand != riand || ior != rior ||
            ixor != rixor || land != rland || lor != rlor || dsum != rdsum || dmax != rdmax ||
            dmin != rdmin || dprod != 1024.0;
  printf("reductions: %s (isum %d, ixor %d, dsum %g, dprod %g)\n", bad ? "WRONG" : "ok", isum, ixor, dsum, dprod);
  return bad;
}
