/* Device management through the runtime API and the init / set directives:
 * acc_get_device_type, acc_get_num_devices (at least one device of the
 * current type), acc_set_device_type / acc_set_device_num with the current
 * values, acc_get_device_num, acc_init, the set device_num directive seen
 * through acc_get_device_num, acc_get_property_string for the name, compute
 * work, and acc_shutdown at the end. The device type is whatever the
 * environment selected; the program never switches it. */
#include <openacc.h>
#include <stdio.h>

#define N 100

int main(void) {
  acc_device_t t = acc_get_device_type();
  int ndev = acc_get_num_devices(t);
  if (ndev < 1) { printf("api-init-set: acc_get_num_devices = %d\n", ndev); return 1; }
  acc_init(t);
  acc_set_device_type(t);
  acc_set_device_num(0, t);
  if (acc_get_device_num(t) != 0 || acc_get_device_type() != t) {
    printf("api-init-set: device num %d type %d after acc_set_device_num(0)\n", acc_get_device_num(t),
           (int)acc_get_device_type());
    return 1;
  }
  #pragma acc set device_num(ndev - 1)
  if (acc_get_device_num(t) != ndev - 1) {
    printf("api-init-set: device num %d after set device_num(%d)\n", acc_get_device_num(t), ndev - 1);
    return 1;
  }
  #pragma acc set device_num(0)
  const char *name = acc_get_property_string(0, t, acc_property_name);
  if (name == NULL) { printf("api-init-set: no device name\n"); return 1; }

  static int a[N];
  #pragma acc parallel loop copyout(a)
  for (int i = 0; i < N; i++)
    a[i] = i * i;
  for (int i = 0; i < N; i++)
    if (a[i] != i * i) { printf("api-init-set: a[%d] = %d\n", i, a[i]); return 1; }
  acc_shutdown(t);
  printf("api-init-set: ok\n");
  return 0;
}
