/* GNU case ranges in a kernel and a routine (`case 0 ... 3:`, `case 'a' ... 'z':`), which a
 * GPU's C++ lacks: the CUDA module writes out the labels (NVRTC had refused the module). */
#include <stdio.h>

#define N 64

#pragma acc routine seq
static int letter_class(int c) {
  switch (c) {
  case 'a' ... 'z':
    return 1;
  case 'A' ... 'Z':
    return 2;
  case '0' ... '9':
    return 3;
  default:
    return 0;
  }
}

int main(void) {
  int band[N], kind[N];
#pragma acc parallel loop copyout(band, kind)
  for (int i = 0; i < N; i++) {
    switch (i) {
    case 0 ... 9:
      band[i] = 1;
      break;
    case 10 ... 0x1f:
      band[i] = 2;
      break;
    default:
      band[i] = 3;
    }
    kind[i] = letter_class(32 + i);
  }
  int wrong = 0;
  for (int i = 0; i < N; i++) {
    int c = 32 + i;
    int k = c >= 'a' && c <= 'z' ? 1 : c >= 'A' && c <= 'Z' ? 2 : c >= '0' && c <= '9' ? 3 : 0;
    wrong += band[i] != (i < 10 ? 1 : i < 32 ? 2 : 3) || kind[i] != k;
  }
  if (wrong)
    printf("gnu-case-ranges: %d wrong\n", wrong);
  else
    printf("gnu-case-ranges: ok\n");
  return wrong != 0;
}
