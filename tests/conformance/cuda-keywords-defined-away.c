/* The portable header's idiom for code shared with CUDA: `#ifndef __CUDACC__` / `#define
 * __device__` (and `__host__`, `__forceinline__`), so that a C compiler reads annotated
 * functions as plain ones. The GPU's module had taken those definitions too, so NVRTC read
 * the routines as host functions and refused the module; CUDA's meaning stays there now. */
#include <stdio.h>

#ifndef __CUDACC__
#define __device__
#define __host__
#define __forceinline__ inline
#endif

#define N 16

#pragma acc routine seq
static __host__ __device__ __forceinline__ float square(float x) { return x * x; }

#pragma acc routine seq
static float shifted_square(float x) { return square(x) + 1.0f; }

int main(void) {
  float out[N];
#pragma acc parallel loop copyout(out)
  for (int i = 0; i < N; i++)
    out[i] = shifted_square((float)i);
  int wrong = 0;
  for (int i = 0; i < N; i++)
    wrong += out[i] != (float)(i * i) + 1.0f;
  if (wrong)
    printf("cuda-keywords-defined-away: %d wrong\n", wrong);
  else
    printf("cuda-keywords-defined-away: ok\n");
  return wrong != 0;
}
