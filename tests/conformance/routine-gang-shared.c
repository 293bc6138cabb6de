/* A `routine gang` whose gang loop updates in place (`v[i] += …`), called from gang-redundant
   code of a `parallel` region with several gangs: the gangs share the loop's iterations
   (OpenACC 3.3 2.15.1), so each element is updated once, not once per gang. */
#include <stdio.h>
#define N 40
#pragma acc routine vector
static void bump(double *row, int n, double by) {
  #pragma acc loop vector
  for (int j = 0; j < n; j++) row[j] += by;
}
#pragma acc routine gang
static void bump_rows(double *m, int rows, int n) {
  #pragma acc loop gang
  for (int i = 0; i < rows; i++) bump(m + i * n, n, i + 1);
}
int main(void) {
  static double m[N * 4];
  for (int i = 0; i < N * 4; i++) m[i] = 1;
  #pragma acc parallel copy(m)
  bump_rows(m, N, 4);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < 4; j++)
      if (m[i * 4 + j] != i + 2) {
        printf("routine-gang-shared: m[%d][%d] = %g\n", i, j, m[i * 4 + j]);
        return 1;
      }
  printf("routine-gang-shared: ok\n");
  return 0;
}
