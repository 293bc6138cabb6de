/* A subarray's bounds are evaluated once, when the clause is met (OpenACC 3.3 2.7.1, as C
 * evaluates a call's arguments once): a lower bound with a side effect (`a[next():n]`,
 * `b[k++][0:m]`) runs once per construct, and a bound variable the `data` region changes
 * afterwards (`copy(a[lo:n])`, then `lo = 0`) does not move the section the region mapped,
 * which the kernels inside find the device copy through. acc evaluated the start three times
 * in a compute construct, and again at each launch inside a data region. (At most once: with
 * the directives ignored, or through an OpenMP that maps nothing on the host, it is never.) */
#include <stdio.h>
#define N 16
static int calls;
static int first(void) {
  calls++;
  return 4;
}
struct grid {
  double *cells;
  int n;
};
int main(void) {
  double a[N], b[3][N];
  struct grid g;
  double store[N];
  g.cells = store;
  g.n = N;
  for (int i = 0; i < N; i++) {
    a[i] = i;
    store[i] = 2 * i;
    for (int r = 0; r < 3; r++)
      b[r][i] = 10 * r + i;
  }
  int bad = 0;
  /* A bound with a side effect, on a compute construct: the data table, the kernel's
   * argument and its offset all take the one value. */
#pragma acc parallel loop copy(a[first():8])
  for (int i = 4; i < 12; i++)
    a[i] *= 2;
  if (calls > 1) {
    printf("first() ran %d times for one parallel loop\n", calls);
    bad = 1;
  }
  /* A subscript with a side effect, on a data region around a kernel. */
  int k = 1;
#pragma acc data copy(b[k++][0:N])
  {
#pragma acc parallel loop present(b[1:1][0:N])
    for (int i = 0; i < N; i++)
      b[1][i] += 1;
  }
  if (k > 2) {
    printf("k++ in a subscript ran %d times\n", k - 1);
    bad = 1;
  }
  /* The region's bound variable changes inside it: the kernel still finds the part mapped. */
  int lo = 4;
#pragma acc data copy(a[lo:8])
  {
    lo = 0;
    (void)lo;
#pragma acc parallel loop
    for (int i = 4; i < 12; i++)
      a[i] += 1;
  }
  /* A struct member's section (which attaches the member) whose bound has a side effect. */
  calls = 0;
#pragma acc parallel loop copy(g.cells[first():8])
  for (int i = 4; i < 12; i++)
    g.cells[i] += 1;
  if (calls > 1) {
    printf("first() ran %d times for a member's section\n", calls);
    bad = 1;
  }
  for (int i = 0; i < N; i++) {
    double want_a = i >= 4 && i < 12 ? 2 * i + 1 : i;
    double want_g = i >= 4 && i < 12 ? 2 * i + 1 : 2 * i;
    if (a[i] != want_a || store[i] != want_g || b[1][i] != 10 + i + 1 || b[0][i] != i) {
      printf("element %d: a %g (want %g), cells %g (want %g), b[1] %g\n", i, a[i], want_a,
             store[i], want_g, b[1][i]);
      bad = 1;
    }
  }
  if (!bad)
    printf("section-bounds-once: ok\n");
  return bad;
}
