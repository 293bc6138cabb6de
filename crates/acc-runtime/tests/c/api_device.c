/* Device management: types, numbers, properties, init/shutdown, acc_on_device. */
#include <openacc.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond)                                                          \
  do {                                                                       \
    if (!(cond)) {                                                           \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                            \
    }                                                                        \
  } while (0)

int main(void) {
  acc_device_t t = acc_get_device_type();
  CHECK(t == acc_device_host || t == acc_device_host_discrete);
  CHECK(acc_get_num_devices(acc_device_host) == 1);
  CHECK(acc_get_num_devices(acc_device_host_discrete) == 2); /* the harness asks for two */
  if (acc_get_num_devices(acc_device_nvidia) == 0) {
    /* No GPU here: the runtime says why, and nvidia has no stream for a queue. */
    const char *why = acc_get_property_string(0, acc_device_nvidia, acc_property_description);
    CHECK(why && strstr(why, "no nvidia device: "));
  }
  CHECK(acc_get_cuda_stream(1) == NULL); /* the current device is not a GPU */
  CHECK(acc_set_cuda_stream(1, (void *)16) == 0);
  CHECK(acc_on_device(acc_device_host));
  CHECK(!acc_on_device(acc_device_not_host));

  acc_init(acc_device_host_discrete);
  CHECK(acc_get_device_type() == acc_device_host_discrete);
  acc_set_device_num(1, acc_device_host_discrete);
  CHECK(acc_get_device_num(acc_device_host_discrete) == 1);
  CHECK(acc_get_device_num(acc_device_host) == 0);

  size_t total = acc_get_property(1, acc_device_host_discrete, acc_property_memory);
  size_t free0 = acc_get_property(1, acc_device_host_discrete, acc_property_free_memory);
  CHECK(total > 0 && free0 <= total);
  void *p = acc_malloc(1 << 20);
  CHECK(acc_get_property(1, acc_device_host_discrete, acc_property_free_memory) == free0 - (1 << 20));
  acc_free(p);
  CHECK(acc_get_property(1, acc_device_host_discrete, acc_property_shared_memory_support) == 0);
  CHECK(acc_get_property(0, acc_device_host, acc_property_shared_memory_support) == 1);
  const char *name = acc_get_property_string(1, acc_device_host_discrete, acc_property_name);
  CHECK(name && strstr(name, "host-discrete"));
  CHECK(acc_get_property_string(0, acc_device_host, acc_property_vendor) != NULL);
  CHECK(acc_get_property_string(0, acc_device_host, acc_property_memory) == NULL);

  /* Data on device 1 is not on device 0; acc_memcpy_d2d copies between them. */
  double a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, b[8] = {0};
  acc_copyin(a, sizeof a);
  acc_set_device_num(0, acc_device_host_discrete);
  CHECK(!acc_is_present(a, sizeof a));
  acc_create(a, sizeof a);
  acc_memcpy_d2d(a, a, sizeof a, 0, 1);
  acc_memcpy_d2d_async(a, a, sizeof a, 0, 1, 3);
  acc_wait_device(3, 1);
  memcpy(b, a, sizeof a);
  for (int i = 0; i < 8; i++) a[i] = 0;
  acc_copyout(a, sizeof a);
  CHECK(a[7] == 8.0);
  acc_shutdown_device(1, acc_device_host_discrete);
  acc_set_device_num(1, acc_device_host_discrete);
  CHECK(!acc_is_present(b, sizeof b) && !acc_is_present(a, sizeof a));

  acc_set_device_type(acc_device_host);
  CHECK(acc_get_device_type() == acc_device_host);
  CHECK(acc_is_present(a, sizeof a)); /* on shared memory all data is present */
  CHECK(acc_deviceptr(a) == (void *)a);
  acc_init_device(0, acc_device_host);
  acc_shutdown(acc_device_host);

  if (failures) {
    fprintf(stderr, "api_device: %d failure(s)\n", failures);
    return 1;
  }
  printf("api_device ok\n");
  return 0;
}
