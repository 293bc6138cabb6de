/* Directives in a header of the program's own (header-directives.h), included twice (its
 * guard keeps the second out): they apply inside this file's data region, as the file's own
 * would. */
#include <stdio.h>
#include "header-directives.h"
#include "header-directives.h"

int main(void) {
  static hd_field f;
  for (int i = 0; i < HD_N; i++) f.z[i] = i + 1.0 * I;
  double total;
  hd_field *p = &f;
#pragma acc data copy(p[0:1])
  {
    hd_scale(p, 2.0);
    total = hd_total(p);
  }
  /* sum over i of (2i)^2 + 2^2 */
  double want = 0;
  for (int i = 0; i < HD_N; i++) want += 4.0 * i * i + 4.0;
  int bad = total != want;
  for (int i = 0; i < HD_N; i++) bad += creal(f.z[i]) != 2.0 * i || cimag(f.z[i]) != 2.0;
  printf("total %.0f (want %.0f), %d wrong\n", total, want, bad);
  return bad != 0;
}
