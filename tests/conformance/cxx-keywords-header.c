/* A header of the program's own that gives names C++ reserves a C meaning (`typedef int bool`,
 * `typedef enum { false, true } logical`): kernels use them as the file does, so an `int` bool
 * stays 4 bytes on every device and `true` is the enumerator. */
#include <stdio.h>
#include <stdlib.h>

#include "cxx-keywords-header.h"

#define N 64

int main(void) {
  bool *flags = malloc(N * sizeof(bool));
  logical *seen = malloc(N * sizeof(logical));
  for (int i = 0; i < N; i++) {
    flags[i] = 7;
    seen[i] = false;
  }
  #pragma acc parallel loop copy(flags[0:N], seen[0:N])
  for (int i = 0; i < N; i++) {
    flags[i] = i % 3 == 0 ? 2 : true;
    seen[i] = true;
  }
  long sum = 0;
  for (int i = 0; i < N; i++) {
    sum += flags[i];
    if (seen[i] != true) {
      printf("seen[%d] = %d\n", i, (int)seen[i]);
      return 1;
    }
  }
  long want = 0;
  for (int i = 0; i < N; i++) want += i % 3 == 0 ? 2 : 1;
  if (sum != want || sizeof(bool) != sizeof(int)) {
    printf("sum = %ld, want %ld\n", sum, want);
    return 1;
  }
  printf("cxx-keywords-header: ok\n");
  free(flags);
  free(seen);
  return 0;
}
