/* A routine that reads a file-scope variable no `declare` directive names
 * (OpenACC 3.3 2.15.1 asks for one). The CPU devices share the host's copy, so
 * the answer is right there; the variable has no device copy, so the file's
 * kernels get no GPU version (`acc cc` warns, saying why), and on a GPU the
 * runtime stops with that message instead of reading memory that is not there. */
#include <stdio.h>

#define N 40

static int table[4] = {3, 1, 4, 1};

#pragma acc routine seq
static int lookup(int i) { return table[i % 4]; }

int main(void) {
  int x[N];
  #pragma acc parallel loop copyout(x)
  for (int i = 0; i < N; i++) x[i] = lookup(i) * i;
  for (int i = 0; i < N; i++)
    if (x[i] != table[i % 4] * i) {
      printf("routine-undeclared-global: x[%d] = %d\n", i, x[i]);
      return 1;
    }
  printf("routine-undeclared-global: ok\n");
  return 0;
}
