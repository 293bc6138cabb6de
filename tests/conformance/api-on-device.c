/* acc_on_device: true for acc_device_host in host code, true inside a
 * compute region for the device type the region runs on (the current
 * type, read on the host with acc_get_device_type), and true for
 * acc_device_host inside a region that if(0) sends to the host. */
#include <openacc.h>
#include <stdio.h>

int main(void) {
  acc_device_t t = acc_get_device_type();
  int no = 0, outside = acc_on_device(acc_device_host), in_region = -1, in_fallback = -1;

  #pragma acc serial copyout(in_region) firstprivate(t)
  {
    in_region = acc_on_device(t) != 0;
  }
  #pragma acc serial copyout(in_fallback) if(no)
  {
    in_fallback = acc_on_device(acc_device_host) != 0;
  }
  if (!outside || in_region != 1 || in_fallback != 1) {
    printf("api-on-device: outside %d, in region %d (type %d), if(0) region %d\n", outside, in_region,
           (int)t, in_fallback);
    return 1;
  }
  printf("api-on-device: ok\n");
  return 0;
}
