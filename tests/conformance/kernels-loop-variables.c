/* Loop variables declared before the loop, in the C89 style of much real code: in `kernels`,
 * the variable of a loop whose iterations run in parallel is each iteration's own (OpenACC 3.3
 * 2.6.1), whether the loop has a `loop` directive or the dependence test parallelized it, and
 * whether the variable is declared before the region (where a scalar's implicit data clause is
 * `copy`) or inside it (where a later loop's kernel has no declaration of its own). With one
 * shared copy, every chunk writes `i` at once and elements go missing. A region's own scalar
 * that a later statement uses reaches it too. (An inner loop's counter declared before the
 * region is `private` here, as OpenACC asks; acc also makes it each iteration's own without
 * the clause, which `crates/acc-cli/tests/cc.rs` checks, but OpenMP would share it.) A loop
 * with no level that every gang runs has its own variable in each. */
#include <stdio.h>
#include <stdlib.h>

#define N 200000

static int count_wrong(const int *a, int want) {
  int bad = 0;
  for (int k = 0; k < N; k++) bad += a[k] != want;
  return bad;
}

int main(void) {
  int i, k;
  int *a = calloc(N, sizeof(int));
  int *b = calloc(N, sizeof(int));
  int *c = calloc(N, sizeof(int));
  int bad = 0;

  /* A loop directive, the variable declared before the region. */
#pragma acc kernels copy(a[0:N])
  {
#pragma acc loop independent private(k)
    for (i = 0; i < N; i++) {
      for (k = 0; k < 8; k++) a[i] += 1;
    }
  }
  bad += count_wrong(a, 8);

  /* A loop the dependence test parallelizes, no directive. */
#pragma acc kernels copy(b[0:N])
  for (i = 0; i < N; i++) {
    for (int kk = 0; kk < 4; kk++) b[i] += 2;
  }
  bad += count_wrong(b, 8);

  /* The variable declared inside the region, used by two loops (two kernels). */
#pragma acc kernels copy(a[0:N], c[0:N])
  {
    int j;
#pragma acc loop independent
    for (j = 0; j < N; j++) c[j] = a[j] + 1;
#pragma acc loop independent
    for (j = 0; j < N; j++) a[j] = 2 * c[j];
  }
  bad += count_wrong(c, 9) + count_wrong(a, 18);

  /* `kernels loop` with the variable declared before it. */
#pragma acc kernels loop copy(b[0:N]) private(k)
  for (i = 0; i < N; i++) {
    for (k = 0; k < 3; k++) b[i] -= 1;
  }
  bad += count_wrong(b, 5);

  /* A scalar declared in the region, changed by a statement and bounding a later loop: the
   * statements are not kernels of their own then, or the loop's would not have it. */
#pragma acc kernels copy(c[0:N])
  {
    int half = N / 2;
    half += 1;
    for (int m = 0; m < half; m++) c[m] = -1;
  }
  for (k = 0; k < N; k++) bad += c[k] != (k < N / 2 + 1 ? -1 : 9);

  /* A loop with no level around a gang loop (lattice-QCD's `unitarize_conf`): every gang runs
   * it, each with its own `k` (one shared copy, stepped by every gang, skips iterations). */
  {
    static int d[8 * 16 * 32];
#pragma acc kernels copy(d)
#pragma acc loop independent
    for (k = 0; k < 8; k++) {
#pragma acc loop independent gang
      for (i = 0; i < 16; i++) {
#pragma acc loop independent vector
        for (int l = 0; l < 32; l++) d[(k * 16 + i) * 32 + l] += 1;
      }
    }
    for (k = 0; k < 8 * 16 * 32; k++) bad += d[k] != 1;
  }

  free(a);
  free(b);
  free(c);
  if (bad) {
    printf("kernels-loop-variables: %d wrong elements\n", bad);
    return 1;
  }
  printf("kernels-loop-variables: ok\n");
  return 0;
}
