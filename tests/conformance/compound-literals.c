/* C99's compound literals and designated initializers in routines and kernels, in the style of
 * C code that builds small structs by value (vectors, ranges, complex pairs): `(vec2){a, b}`,
 * `(struct range){.lo = 0, .hi = n}`, a scalar's `(int){3}`, `{.x = …}` in declarations. A
 * GPU's C++ has no compound literals and knows designators only in C++20. */
#include <stdio.h>

typedef struct {
  double x, y;
} vec2;
struct range {
  int lo, hi;
};
struct segment {
  vec2 from, to;
};

#pragma acc routine seq
static vec2 scaled(vec2 v, double by) { return (vec2){v.x * by, v.y * by}; }

#pragma acc routine seq
static double length1(struct segment s) {
  double dx = s.to.x - s.from.x, dy = s.to.y - s.from.y;
  return (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy);
}

#pragma acc routine seq
static int width(int i) {
  struct range r = {.lo = i, .hi = 3 * i};
  struct range s = (struct range){.lo = 1, .hi = i + 1};
  return (r.hi - r.lo) + (s.hi - s.lo) + (int){3};
}

enum { N = 32 };

int main(void) {
  double lengths[N];
  int widths[N];
#pragma acc parallel loop copyout(lengths, widths)
  for (int i = 0; i < N; i++) {
    vec2 a = (vec2){.x = 1.0 * i, .y = 1.0};
    struct segment s = {.from = a, .to = scaled(a, 2.0)};
    lengths[i] = length1(s) + length1((struct segment){(vec2){0.0, 0.0}, (vec2){1.0, 1.0}});
    widths[i] = width(i);
  }
  int bad = 0;
  for (int i = 0; i < N; i++) {
    bad += lengths[i] != i + 1.0 + 2.0;
    bad += widths[i] != 2 * i + i + 3;
  }
  if (bad) {
    printf("compound-literals: %d wrong\n", bad);
    return 1;
  }
  printf("compound-literals: ok\n");
  return 0;
}
