/* acc check --run (a bug only the run proves): a function of another file rewrites the host
 * copy of data the device holds; the kernel then reads the device's stale copy. The static
 * check sees only a call that may touch the data, and stays silent. */
#include <stdio.h>
#include <stdlib.h>
#define N 1000
void refresh(double *p, int n); /* other_file_helper.c */
int main(void) {
  double *a = malloc(N * sizeof *a);
  if (!a) return 2;
  for (int i = 0; i < N; i++) a[i] = 1;
  #pragma acc enter data copyin(a[0:N])
  refresh(a, N);
  double s = 0;
  #pragma acc parallel loop present(a[0:N]) reduction(+:s)
  for (int i = 0; i < N; i++) s += a[i];
  #pragma acc exit data delete(a[0:N])
  free(a);
  double want = (double)N * (N - 1);
  if (s != want) {
    printf("wrong sum: %f, want %f\n", s, want);
    return 1;
  }
  printf("ok\n");
  return 0;
}
