/* Arrays whose first extent their initializer decides (`int t[] = {…}`, `char s[] = "…"`,
   `double m[][2] = {{…}, …}`, designated `{[2] = 30, [0] = 10, 20}`) used in kernels, `sizeof`
   included, in the kernel's text or in a macro's: the kernel has their complete types. */
#include <stdio.h>
typedef struct {
  int nvar;
  double gamma;
} gas_t;
static int tab[] = {[2] = 30, [0] = 10, 20};
static gas_t gases[] = {[1] = {.nvar = 6, .gamma = 1.3}, [0] = {.nvar = 5, .gamma = 1.4}};
#define NG (int)(sizeof gases / sizeof gases[0])
int main(void) {
  int t[] = {3, 1, 4, 1, 5};
  char s[] = "openacc";
  double m[][2] = {{1, 2}, {3, 4}, {5, 6}};
  int out[12];
  double rows = 0;
  #pragma acc parallel loop copyin(t, s, m) copyout(out) reduction(+:rows)
  for (int i = 0; i < 12; i++) {
    out[i] = t[i % (int)(sizeof t / sizeof t[0])] + (int)sizeof s + s[i % 7];
    rows += (double)(sizeof m / sizeof m[0]) * m[i % 3][1];
  }
  for (int i = 0; i < 12; i++)
    if (out[i] != t[i % 5] + 8 + s[i % 7]) { printf("initializer-sized-arrays: out[%d] = %d\n", i, out[i]); return 1; }
  if (rows != 3.0 * 4 * (2 + 4 + 6)) { printf("initializer-sized-arrays: rows %g\n", rows); return 1; }
  #pragma acc parallel loop copyout(out)
  for (int i = 0; i < 12; i++) out[i] = tab[i % (int)(sizeof tab / sizeof tab[0])] + gases[i % NG].nvar;
  for (int i = 0; i < 12; i++)
    if (out[i] != (i % 3 + 1) * 10 + 5 + i % 2) { printf("initializer-sized-arrays: designated out[%d] = %d\n", i, out[i]); return 1; }
  printf("initializer-sized-arrays: ok\n");
  return 0;
}
