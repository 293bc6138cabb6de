/* acc check corpus (seeded bug): a function enters data for its caller; the caller's kernel writes and nothing copies back. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
static void open_data(double *p, int n) {
  #pragma acc enter data create(p[0:n])
}
static void close_data(double *p, int n) {
  #pragma acc exit data delete(p[0:n])
}
int main(void) {
  double *p = malloc(N * sizeof *p);
  open_data(p, N);
  #pragma acc parallel loop present(p[0:N])
  for (int i = 0; i < N; i++) p[i] = i;
  close_data(p, N);
  printf("%f\n", p[4]);
  free(p);
  return 0;
}
