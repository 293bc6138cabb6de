/* What C allows and C++ does not, in code that runs on the device: a `void *` assigned to a
 * typed pointer (C converts implicitly, in assignments as in initializers), the storage class
 * `register` in a routine (C++17 reserves the word), and structure,
 * union and enumeration types defined inside a structure, whose tags C gives file scope (C++
 * would scope them to the outer type, so a kernel's `struct cell c` would name nothing).
 * The CUDA module had them as written and NVRTC refused it ("a value of type void * cannot be
 * assigned", "use of the register storage class specifier is not allowed", "incomplete type is
 * not allowed"). */
#include <stdio.h>
#include <stdlib.h>

#define N 64

typedef struct grid {
  struct cell {
    double value;
    enum state { EMPTY, FULL } state;
  } cells[N];
  union number {
    long long bits;
    double real;
  } scale;
} grid;

#pragma acc routine seq
static const double *element(register const void *base, register int i) {
  register const double *typed;
  typed = base;
  return typed + i;
}

#pragma acc routine seq
static double weigh(struct cell c, union number scale) {
  enum state s;
  s = c.state;
  return s == FULL ? c.value * scale.real : 0.0;
}

int main(void) {
  static grid g;
  double data[N], out[N];
  for (int i = 0; i < N; i++) {
    g.cells[i].value = i;
    g.cells[i].state = i % 2 ? FULL : EMPTY;
    data[i] = 2.0 * i;
  }
  g.scale.real = 0.5;
#pragma acc parallel loop copyin(g, data) copyout(out)
  for (int i = 0; i < N; i++) {
    struct cell c = g.cells[i];
    void *raw = data;
    double *row;
    row = raw;
    out[i] = weigh(c, g.scale) + *element(row, i);
  }
  int errors = 0;
  for (int i = 0; i < N; i++) {
    double expected = (i % 2 ? 0.5 * i : 0.0) + 2.0 * i;
    if (out[i] != expected) {
      if (errors < 5)
        printf("out[%d] = %g, expected %g\n", i, out[i], expected);
      errors++;
    }
  }
  printf("%s\n", errors ? "FAILED" : "ok");
  return errors != 0;
}
