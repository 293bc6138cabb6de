/* Variables declared by macros used as statements, which only the preprocessor shows: a
 * function-like macro that declares its argument (`parse_arg(nx, …)`, the OpenACC book's
 * stencil codes), an object-like one that declares an array (`DECLARE_WEIGHTS`), one called
 * without its own `;` that brings one (`RESET(q)` then a declaration, which a parser before
 * the preprocessor reads as one declaration, also when what follows is another declaring
 * macro), one whose variables come through `__VA_ARGS__` or `##`, and one inside a compute
 * region. acc had reported them undeclared, or left them out of the kernel, whose C then did
 * not compile. */
#include <stdio.h>
#include <stdlib.h>

#define parse_arg(name, text)                                                                   \
  int name = atoi(text);                                                                        \
  if (name <= 0) {                                                                              \
    printf("bad " #name "\n");                                                                  \
    return 2;                                                                                   \
  }
#define DECLARE_WEIGHTS double weights[4] = {1, 2, 3, 4};
#define RESET(x) x = 0;
#define DECLARE_TEMP(t, v) double t = (v)
#define DECLARE_ALL(type, ...) type __VA_ARGS__
#define NAMED(prefix, k) prefix##k

int main(int argc, char **argv) {
  parse_arg(nx, argc > 1 ? argv[1] : "100");
  DECLARE_WEIGHTS
  DECLARE_TEMP(scale, 0.5);
  DECLARE_ALL(int, lo = 1, NAMED(hi, 2) = 3);
  int q = 5;
  RESET(q)
  double total = 0;
  double *a = malloc(nx * sizeof *a);
  int bad = 0;
  /* `nx`, `weights`, `scale`, `lo` and `hi2` reach the kernel implicitly; `q` and `total` by
   * the clause. */
#pragma acc parallel loop copyout(a[0:nx]) reduction(+:total) copyin(q)
  for (int i = 0; i < nx; i++) {
    DECLARE_TEMP(t, weights[i % 4] * 2);
    a[i] = t + q + scale * (hi2 - lo);
    total += t;
  }
  double want = 0;
  for (int i = 0; i < nx; i++) {
    double t = (i % 4 + 1) * 2.0;
    want += t;
    if (a[i] != t + 1) {
      printf("a[%d] = %g, want %g\n", i, a[i], t + 1);
      bad = 1;
      break;
    }
  }
  if (total != want) {
    printf("total = %g, want %g\n", total, want);
    bad = 1;
  }
  free(a);
  if (!bad)
    printf("statement-macro-declarations: ok\n");
  return bad;
}
