/* firstprivate on parallel, serial and combined constructs: scalars, a
 * fixed-size array and a struct are initialized from the value the host
 * variable has when the region starts; implicit firstprivate of scalars;
 * re-running the region after the host changes the variable sees the new
 * value. The regions only read the firstprivate variables, so the answer is
 * the same with the directives ignored. */
#include <stdio.h>

#define N 200

struct coef { double scale; int shift; };

int main(void) {
  static double a[N], b[N], c[N], d[N];
  static int e[N];
  double base = 5.0;
  int table[4] = {3, 1, 4, 1};
  struct coef cf = {2.5, 7};
  int off = 11;
  for (int i = 0; i < N; i++) a[i] = i * 0.5;

  #pragma acc parallel firstprivate(base, table, cf) copyin(a) copyout(b)
  {
    #pragma acc loop gang vector
    for (int i = 0; i < N; i++)
      b[i] = (a[i] + base) * cf.scale + table[i % 4] + cf.shift;
  }

  base = -1.0;
  #pragma acc parallel loop firstprivate(base) copyin(a) copyout(c)
  for (int i = 0; i < N; i++)
    c[i] = a[i] * base;

  /* off is implicitly firstprivate */
  #pragma acc parallel loop copyin(a) copyout(d)
  for (int i = 0; i < N; i++)
    d[i] = a[i] + off;

  #pragma acc serial firstprivate(table) copyout(e)
  {
    for (int i = 0; i < N; i++)
      e[i] = table[i % 4] * i;
  }

  for (int i = 0; i < N; i++) {
    double rb = (a[i] + 5.0) * 2.5 + table[i % 4] + 7;
    if (b[i] != rb || c[i] != -a[i] || d[i] != a[i] + 11 || e[i] != table[i % 4] * i) {
      printf("firstprivate: i=%d b=%g c=%g d=%g e=%d\n", i, b[i], c[i], d[i], e[i]);
      return 1;
    }
  }
  printf("firstprivate: ok\n");
  return 0;
}
