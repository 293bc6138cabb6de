/* device_type clauses: clauses that follow device_type(name) apply only
 * when compiling for / running on that device type, device_type(*)
 * applies to every other type; data clauses come before the first
 * device_type. Used on parallel, kernels, loop and routine, with the answer
 * independent of which clauses are chosen. */
#include <stdio.h>

#define N 256
#define M 32

#pragma acc routine device_type(nvidia) seq device_type(*) seq
static int f(int x) { return 3 * x + 1; }

int main(void) {
  static int a[N], b[N][M], c[N];

  #pragma acc parallel loop copyout(a) device_type(nvidia) num_gangs(64) vector_length(128) \
      device_type(host) num_gangs(2) device_type(*) num_gangs(4)
  for (int i = 0; i < N; i++)
    a[i] = f(i);

  #pragma acc parallel copyout(b) device_type(radeon) num_workers(4) device_type(*) num_workers(2)
  {
    #pragma acc loop gang device_type(radeon) worker
    for (int i = 0; i < N; i++) {
      #pragma acc loop device_type(host) seq device_type(*) vector
      for (int j = 0; j < M; j++)
        b[i][j] = i - j;
    }
  }

  #pragma acc kernels copyout(c) device_type(*) num_gangs(8)
  {
    #pragma acc loop device_type(nvidia) gang(num:16) device_type(*) independent
    for (int i = 0; i < N; i++)
      c[i] = 2 * i;
  }

  for (int i = 0; i < N; i++) {
    if (a[i] != 3 * i + 1 || c[i] != 2 * i) { printf("device-type: i=%d a=%d c=%d\n", i, a[i], c[i]); return 1; }
    for (int j = 0; j < M; j++)
      if (b[i][j] != i - j) { printf("device-type: b[%d][%d] = %d\n", i, j, b[i][j]); return 1; }
  }
  printf("device-type: ok\n");
  return 0;
}
