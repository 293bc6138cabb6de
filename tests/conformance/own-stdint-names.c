/* A program that never includes <stdint.h> and declares some of its names itself (as C lets
 * it, and Parboil's codes do): `typedef unsigned long long uint64_t;`, `#define UINT8_MAX 255`.
 * acc's own headers and a GPU module's text must leave those names to the program. */
#include <stdio.h>

typedef unsigned long long uint64_t;
typedef unsigned char uint8_t;
#define UINT8_MAX 255

int main(void) {
  enum { N = 1000 };
  unsigned int a[N];
  uint8_t clipped[N];
  uint64_t sum = 0;
  for (int i = 0; i < N; i++) a[i] = (unsigned int)(i * 7 % 400);
#pragma acc parallel loop reduction(+:sum) copyin(a) copyout(clipped)
  for (int i = 0; i < N; i++) {
    uint8_t c = a[i] > UINT8_MAX ? UINT8_MAX : (uint8_t)a[i];
    clipped[i] = c;
    sum += (uint64_t)c << 32;
  }
  uint64_t want = 0;
  int bad = 0;
  for (int i = 0; i < N; i++) {
    uint8_t c = a[i] > UINT8_MAX ? UINT8_MAX : (uint8_t)a[i];
    want += (uint64_t)c << 32;
    bad += clipped[i] != c;
  }
  if (bad || sum != want) {
    printf("own-stdint-names: %d wrong, sum %llu (want %llu)\n", bad, sum, want);
    return 1;
  }
  printf("own-stdint-names: ok\n");
  return 0;
}
