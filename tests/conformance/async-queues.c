/* Asynchronous queues with dependent work: a blocked pipeline in which each
 * block is sent, computed and brought back on its own queue (three queues
 * in rotation), compute constructs of every kind with async, a chain of
 * dependent kernels on one queue (queue order: kernels, parallel loop,
 * then a serial prefix sum), work on one queue that
 * waits for another with the wait clause (also for two, in two wait clauses, which
 * acc had refused), and a final wait. */
#include <stdio.h>
#include <stdlib.h>

#define N 1200
#define BS 100

int main(void) {
  int n = N;
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  static long k1[N], k2[N];
  long s = 0;
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = 0.0; }

  #pragma acc data create(a[0:n], b[0:n]) copyout(k1, k2) copy(s)
  {
    for (int blk = 0; blk < n / BS; blk++) {
      int lo = blk * BS;
      #pragma acc update device(a[lo:BS]) async(blk % 3 + 1)
      #pragma acc parallel loop present(a[0:n], b[0:n]) async(blk % 3 + 1)
      for (int i = lo; i < lo + BS; i++)
        b[i] = a[i] * a[i];
      #pragma acc update self(b[lo:BS]) async(blk % 3 + 1)
    }

    /* same queue: these run in order */
    #pragma acc kernels async(7)
    {
      for (int i = 0; i < N; i++)
        k1[i] = i;
    }
    #pragma acc parallel loop async(7)
    for (int i = 0; i < N; i++)
      k1[i] = k1[i] * 2 + 1;
    #pragma acc serial async(7)
    {
      for (int i = 1; i < N; i++)
        k1[i] += k1[i - 1];
    }
    /* queue 8 waits for queue 7 */
    #pragma acc parallel loop async(8) wait(7)
    for (int i = 0; i < N; i++)
      k2[i] = k1[i] + 1;
    #pragma acc parallel loop reduction(+:s) async(9) wait(7) wait(8)
    for (int i = 0; i < N; i++)
      s += k2[i];
    #pragma acc wait
  }

  long rs = 0;
  for (int i = 0; i < n; i++) {
    long rk1 = (i + 1L) * (i + 1L), rk2 = rk1 + 1;
    rs += rk2;
    if (b[i] != (double)i * i || k1[i] != rk1 || k2[i] != rk2) {
      printf("async-queues: i=%d b=%g k1=%ld k2=%ld\n", i, b[i], k1[i], k2[i]);
      return 1;
    }
  }
  if (s != rs) { printf("async-queues: s = %ld, expected %ld\n", s, rs); return 1; }
  printf("async-queues: ok\n");
  free(a); free(b);
  return 0;
}
