/* Nests whose iterations differ in work (an inner loop's bounds depend on the partitioned
 * loop's variable, directly or through a local): the host deals their iterations out in
 * balanced blocks. Every iteration must still run exactly once, with reductions, privates,
 * gang counts that do not divide the blocks, fewer iterations than blocks, none at all,
 * negative steps, sparse rows and a gang-redundant region around the loop. */
#include <stdio.h>

#define N 203

static int row_start[N + 1];

int main(void) {
  static int low[N][N], up[N][N], hits[N];
  long long s = 0, rows = 0;
  int t = 0;
  #pragma acc parallel loop copy(low) reduction(+:s) private(t)
  for (int i = 0; i < N; i++)
    for (int j = 0; j <= i; j++) {
      t = i * N + j;
      low[i][j] += t + 1;
      s += t;
    }
  #pragma acc parallel loop num_gangs(3) copy(up)
  for (int i = N - 1; i >= 0; i -= 2) {
    const int first = i;
    for (int j = first; j < N; j++) up[i][j] += 1;
  }
  for (int i = 0; i <= N; i++) row_start[i] = i * (i + 1) / 2;
  #pragma acc parallel loop num_gangs(5) copyin(row_start) copy(hits) reduction(+:rows)
  for (int i = 0; i < N; i++) {
    for (int k = row_start[i]; k < row_start[i + 1]; k++) hits[i] += 1;
    rows += 1;
  }
  for (int n = 0; n < 4; n++) {
    #pragma acc parallel loop num_gangs(7) copy(hits) reduction(+:rows)
    for (int i = 0; i < n; i++) {
      int j = 0;
      while (j < i) j++;
      hits[i] += 100 + j - i;
      rows += 1;
    }
  }
  long long want_s = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      int wl = j <= i ? i * N + j + 1 : 0;
      if (j <= i) want_s += i * N + j;
      if (low[i][j] != wl) { printf("low[%d][%d] = %d, want %d\n", i, j, low[i][j], wl); return 1; }
      int wu = ((N - 1 - i) % 2 == 0 && j >= i) ? 1 : 0;
      if (up[i][j] != wu) { printf("up[%d][%d] = %d, want %d\n", i, j, up[i][j], wu); return 1; }
    }
  for (int i = 0; i < N; i++) {
    int want = i + 1 + (i < 3 ? 100 * (3 - i) : 0);
    if (hits[i] != want) { printf("hits[%d] = %d, want %d\n", i, hits[i], want); return 1; }
  }
  if (s != want_s) { printf("s = %lld, want %lld\n", s, want_s); return 1; }
  if (rows != N + 0 + 1 + 2 + 3) { printf("rows = %lld\n", rows); return 1; }
  printf("triangular-nests: ok\n");
  return 0;
}
