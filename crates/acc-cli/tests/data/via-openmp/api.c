/* The OpenACC API on the current device, printed line by line: acc cc's runtime and
 * acc cc --via=openmp (OpenMP's host fallback here) must print the same. Exits 1 on an answer
 * that is wrong in either. */
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>

static int wrong;

static void check(const char *what, int ok) {
  printf("%s: %s\n", what, ok ? "yes" : "no");
  if (!ok)
    wrong++;
}

int main(void) {
  enum { N = 256 };
  size_t bytes = N * sizeof(double);
  double *a = malloc(bytes), *b = malloc(bytes);
  for (int i = 0; i < N; i++)
    a[i] = i, b[i] = 0;

  acc_init(acc_device_host);
  check("one host device", acc_get_num_devices(acc_device_host) == 1);
  check("the current device is the host", acc_get_device_type() == acc_device_host);
  check("device number 0", acc_get_device_num(acc_device_host) == 0);

  double *da = acc_copyin(a, bytes);
  check("acc_copyin gives a device address", da != NULL);
  check("acc_is_present after acc_copyin", acc_is_present(a, bytes));
  check("acc_is_present of a part", acc_is_present(a + 10, 10 * sizeof(double)));
  check("acc_deviceptr is acc_copyin's address", acc_deviceptr(a) == da);
  check("acc_deviceptr of an element", acc_deviceptr(a + 5) == (void *)(da + 5));
  check("acc_hostptr goes back", acc_hostptr(da) == a);

  double sum = 0;
#pragma acc parallel loop present(a[0:N]) reduction(+:sum)
  for (int i = 0; i < N; i++) {
    a[i] *= 2;
    sum += a[i];
  }
  check("a kernel on present data", sum == (double)N * (N - 1));
  acc_update_self(a, bytes);
  check("acc_update_self", a[N - 1] == 2.0 * (N - 1));
  acc_copyout(a, bytes);
  check("acc_copyout", a[7] == 14.0);

  acc_create(b, bytes);
  check("acc_create", acc_is_present(b, bytes));
  acc_memcpy_to_device(acc_deviceptr(b), a, bytes);
  acc_update_self(b, bytes);
  check("acc_memcpy_to_device", b[3] == 6.0);
  acc_delete(b, bytes);

  void *raw = acc_malloc(64);
  check("acc_malloc", raw != NULL);
  acc_free(raw);

  int on_host = 0;
#pragma acc parallel num_gangs(1) copyout(on_host)
  on_host = acc_on_device(acc_device_host);
  check("acc_on_device(acc_device_host) in a construct", on_host);

  acc_set_default_async(3);
  check("acc_set_default_async", acc_get_default_async() == 3);
  acc_copyin_async(b, bytes, 3);
  acc_wait(3);
  check("acc_copyin_async then acc_wait", acc_is_present(b, bytes));
  acc_delete_finalize(b, bytes);
  check("acc_async_test_all when idle", acc_async_test_all() != 0);
  acc_shutdown(acc_device_host);
  free(a);
  free(b);
  return wrong != 0;
}
