#include <openacc.h>
void setup(int dev, int q, int use_gpu) {
  if (use_gpu) { acc_init(acc_device_nvidia); }
  acc_set_device_type(acc_device_host);
  acc_set_device_num((dev), acc_device_nvidia); acc_set_default_async(q);
  acc_set_default_async(acc_async_noval);
  acc_init(acc_get_device_type());
  acc_shutdown(acc_device_nvidia);
}
