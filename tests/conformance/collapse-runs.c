/* Collapsed nests, which each host chunk runs as plain inner loops over the rows its range of
 * the flattened iterations covers (a chunk may start and end mid-row): assigned and declared
 * loop variables, negative and non-unit steps, `<=` bounds, `continue`, a reduction, and a
 * gang count that splits rows. */
#include <stdio.h>
int main(void) {
  int n = 37, m = 53, p = 7;
  static double a[37][53], b[37][53][7];
  int i, j;
  #pragma acc parallel loop collapse(2) copyout(a)
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++) a[i][j] = i * 100 + j;
  #pragma acc parallel loop collapse(3) copyout(b)
  for (int x = n - 1; x >= 0; x--)
    for (int y = 0; y < m; y += 2)
      for (int z = 1; z <= p; z++) { if (z == 3) continue; b[x][y][z - 1] = x * 10000 + y * 10 + z; }
  long long s = 0;
  #pragma acc parallel loop collapse(2) reduction(+:s)
  for (int x = 0; x < n; x++)
    for (int y = 3; y < m - 3; y++) s += x * y;
  for (i = 0; i < n; i++) for (j = 0; j < m; j++) if (a[i][j] != i * 100 + j) { printf("a %d %d\n", i, j); return 1; }
  for (int x = 0; x < n; x++) for (int y = 0; y < m; y += 2) for (int z = 1; z <= p; z++)
    if (z != 3 && b[x][y][z - 1] != x * 10000 + y * 10 + z) { printf("b %d %d %d\n", x, y, z); return 1; }
  long long want = 0; for (int x = 0; x < n; x++) for (int y = 3; y < m - 3; y++) want += x * y;
  if (s != want) { printf("s %lld %lld\n", s, want); return 1; }
  static int c[37][53];
  #pragma acc parallel loop collapse(2) num_gangs(7) copy(c)
  for (int x = 0; x < n; x++)
    for (int y = 0; y < m; y++) c[x][y] += x * m + y + 1;
  for (int x = 0; x < n; x++) for (int y = 0; y < m; y++)
    if (c[x][y] != x * m + y + 1) { printf("c %d %d = %d\n", x, y, c[x][y]); return 1; }
  puts("ok"); return 0;
}
