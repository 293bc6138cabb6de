/* Reductions on a composite variable (OpenACC 2.7+): reduction(+:s) on a
 * struct of arithmetic members reduces every member; reduction(max:) on a
 * struct holding an array; a struct whose type the function declares (the
 * combiners acc writes at file scope declare it again), whole and by member. */
#include <stdio.h>

#define N 400

struct stats { long count; long sum; double wsum; };
struct peaks { int m[3]; };

int main(void) {
  static int v[N];
  struct stats s = {0, 0, 0.0};
  struct peaks p = {{-1, -1, -1}};
  for (int i = 0; i < N; i++) v[i] = (i * 29) % 83;

  #pragma acc parallel loop copyin(v) reduction(+:s)
  for (int i = 0; i < N; i++) {
    s.count += 1;
    s.sum += v[i];
    s.wsum += v[i] * 0.5;
  }

  #pragma acc parallel loop copyin(v) reduction(max:p)
  for (int i = 0; i < N; i++)
    p.m[i % 3] = v[i] > p.m[i % 3] ? v[i] : p.m[i % 3];

  struct stats r = {0, 0, 0.0};
  struct peaks rp = {{-1, -1, -1}};
  for (int i = 0; i < N; i++) {
    r.count += 1;
    r.sum += v[i];
    r.wsum += v[i] * 0.5;
    rp.m[i % 3] = v[i] > rp.m[i % 3] ? v[i] : rp.m[i % 3];
  }
  if (s.count != r.count || s.sum != r.sum || s.wsum != r.wsum) {
    printf("reduction-composite: {%ld, %ld, %g}, expected {%ld, %ld, %g}\n", s.count, s.sum,
           s.wsum, r.count, r.sum, r.wsum);
    return 1;
  }
  for (int k = 0; k < 3; k++)
    if (p.m[k] != rp.m[k]) { printf("reduction-composite: p.m[%d] = %d, expected %d\n", k, p.m[k], rp.m[k]); return 1; }

  struct local { double x, y; } l = {0, 0}, lm = {0, 1};
  #pragma acc parallel loop copyin(v) reduction(+:l)
  for (int i = 0; i < N; i++) {
    l.x += v[i];
    l.y += 1;
  }
  #pragma acc parallel loop copyin(v) reduction(+:lm.x)
  for (int i = 0; i < N; i++)
    lm.x += 2.0 * v[i];
  if (l.x != r.sum || l.y != N || lm.x != 2.0 * r.sum || lm.y != 1) {
    printf("reduction-composite: local {%g, %g} {%g, %g}, expected {%ld, %d} {%ld, 1}\n", l.x,
           l.y, lm.x, lm.y, r.sum, N, 2 * r.sum);
    return 1;
  }
  printf("reduction-composite: ok\n");
  return 0;
}
