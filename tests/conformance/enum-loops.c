/* Loops whose control variable is an enum declared before the loop, in `parallel loop` and in
   `kernels`: C converts the iteration's index to the enum implicitly; the GPU's C++ needs a
   cast, which the kernel makes. */
#include <stdio.h>
enum color { RED, GREEN, BLUE, NCOLORS };
typedef enum { SMALL = 2, MEDIUM, LARGE, HUGE_SIZE } size_class;
int main(void) {
  int hist[NCOLORS], weight[8] = {0};
  enum color c;
  size_class s;
  #pragma acc parallel loop copyout(hist)
  for (c = RED; c < NCOLORS; c++) hist[c] = (int)c * 10 + 1;
  #pragma acc kernels loop copy(weight)
  for (s = SMALL; s <= HUGE_SIZE; s++) weight[s] = (int)s * (int)s;
  for (int i = 0; i < NCOLORS; i++)
    if (hist[i] != i * 10 + 1) { printf("enum-loops: hist[%d] = %d\n", i, hist[i]); return 1; }
  for (int i = 0; i < 8; i++)
    if (weight[i] != (i >= SMALL && i <= HUGE_SIZE ? i * i : 0)) {
      printf("enum-loops: weight[%d] = %d\n", i, weight[i]);
      return 1;
    }
  printf("enum-loops: ok\n");
  return 0;
}
