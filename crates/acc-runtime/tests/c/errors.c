/* Programs that must fail: each case makes one error the runtime must report and exit on. */
#include <acc_rt.h>
#include <openacc.h>
#include <stdio.h>
#include <string.h>

static double a[100], b[100];
static void nop(const acc_rt_chunk *c) { (void)c; }

int main(int argc, char **argv) {
  const char *c = argc > 1 ? argv[1] : "";
  if (!strcmp(c, "not_present")) {
    acc_rt_data d[] = {{ACC_RT_PRESENT, 0, a, sizeof a, "a[0:100]"}};
    acc_rt_region_begin("kernels.c", 12, d, 1, acc_async_sync);
  } else if (!strcmp(c, "overlap")) {
    acc_rt_data d[] = {{ACC_RT_COPYIN, 0, a, 50 * sizeof(double), "a[0:50]"},
                       {ACC_RT_COPYIN, 0, a + 40, 20 * sizeof(double), "a[40:20]"}};
    acc_rt_enter_data("overlap.c", 7, d, 2, acc_async_sync);
  } else if (!strcmp(c, "unmap_twice")) {
    void *d = acc_malloc(sizeof a);
    acc_map_data(a, d, sizeof a);
    acc_unmap_data(a);
    acc_unmap_data(a);
  } else if (!strcmp(c, "free_mapped")) {
    void *d = acc_malloc(sizeof a);
    acc_map_data(a, d, sizeof a);
    acc_free(d);
  } else if (!strcmp(c, "free_twice")) {
    void *d = acc_malloc(sizeof a);
    acc_free(d);
    acc_free(d);
  } else if (!strcmp(c, "oom")) {
    static char big[2 << 20];
    acc_copyin(big, sizeof big);
  } else if (!strcmp(c, "launch_not_present")) {
    acc_rt_kernel k = {"k", "launch.c", 30, nop, NULL, NULL, 0};
    acc_rt_config cfg = {10, 0, 0, 0, acc_async_sync};
    acc_rt_arg arg = {ACC_RT_ARG_MAPPED, b, sizeof b, "b[0:100]"};
    acc_rt_launch(&k, &cfg, &arg, 1, NULL, 0);
  } else if (!strcmp(c, "bad_dims")) { /* num_gangs(g) with g <= 0: generated code passes -1 */
    acc_rt_kernel k = {"k", "dims.c", 31, nop, NULL, NULL, 0};
    acc_rt_config cfg = {10, -1, 0, 0, acc_async_sync};
    acc_rt_launch(&k, &cfg, NULL, 0, NULL, 0);
  } else if (!strcmp(c, "update_not_present")) {
    acc_update_self(b, sizeof b);
  } else if (!strcmp(c, "bad_device_pointer")) {
    acc_memcpy_to_device(a, b, sizeof b); /* a is a host address, not device memory */
  } else if (!strcmp(c, "null_memcpy")) {
    acc_memcpy_to_device(NULL, b, sizeof b); /* on `host`, device memory is the host's */
  } else if (!strcmp(c, "nvidia")) { /* no error: one warning, and the program goes on */
    acc_set_device_type(acc_device_nvidia);
  } else if (!strcmp(c, "bad_async")) {
    acc_wait(-7);
  } else {
    acc_get_device_type(); /* lets a bad environment fail at start-up */
    return 0;
  }
  fprintf(stderr, "errors: case '%s' did not fail\n", c);
  return 3;
}
