/* Asynchronous routines of the runtime API: acc_async_test and
 * acc_async_test_all (non-zero once the work is done), acc_wait,
 * acc_wait_async (queue 2 waits for queue 1 without blocking the host),
 * acc_wait_all, acc_wait_all_async, the OpenACC 1.0 names acc_async_wait
 * and acc_async_wait_all, and the special queues acc_async_noval and
 * acc_async_sync in async clauses. */
#include <openacc.h>
#include <stdio.h>

#define N 400

int main(void) {
  static double a[N], b[N], c[N];
  for (int i = 0; i < N; i++) { a[i] = i; b[i] = 0.0; c[i] = 0.0; }
  int bad = 0;

  #pragma acc data copy(a, b, c)
  {
    #pragma acc parallel loop async(1)
    for (int i = 0; i < N; i++)
      a[i] += 1.0;
    acc_wait_async(1, 2);
    #pragma acc parallel loop async(2)
    for (int i = 0; i < N; i++)
      b[i] = a[i] * 2.0;
    acc_wait(2);
    if (!acc_async_test(1) || !acc_async_test(2)) { printf("api-async: queues 1/2 not done after acc_wait\n"); bad = 1; }

    #pragma acc parallel loop async(acc_async_noval)
    for (int i = 0; i < N; i++)
      c[i] = b[i] + 1.0;
    #pragma acc parallel loop async(3) wait(acc_async_noval)
    for (int i = 0; i < N; i++)
      c[i] *= 2.0;
    acc_wait_all();
    if (!acc_async_test_all()) { printf("api-async: work pending after acc_wait_all\n"); bad = 1; }

    #pragma acc parallel loop async(acc_async_sync)
    for (int i = 0; i < N; i++)
      a[i] -= 1.0;
    #pragma acc parallel loop async(4)
    for (int i = 0; i < N; i++)
      b[i] += 1.0;
    acc_wait_all_async(5);
    #pragma acc parallel loop async(5)
    for (int i = 0; i < N; i++)
      b[i] += a[i];
    acc_async_wait(5);
    #pragma acc parallel loop async(6)
    for (int i = 0; i < N; i++)
      c[i] += 1.0;
    acc_async_wait_all();
  }
  if (bad) return 1;
  for (int i = 0; i < N; i++) {
    double rb = (i + 1.0) * 2.0 + 1.0 + i, rc = ((i + 1.0) * 2.0 + 1.0) * 2.0 + 1.0;
    if (a[i] != i || b[i] != rb || c[i] != rc) {
      printf("api-async: i=%d a=%g b=%g c=%g\n", i, a[i], b[i], c[i]);
      return 1;
    }
  }
  printf("api-async: ok\n");
  return 0;
}
