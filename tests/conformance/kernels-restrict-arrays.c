/* `kernels` loops between an array and a pointer: a `restrict` pointer (`double *restrict p`,
   or a parameter written `double p[restrict]`) reaches no array the loop names otherwise, so
   the loop runs in parallel (the snapshot's --info says so); without `restrict` it stays
   sequential, and --info names the pointer to qualify. Every way, the answers are right. */
#include <stdio.h>
#define N 128
static double out[N];
static void gather(const double src[restrict], int off, double *plain) {
  double local[N];
  #pragma acc kernels copyin(src[0:N + off]) copyout(local)
  for (int i = 0; i < N; i++) local[i] = src[i + off] * 2;
  #pragma acc kernels copyin(local) copyout(out)
  for (int i = 0; i < N; i++) out[i] = local[i] + 1;
  #pragma acc kernels copy(plain[0:N]) copyin(local)
  for (int i = 0; i < N; i++) plain[i] = local[i] - 1;
}
int main(void) {
  double src[N + 4], plain[N];
  for (int i = 0; i < N + 4; i++) src[i] = i;
  gather(src, 4, plain);
  for (int i = 0; i < N; i++)
    if (out[i] != 2.0 * (i + 4) + 1 || plain[i] != 2.0 * (i + 4) - 1) {
      printf("kernels-restrict-arrays: %d: %f %f\n", i, out[i], plain[i]);
      return 1;
    }
  printf("kernels-restrict-arrays: ok\n");
  return 0;
}
