/* acc check corpus (seeded bug): a struct member's section (deep copy): the kernel writes it, nothing copies it back. */
#include <stdio.h>
#include <stdlib.h>
#define N 100
struct vec { int n; double *data; };
int main(void) {
  struct vec v;
  v.n = N;
  v.data = malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) v.data[i] = i;
  #pragma acc enter data copyin(v)
  #pragma acc enter data copyin(v.data[0:N])
  #pragma acc parallel loop present(v)
  for (int i = 0; i < N; i++) v.data[i] *= 2;
  #pragma acc exit data delete(v.data[0:N])
  #pragma acc exit data delete(v)
  printf("%f\n", v.data[3]);
  free(v.data);
  return 0;
}
