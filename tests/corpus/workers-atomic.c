/* A non-constant num_workers with worker loops; atomic updates. */
#include <stdio.h>

#define N 2000

int main(int argc, char **argv) {
  (void)argv;
  int workers = argc + 3;
  int hist[8] = {0};
  int v[N];
  for (int i = 0; i < N; i++) v[i] = (i * 7) % 8;
  #pragma acc parallel num_workers(workers) copyin(v) copy(hist)
  {
    #pragma acc loop gang worker
    for (int i = 0; i < N; i++) {
      #pragma acc atomic update
      hist[v[i]] += 1;
    }
  }
  for (int k = 0; k < 8; k++)
    if (hist[k] != N / 8) { printf("workers-atomic: hist[%d] = %d\n", k, hist[k]); return 1; }
  printf("workers-atomic: ok\n");
  return 0;
}
