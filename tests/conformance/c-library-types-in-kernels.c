/* The C library's and POSIX's typedefs beyond the exact-width integers in a struct a kernel
 * reads and in the kernel itself (`ssize_t`, `intmax_t`, the fast and least integers,
 * `off_t`, `time_t`, `float_t`): the GPU's module has no system headers, and NVRTC had found
 * these undefined. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#define N 16

typedef struct {
  ssize_t delta;
  intmax_t big;
  int_fast32_t fast;
  uint_least16_t small;
  off_t offset;
  time_t stamp;
} entry;

int main(void) {
  entry e[N];
  long out[N];
  for (int i = 0; i < N; i++) {
    e[i].delta = -i;
    e[i].big = (intmax_t)1 << 40;
    e[i].fast = 3 * i;
    e[i].small = (uint_least16_t)(i + 1);
    e[i].offset = 100;
    e[i].stamp = 7;
  }
#pragma acc parallel loop copyin(e) copyout(out)
  for (int i = 0; i < N; i++) {
    float_t half = 0.5f;
    uintmax_t shift = (uintmax_t)(e[i].big >> 40);
    out[i] = (long)(e[i].delta + e[i].fast + e[i].small + e[i].offset + e[i].stamp) +
             (long)shift + (long)(half * 2);
  }
  int wrong = 0;
  for (int i = 0; i < N; i++)
    wrong += out[i] != -i + 3 * i + i + 1 + 100 + 7 + 1 + 1;
  if (wrong)
    printf("c-library-types-in-kernels: %d wrong\n", wrong);
  else
    printf("c-library-types-in-kernels: ok\n");
  return wrong != 0;
}
