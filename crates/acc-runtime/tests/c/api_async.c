/* Async queues: ordering, wait, test, wait_async, wait_any, default async. */
#include <openacc.h>
#include <stdio.h>

static int failures = 0;
#define CHECK(cond)                                                          \
  do {                                                                       \
    if (!(cond)) {                                                           \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                            \
    }                                                                        \
  } while (0)

enum { N = 1 << 16 };
static double a[N], b[N];

int main(void) {
  for (int i = 0; i < N; i++) a[i] = i;

  /* A queue runs in order: copyin, overwrite on the device, copy back. */
  acc_copyin_async(a, sizeof a, 1);
  for (int i = 0; i < N; i++) b[i] = 2.0 * i;
  acc_update_self_async(a, sizeof a, 1);
  acc_wait(1);
  CHECK(acc_async_test(1));
  CHECK(a[N - 1] == N - 1);
  acc_memcpy_to_device_async(acc_deviceptr(a), b, sizeof b, 1);
  acc_copyout_async(a, sizeof a, 1);
  acc_wait(1);
  CHECK(a[3] == 6.0 && a[N - 1] == 2.0 * (N - 1));

  /* Queue 2 waits for queue 1 without blocking the host. */
  for (int i = 0; i < N; i++) a[i] = i;
  acc_copyin_async(a, sizeof a, 1);
  acc_wait_async(1, 2);
  acc_update_self_async(a, sizeof a, 2);
  acc_wait(2);
  CHECK(a[N - 1] == N - 1);
  acc_delete(a, sizeof a);

  /* acc_async_noval is the default queue, queue 0 at first; it can be changed per thread. */
  CHECK(acc_get_default_async() == 0);
  acc_copyin_async(a, sizeof a, acc_async_noval);
  acc_wait(acc_async_noval);
  CHECK(acc_is_present(a, sizeof a));
  acc_set_default_async(5);
  CHECK(acc_get_default_async() == 5);
  acc_delete_async(a, sizeof a, acc_async_noval); /* goes to queue 5 */
  acc_wait(5);
  acc_set_default_async(acc_async_noval);
  if (acc_get_device_type() == acc_device_host_discrete) CHECK(!acc_is_present(a, sizeof a));

  /* acc_async_sync runs before returning. */
  acc_copyin_async(a, sizeof a, acc_async_sync);
  CHECK(acc_is_present(a, sizeof a));
  acc_delete(a, sizeof a);

  int qs[3] = {acc_async_sync, 7, 8};
  acc_copyin_async(b, sizeof b, 8);
  int i = acc_wait_any(3, qs);
  CHECK(i == 1 || i == 2);
  int none[2] = {acc_async_sync, acc_async_sync};
  CHECK(acc_wait_any(2, none) == -1);
  acc_wait_all_async(9);
  acc_wait_all();
  CHECK(acc_async_test_all());
  CHECK(acc_async_test_device(8, 0) && acc_async_test_all_device(0));
  acc_wait_device(8, 0);
  acc_wait_device_async(8, 9, 0);
  acc_wait_all_device(0);
  acc_wait_all_device_async(9, 0);
  acc_async_wait(9);
  acc_async_wait_all();
  acc_delete(b, sizeof b);

  if (failures) {
    fprintf(stderr, "api_async: %d failure(s)\n", failures);
    return 1;
  }
  printf("api_async ok\n");
  return 0;
}
