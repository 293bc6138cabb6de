/* reduction on _Bool with every operator: + and | and max act as "any",
 * * and & and min as "all", ^ as parity, && and ||. Three inputs: all
 * true, all false, mixed. */
#include <stdbool.h>
#include <stdio.h>

#define N 150

static int run(const char *what, const bool *v) {
  bool sum = 0, prod = 1, mx = 0, mn = 1, band = 1, bor = 0, bxor = 0, land = 1, lor = 0;
  #pragma acc parallel loop copyin(v[0:N]) reduction(+:sum) reduction(*:prod) reduction(max:mx) \
      reduction(min:mn) reduction(&:band) reduction(|:bor) reduction(^:bxor) reduction(&&:land) \
      reduction(||:lor)
  for (int i = 0; i < N; i++) {
    sum += v[i];
    prod = prod * v[i] != 0;
    mx = v[i] > mx ? v[i] : mx;
    mn = v[i] < mn ? v[i] : mn;
    band &= v[i];
    bor |= v[i];
    bxor ^= v[i];
    land = land && v[i];
    lor = lor || v[i];
  }
  bool rsum = 0, rprod = 1, rmx = 0, rmn = 1, rband = 1, rbor = 0, rbxor = 0, rland = 1, rlor = 0;
  for (int i = 0; i < N; i++) {
    rsum += v[i];
    rprod = rprod * v[i] != 0;
    rmx = v[i] > rmx ? v[i] : rmx;
    rmn = v[i] < rmn ? v[i] : rmn;
    rband &= v[i];
    rbor |= v[i];
    rbxor ^= v[i];
    rland = rland && v[i];
    rlor = rlor || v[i];
  }
  if (sum != rsum || prod != rprod || mx != rmx || mn != rmn || band != rband || bor != rbor ||
      bxor != rbxor || land != rland || lor != rlor) {
    printf("reduction-bool: %s: + %d/%d * %d/%d max %d/%d min %d/%d & %d/%d | %d/%d ^ %d/%d "
           "&& %d/%d || %d/%d\n", what, sum, rsum, prod, rprod, mx, rmx, mn, rmn, band, rband,
           bor, rbor, bxor, rbxor, land, rland, lor, rlor);
    return 1;
  }
  return 0;
}

int main(void) {
  bool all[N], none[N], mixed[N];
  for (int i = 0; i < N; i++) {
    all[i] = true;
    none[i] = false;
    mixed[i] = i % 3 == 0 || i % 7 == 0;
  }
  int bad = run("all true", all) | run("all false", none) | run("mixed", mixed);
  if (bad) return 1;
  printf("reduction-bool: ok\n");
  return 0;
}
