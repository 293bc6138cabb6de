/* Loops over 64-bit unsigned variables whose range lies past 2^63, as hashes, addresses and
 * counters of long runs have it, upward and downward, alone and collapsed: the iteration
 * count is the bounds' difference, and each value wraps as the variable's type does. acc had
 * counted in `long long`, where such bounds are negative, and ran no iteration. */
#include <stdint.h>
#include <stdio.h>

#define N 100

int main(void) {
  const uint64_t base = UINT64_C(9223372036854775807) - 10;
  int up[N], down[N], grid[4][N];
#pragma acc parallel loop copyout(up)
  for (uint64_t i = base; i < base + N; i++)
    up[i - base] = (int)(i % 1000);
#pragma acc parallel loop copyout(down)
  for (unsigned long long i = base + N; i > base; i--)
    down[i - base - 1] = (int)(i - base);
#pragma acc parallel loop collapse(2) copyout(grid)
  for (int r = 0; r < 4; r++)
    for (uint64_t c = base; c < base + N; c++)
      grid[r][c - base] = r + (int)(c - base);
  int errors = 0;
  for (int k = 0; k < N; k++) {
    if (up[k] != (int)((base + (uint64_t)k) % 1000))
      errors++;
    if (down[k] != k + 1)
      errors++;
    for (int r = 0; r < 4; r++)
      if (grid[r][k] != r + k)
        errors++;
  }
  printf("%s (%d wrong)\n", errors ? "FAILED" : "ok", errors);
  return errors != 0;
}
