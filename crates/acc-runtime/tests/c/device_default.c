/* Prints what the runtime chose without ACC_DEVICE_TYPE: the device type, the number of nvidia
 * devices, and why there is none (c_programs.rs checks the output). */
#include <openacc.h>
#include <stdio.h>

int main(void) {
  int type = acc_get_device_type();
  int gpus = acc_get_num_devices(acc_device_nvidia);
  const char *why = gpus == 0 ? acc_get_property_string(0, acc_device_nvidia,
                                                         acc_property_description)
                              : "";
  printf("type=%s gpus=%d why=%s\n",
         type == acc_device_host            ? "host"
         : type == acc_device_nvidia        ? "nvidia"
         : type == acc_device_host_discrete ? "host_discrete"
                                            : "other",
         gpus, why ? why : "(null)");
  return 0;
}
