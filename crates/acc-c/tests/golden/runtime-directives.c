#include <openacc.h>
void setup(int dev, int q, int use_gpu) {
  #pragma acc init device_type(nvidia) if(use_gpu)
  #pragma acc set device_type(host)
  #pragma acc set device_num(dev) device_type(nvidia) default_async(q)
  #pragma acc set default_async(acc_async_noval)
  #pragma acc init
  #pragma acc shutdown device_type(nvidia)
}
