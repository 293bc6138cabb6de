/* `tile`: the nest is cut into tiles, which the host's chunks run one after the other (each
 * tile a small nest); edges where the trip count is not a multiple of the size, `*` sizes,
 * non-unit steps, three levels, and a reduction. Every element is written exactly once. */
#include <stdio.h>

#define N 67
#define M 45
#define P 9

int main(void) {
  static int a[N][M], c[N][M][P];
  long long s = 0;
  #pragma acc parallel loop tile(8, 16) copy(a)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) a[i][j] += i * M + j + 1;
  #pragma acc parallel loop tile(*, 4, 2) copy(c)
  for (int i = N - 1; i >= 0; i -= 2)
    for (int j = 0; j < M; j += 3)
      for (int k = 0; k <= P - 1; k++) c[i][j][k] += 1;
  #pragma acc parallel loop tile(5, 7) reduction(+:s)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) s += (long long)i * j;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      if (a[i][j] != i * M + j + 1) { printf("a[%d][%d] = %d\n", i, j, a[i][j]); return 1; }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      for (int k = 0; k < P; k++) {
        int want = ((N - 1 - i) % 2 == 0 && j % 3 == 0) ? 1 : 0;
        if (c[i][j][k] != want) { printf("c[%d][%d][%d] = %d\n", i, j, k, c[i][j][k]); return 1; }
      }
  long long want = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) want += (long long)i * j;
  if (s != want) { printf("s = %lld, want %lld\n", s, want); return 1; }
  puts("ok");
  return 0;
}
