/* A program written for a GPU runs on a machine without one (the device type it asks for is
 * not available: OpenACC 3.3 leaves that to the implementation, and acc keeps the current
 * device); the default async queue is a queue number a program can wait on; a synchronous
 * data action waits for the queues, as on CUDA's default stream, so a data region's copyout
 * after an `async` kernel without a `wait` still copies the kernel's results. */
#include <openacc.h>
#include <stdio.h>

#define N 4096

int main(void) {
  int failed = 0;
  const int gpus = acc_get_num_devices(acc_device_nvidia);
  const acc_device_t before = acc_get_device_type();
  #pragma acc init device_type(nvidia)
  acc_set_device_type(acc_device_nvidia);
  acc_set_device_num(0, acc_device_nvidia);
  #pragma acc set device_type(nvidia) device_num(0)
  if (gpus == 0 && acc_get_device_type() != before) {
    printf("no GPU, yet the device type changed to %d\n", (int)acc_get_device_type());
    failed = 1;
  }

  static double a[N], b[N];
  for (int i = 0; i < N; i++) a[i] = i;
  const int q = acc_get_default_async();
  if (q < 0) {
    printf("acc_get_default_async() = %d is no queue\n", q);
    failed = 1;
  }
  #pragma acc data copyin(a) copyout(b)
  {
    #pragma acc parallel loop async
    for (int i = 0; i < N; i++) b[i] = 2 * a[i];
    #pragma acc wait(q)
  }
  for (int i = 0; i < N; i++)
    if (b[i] != 2.0 * i) { printf("async, wait(default): b[%d] = %g\n", i, b[i]); failed = 1; break; }

  #pragma acc data copyin(a) copyout(b)
  {
    #pragma acc parallel loop async(3)
    for (int i = 0; i < N; i++) b[i] = 3 * a[i] + 1;
  }
  for (int i = 0; i < N; i++)
    if (b[i] != 3.0 * i + 1) { printf("no wait before copyout: b[%d] = %g\n", i, b[i]); failed = 1; break; }

  if (!failed) printf("api-portable: ok\n");
  return failed;
}
