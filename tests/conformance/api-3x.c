/* Runtime routines added in OpenACC 2.5-3.3: acc_get_default_async /
 * acc_set_default_async and the set default_async directive (async with
 * no argument then uses that queue), acc_memcpy_device between two
 * acc_malloc buffers, acc_wait_any, the _device forms (acc_init_device,
 * acc_async_test_device, acc_wait_device, acc_wait_all_device,
 * acc_shutdown_device) on device 0 of the current type. */
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>

#define N 300

int main(void) {
  acc_device_t t = acc_get_device_type();
  acc_init_device(0, t);
  static double a[N], b[N];
  size_t bytes = N * sizeof(double);
  double *h = malloc(bytes), *h2 = malloc(bytes);
  int bad = 0;
  for (int i = 0; i < N; i++) { a[i] = i; b[i] = 0.0; h[i] = 3.0 * i; h2[i] = 0.0; }

  acc_set_default_async(4);
  if (acc_get_default_async() != 4) { printf("api-3x: default async %d, expected 4\n", acc_get_default_async()); return 1; }
  #pragma acc set default_async(6)
  if (acc_get_default_async() != 6) { printf("api-3x: default async %d, expected 6\n", acc_get_default_async()); return 1; }

  #pragma acc data copy(a, b)
  {
    #pragma acc parallel loop async
    for (int i = 0; i < N; i++)
      a[i] += 1.0;
    acc_wait_device(6, 0);
    if (!acc_async_test_device(6, 0)) { printf("api-3x: queue 6 not done after acc_wait_device\n"); bad = 1; }
    #pragma acc parallel loop async(1)
    for (int i = 0; i < N; i++)
      a[i] *= 2.0;
    #pragma acc parallel loop async(2)
    for (int i = 0; i < N; i++)
      b[i] = i;
    int queues[2] = {1, 2};
    int first = acc_wait_any(2, queues);
    if (first != 0 && first != 1) { printf("api-3x: acc_wait_any returned %d\n", first); bad = 1; }
    acc_wait_all_device(0);
  }
  if (bad) return 1;

  double *d1 = acc_malloc(bytes), *d2 = acc_malloc(bytes);
  acc_memcpy_to_device(d1, h, bytes);
  acc_memcpy_device(d2, d1, bytes);
  acc_memcpy_from_device(h2, d2, bytes);
  acc_free(d1);
  acc_free(d2);

  for (int i = 0; i < N; i++)
    if (a[i] != 2.0 * (i + 1.0) || b[i] != i || h2[i] != 3.0 * i) {
      printf("api-3x: i=%d a=%g b=%g h2=%g\n", i, a[i], b[i], h2[i]);
      return 1;
    }
  acc_shutdown_device(0, t);
  printf("api-3x: ok\n");
  free(h); free(h2);
  return 0;
}
