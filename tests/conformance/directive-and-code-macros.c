/* Macros that expand to a directive together with the code it applies to: a loop header
 * (`PAR_FOR(i, n) { … }`), a whole reduction loop written over several lines, and a
 * `parallel` region whose `loop` directive and loop come from one macro (the style of GCC's
 * OpenACC reduction tests, `_Pragma (` spaced as there). The compiler applies each directive
 * to the expansion's code, so acc analyses and lowers the file with those uses expanded; it
 * had refused them. */
#include <stdio.h>

#define N 100
#define PRAGMA(x) _Pragma (#x)
#define PAR_FOR(i, n) PRAGMA(acc parallel loop copy(a[0:n])) for (int i = 0; i < (n); i++)
#define SUM_INTO(s, i, n, expr)                                                           \
  PRAGMA(acc parallel loop reduction(+ : s) copyin(a[0:n]))                               \
  for (int i = 0; i < (n); i++)                                                           \
  s += (expr)
#define CHECK_REDUCTION(op, res, init, i, n, apply)                                       \
  {                                                                                       \
    res = (init);                                                                         \
    PRAGMA(acc parallel copy(res) copyin(a[0:n]))                                         \
    PRAGMA(acc loop reduction(op : res))                                                  \
    for (int i = 0; i < (n); i++)                                                         \
      res = apply;                                                                        \
  }

int main(void) {
  int n = N;
  double a[N];
  double sum = 0.0, largest = 0.0;
  for (int i = 0; i < n; i++)
    a[i] = i;
  PAR_FOR(i, n) {
    a[i] *= 2;
  }
  SUM_INTO(sum, k,
           n, a[k] + 1);
  CHECK_REDUCTION(max, largest, -1.0, j, n, (a[j] > largest ? a[j] : largest));
  int errors = 0;
  for (int i = 0; i < n; i++)
    if (a[i] != 2 * i)
      errors++;
  if (sum != N * (N - 1) + N || largest != 2 * (N - 1))
    errors++;
  printf("%s (sum %g, largest %g)\n", errors ? "FAILED" : "ok", sum, largest);
  return errors != 0;
}
