/* acc check --run (a bug only the run proves): the kernel runs behind a function pointer, which
 * the static check does not follow, so it cannot tell that the host then reads a stale copy. */
#include <stdio.h>
#define N 1000
static void scale(double *p, int n) {
  #pragma acc parallel loop present(p[0:n])
  for (int i = 0; i < n; i++) p[i] *= 2;
}
static void shift(double *p, int n) {
  #pragma acc parallel loop present(p[0:n])
  for (int i = 0; i < n; i++) p[i] += 1;
}
int main(int argc, char **argv) {
  (void)argv;
  static double a[N];
  void (*steps[2])(double *, int) = {scale, shift};
  for (int i = 0; i < N; i++) a[i] = i;
  double s = 0;
  #pragma acc data copy(a)
  {
    steps[argc > 5](a, N);
    for (int i = 0; i < N; i++) s += a[i];
  }
  double want = (double)N * (N - 1);
  if (s != want) {
    printf("wrong sum: %f, want %f\n", s, want);
    return 1;
  }
  printf("ok\n");
  return 0;
}
