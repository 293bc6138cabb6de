/* declare in function scope: copyin, copyout, copy and create on local
 * arrays of a function called repeatedly (their device copies live as long
 * as each call), and copy on a local array of main that a callee reaches
 * through present. The copyout / copy results of the callee are read with
 * update self before it returns, because the copies back happen at
 * function exit, when the locals go away.
 * (declare present at function scope has no portable C use: declare takes
 * no subarrays, an automatic local cannot be present on entry, and extern
 * variables may only be in create/copyin/deviceptr/device_resident/link.)
 * Function-scope device_resident is in declare-device-resident-local.c. */
#include <stdio.h>

#define N 64

static int work(int round, double *result) {
  double a[N], b[N], c[N], t[N];
  #pragma acc declare copyin(a) copyout(b) copy(c) create(t)
  /* the declare's region starts at function entry, before these values
   * exist, so they are sent with update device */
  for (int i = 0; i < N; i++) { a[i] = i + round; c[i] = 1.0; }
  #pragma acc update device(a, c)

  #pragma acc parallel loop present(a, t)
  for (int i = 0; i < N; i++)
    t[i] = a[i] * 2.0;
  #pragma acc parallel loop present(t, b, c)
  for (int i = 0; i < N; i++) {
    b[i] = t[i] + 1.0;
    c[i] += t[i];
  }
  #pragma acc update self(b, c)
  for (int i = 0; i < N; i++) result[i] = b[i] + c[i];
  return 0;
}

static void scale(double *p, int n, double k) {
  #pragma acc parallel loop present(p[0:n]) firstprivate(k)
  for (int i = 0; i < n; i++)
    p[i] *= k;
}

int main(void) {
  double result[N], m[N];
  #pragma acc declare copy(m)
  for (int round = 0; round < 3; round++) {
    work(round, result);
    for (int i = 0; i < N; i++) {
      double want = (2.0 * (i + round) + 1.0) + (1.0 + 2.0 * (i + round));
      if (result[i] != want) {
        printf("declare-local: round %d result[%d] = %g, expected %g\n", round, i, result[i], want);
        return 1;
      }
    }
  }
  for (int i = 0; i < N; i++) m[i] = i;
  #pragma acc update device(m)
  scale(m, N, 3.0);
  scale(m, N, 0.5);
  #pragma acc update self(m)
  for (int i = 0; i < N; i++)
    if (m[i] != i * 1.5) { printf("declare-local: m[%d] = %g\n", i, m[i]); return 1; }
  printf("declare-local: ok\n");
  return 0;
}
