/* <complex.h>'s functions in kernels, float and double: carg, cexp, clog, csqrt, cpow, csin,
 * ccos, cabs, conj, on values off the branch cuts; answers within a tolerance of the host C
 * library's. */
#include <complex.h>
#include <math.h>
#include <stdio.h>

enum { N = 64 };

static double complex sample(int i) { return (0.1 + 0.05 * i) + (0.3 - 0.02 * i) * I; }

int main(void) {
  double complex out[N][7];
  float complex outf[N][7];
#pragma acc parallel loop copyout(out, outf)
  for (int i = 0; i < N; i++) {
    double complex z = (0.1 + 0.05 * i) + (0.3 - 0.02 * i) * I;
    float complex zf = (float complex)z;
    out[i][0] = carg(z);
    out[i][1] = cexp(z);
    out[i][2] = clog(z);
    out[i][3] = csqrt(z);
    out[i][4] = cpow(z, 2.5 + 0.5 * I);
    out[i][5] = csin(z) + ccos(z);
    out[i][6] = cabs(z) + conj(z);
    outf[i][0] = cargf(zf);
    outf[i][1] = cexpf(zf);
    outf[i][2] = clogf(zf);
    outf[i][3] = csqrtf(zf);
    outf[i][4] = cpowf(zf, 2);
    outf[i][5] = csinf(zf) + ccosf(zf);
    outf[i][6] = cabsf(zf) + conjf(zf);
  }
  int bad = 0;
  for (int i = 0; i < N; i++) {
    double complex z = sample(i);
    float complex zf = (float complex)z;
    double complex want[7] = {carg(z),  cexp(z),           clog(z), csqrt(z),
                              cpow(z, 2.5 + 0.5 * I), csin(z) + ccos(z), cabs(z) + conj(z)};
    float complex wantf[7] = {cargf(zf),  cexpf(zf),          clogf(zf), csqrtf(zf),
                              cpowf(zf, 2), csinf(zf) + ccosf(zf), cabsf(zf) + conjf(zf)};
    for (int k = 0; k < 7; k++) {
      bad += cabs(out[i][k] - want[k]) > 1e-12 * (1 + cabs(want[k]));
      bad += cabsf(outf[i][k] - wantf[k]) > 1e-4f * (1 + cabsf(wantf[k]));
    }
  }
  if (bad) {
    printf("complex-functions: %d wrong\n", bad);
    return 1;
  }
  printf("complex-functions: ok\n");
  return 0;
}
