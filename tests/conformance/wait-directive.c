/* The wait directive: wait on one queue, on a list of queues, on all
 * queues (no argument), and wait with async (the wait itself is queued:
 * work on queue 5 starts only after queues 1 and 2 finish); the wait
 * clause on compute constructs with one and several queues; async with a
 * run-time queue number and async without an argument. */
#include <stdio.h>

#define N 400

int main(void) {
  static double a[N], b[N], c[N], d[N];
  int q = 3;
  for (int i = 0; i < N; i++) { a[i] = i; b[i] = 2 * i; c[i] = 0; d[i] = 0; }

  #pragma acc data copy(a, b, c, d)
  {
    #pragma acc parallel loop async(1)
    for (int i = 0; i < N; i++)
      a[i] += 1.0;
    #pragma acc parallel loop async(2)
    for (int i = 0; i < N; i++)
      b[i] += 2.0;
    #pragma acc wait(1, 2) async(5)
    #pragma acc parallel loop async(5)
    for (int i = 0; i < N; i++)
      c[i] = a[i] + b[i];
    #pragma acc wait(5)

    #pragma acc parallel loop async(q)
    for (int i = 0; i < N; i++)
      a[i] *= 2.0;
    #pragma acc parallel loop async
    for (int i = 0; i < N; i++)
      b[i] *= 3.0;
    #pragma acc parallel loop wait(q) async(4)
    for (int i = 0; i < N; i++)
      d[i] = a[i];
    #pragma acc wait
    #pragma acc parallel loop wait(q, 4)
    for (int i = 0; i < N; i++)
      d[i] += b[i] + c[i];
    #pragma acc update self(d) async(6)
    #pragma acc wait(6)
  }

  for (int i = 0; i < N; i++) {
    double ra = (i + 1.0) * 2.0, rb = (2.0 * i + 2.0) * 3.0, rc = (i + 1.0) + (2.0 * i + 2.0);
    if (a[i] != ra || b[i] != rb || c[i] != rc || d[i] != ra + rb + rc) {
      printf("wait-directive: i=%d a=%g b=%g c=%g d=%g (queue q=%d)\n", i, a[i], b[i], c[i], d[i], q);
      return 1;
    }
  }
  printf("wait-directive: ok\n");
  return 0;
}
