/* A variable named in two data clauses of one directive that amount to one, as real code
 * writes them: `copyin(x) copyout(x)` is `copy(x)`, `create(c) copyout(c)` is `copyout(c)`
 * (a matrix product's result), `create(zero: b) copyout(b)` is a zero-filled `copyout(b)`,
 * `copy(y) copyin(y)` is `copy(y)`. OpenACC 3.3 does not forbid it and nvc takes it; GCC
 * refuses it, and acc's translation to OpenMP keeps Clacc's one data attribute a variable
 * (OpenMP maps it once). On separate memory the zero fill shows (new device memory is not
 * zero there). */
#include <stdio.h>

enum { N = 64 };

int main(void) {
  double x[N], c[N], b[N], y[N];
  for (int i = 0; i < N; i++) {
    x[i] = i;
    c[i] = -1;
    b[i] = 0;
    y[i] = 2 * i;
  }
#pragma acc parallel loop copyin(x) copyout(x)
  for (int i = 0; i < N; i++) x[i] += 1;
#pragma acc data create(c[0:N]) copyout(c[0:N]) copyin(x)
  {
#pragma acc parallel loop present(c, x)
    for (int i = 0; i < N; i++) c[i] = x[i] * x[i];
  }
#pragma acc parallel create(zero: b) copyout(b)
  {
#pragma acc loop
    for (int i = 0; i < N; i += 2) b[i] = i;
  }
#pragma acc parallel loop copy(y) copyin(y)
  for (int i = 0; i < N; i++) y[i] += 3;
  int bad = 0;
  for (int i = 0; i < N; i++) {
    bad += x[i] != i + 1;
    bad += c[i] != (double)(i + 1) * (i + 1);
    bad += b[i] != (i % 2 == 0 ? i : 0);
    bad += y[i] != 2 * i + 3;
  }
  if (bad) {
    printf("data-clause-merges: %d wrong\n", bad);
    return 1;
  }
  printf("data-clause-merges: ok\n");
  return 0;
}
