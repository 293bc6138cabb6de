/* `const` objects a compute construct reads with no data clause (or in `copy`): a file-scope
 * `static const` table, a function's `static const` table, a `const` struct. They may lie in
 * read-only memory: their implicit copy brings nothing back (C forbids writing them). */
#include <stdio.h>

static const float weights[5] = {0.1f, 0.2f, 0.4f, 0.2f, 0.1f};
struct limits {
  int lo, hi;
};
static const struct limits bounds = {2, 7};

static int clamp_sum(const int *in, int *out, int n) {
  static const int bias[4] = {1, -1, 2, -2};
#pragma acc kernels copyin(in[0:n]) copyout(out[0:n])
  for (int i = 0; i < n; i++) {
    int v = in[i] + bias[i % 4];
    out[i] = v < bounds.lo ? bounds.lo : v > bounds.hi ? bounds.hi : v;
  }
  int total = 0;
  for (int i = 0; i < n; i++) total += out[i];
  return total;
}

int main(void) {
  enum { N = 40 };
  float s[N];
  int in[N], out[N];
#pragma acc parallel loop copyout(s)
  for (int i = 0; i < N; i++) s[i] = weights[i % 5] * i;
#pragma acc parallel loop copy(weights) copyout(s[0:5])
  for (int i = 0; i < 5; i++) s[i] = weights[i];
  for (int i = 0; i < N; i++) in[i] = i % 9;
  int total = clamp_sum(in, out, N);
  int bad = 0, want = 0;
  for (int i = 0; i < N; i++) {
    bad += s[i] != (i < 5 ? weights[i] : weights[i % 5] * i);
    int v = in[i] + (int[]){1, -1, 2, -2}[i % 4];
    want += v < 2 ? 2 : v > 7 ? 7 : v;
  }
  if (bad || total != want) {
    printf("const-data: %d wrong, total %d (want %d)\n", bad, total, want);
    return 1;
  }
  printf("const-data: ok\n");
  return 0;
}
