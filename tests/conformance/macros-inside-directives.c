/* Macros inside directives as the preprocessor replaces them: an empty definition written with
 * trailing blanks (acc had read the next line as its replacement), object-like macros that
 * give a clause its list, a section, an empty item tail or the reduction operator, and the
 * `_Pragma` operator's text, replaced as a `#pragma` line's is (a macro naming clauses, or the
 * directive). acc had refused each as an unknown clause, operator or undeclared name. */
#include <stdio.h>

#define N 64
/* The next definition ends in a blank, on purpose. */
#define NOTHING 
#define WHOLE_A a[0:N]
#define BOTH a, b
#define SECTION [0:N]
#define SUM +
#define LARGEST max
#define GANGS num_gangs(4)
#define PARALLEL_LOOP parallel loop

int main(void) {
  int a[N], b[N];
  double total = 0.0;
  int peak = 0;
#pragma acc parallel loop copyout(WHOLE_A) NOTHING
  for (int i = 0; i < N; i++)
    a[i] = i;
#pragma acc parallel loop copy(BOTH)
  for (int i = 0; i < N; i++) {
    b[i] = a[i] * 2;
    a[i] += 1;
  }
#pragma acc parallel loop copyin(a SECTION NOTHING) reduction(SUM : total) reduction(LARGEST : peak)
  for (int i = 0; i < N; i++) {
    total += a[i];
    if (a[i] > peak)
      peak = a[i];
  }
  _Pragma("acc PARALLEL_LOOP copy(b) GANGS")
  for (int i = 0; i < N; i++)
    b[i] += 1;
  int errors = 0;
  for (int i = 0; i < N; i++)
    if (a[i] != i + 1 || b[i] != 2 * i + 1)
      errors++;
  if (total != N * (N + 1) / 2 || peak != N)
    errors++;
  printf("%s (total %g, peak %d)\n", errors ? "FAILED" : "ok", total, peak);
  return errors != 0;
}
