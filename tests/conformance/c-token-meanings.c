/* Tokens C and C++ read differently, in kernels and a routine: a character constant is an
 * `int` in C (`sizeof('a') == sizeof(int)`), a `char` in C++; `auto` is C's storage class, not
 * C++'s deduced type; `__func__` in a compute construct names the function the program wrote
 * it in, not the kernel's. A GPU's kernels are compiled as C++ (NVRTC): they must still mean
 * C. */
#include <stdio.h>

#define SEPARATOR ','

#pragma acc routine seq
static int classify(int c) {
  switch (c) {
  case 'a':
    return 1;
  case SEPARATOR:
    return 2;
  case '\n':
    return 3;
  default:
    return (int)sizeof(c == 'b' ? 'b' : 'c');
  }
}

int main(void) {
  enum { N = 64 };
  int sizes[N], kinds[N], named[N];
  char text[N];
  for (int i = 0; i < N; i++) text[i] = "ab,\nxyz"[i % 7];
#pragma acc parallel loop copyin(text) copyout(sizes, kinds, named)
  for (int i = 0; i < N; i++) {
    auto int size = (int)sizeof('x');
    auto const int offset = 'a' - 'a';
    sizes[i] = size + offset + (int)sizeof(SEPARATOR) + (int)sizeof(text[i] + 'a');
    kinds[i] = classify(text[i]);
    named[i] = __func__[0] == 'm' && __func__[1] == 'a' && __func__[4] == '\0';
  }
  int bad = 0;
  for (int i = 0; i < N; i++) {
    int want_kind = text[i] == 'a' ? 1 : text[i] == ',' ? 2 : text[i] == '\n' ? 3 : (int)sizeof(int);
    bad += sizes[i] != 3 * (int)sizeof(int) || kinds[i] != want_kind || !named[i];
  }
  if (bad) {
    printf("c-token-meanings: %d wrong (sizes[0] %d, want %d)\n", bad, sizes[0], 3 * (int)sizeof(int));
    return 1;
  }
  printf("c-token-meanings: ok\n");
  return 0;
}
