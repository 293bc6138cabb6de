/* The zero modifier (OpenACC 3.3): create(zero:) and copyout(zero:)
 * allocate device memory set to zero, so regions may accumulate into it
 * (copyout(zero:) then copies the result back at the end).
 * The host arrays are zero as well, so the answer is the same with the
 * directives ignored (discrete-zero.c checks the device side alone). */
#include <stdio.h>

#define N 200
#define B 10

int main(void) {
  static int v[N], hist[B], tot[B];
  static double acc2[N];
  for (int i = 0; i < N; i++) v[i] = (i * 7) % 23;

  #pragma acc data create(zero: acc2) copyout(zero: hist) copyin(v) copyout(tot)
  {
    #pragma acc parallel loop present(acc2, v)
    for (int i = 0; i < N; i++)
      acc2[i] += v[i] * 0.5;
    #pragma acc parallel loop present(acc2, hist)
    for (int b = 0; b < B; b++)
      for (int i = b; i < N; i += B)
        hist[b] += acc2[i] > 5.0;
    #pragma acc serial present(hist, tot)
    {
      for (int b = 0; b < B; b++)
        tot[b] = hist[b];
    }
  }

  for (int b = 0; b < B; b++) {
    int want = 0;
    for (int i = b; i < N; i += B) want += v[i] * 0.5 > 5.0;
    if (hist[b] != want || tot[b] != want) {
      printf("data-zero: bin %d hist=%d tot=%d, expected %d\n", b, hist[b], tot[b], want);
      return 1;
    }
  }
  printf("data-zero: ok\n");
  return 0;
}
