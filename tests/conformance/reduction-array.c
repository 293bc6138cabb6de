/* Reductions on arrays (OpenACC 2.7+): a whole fixed-size array (a
 * histogram) with + on a combined construct, max on a whole array on a loop
 * inside parallel, and + and * on subarrays of a malloc'd array (only the
 * named section is reduced; the rest is untouched). */
#include <stdio.h>
#include <stdlib.h>

#define N 1000
#define B 8

int main(void) {
  static int v[N];
  int hist[B] = {0}, top[B];
  long *h = malloc(16 * sizeof *h);
  double *q = malloc(8 * sizeof *q);
  for (int i = 0; i < N; i++) v[i] = (i * 37 + 11) % 101;
  for (int b = 0; b < B; b++) top[b] = -1;
  for (int k = 0; k < 16; k++) h[k] = 100 + k;
  for (int k = 0; k < 8; k++) q[k] = 1.0;

  #pragma acc parallel loop copyin(v) reduction(+:hist)
  for (int i = 0; i < N; i++)
    hist[v[i] % B] += 1;

  #pragma acc parallel copyin(v) copy(top)
  {
    #pragma acc loop gang vector reduction(max:top)
    for (int i = 0; i < N; i++) {
      int b = i % B;
      top[b] = v[i] > top[b] ? v[i] : top[b];
    }
  }

  #pragma acc parallel loop copyin(v) reduction(+:h[4:6])
  for (int i = 0; i < N; i++)
    h[4 + v[i] % 6] += 2;

  #pragma acc parallel loop reduction(*:q[1:3])
  for (int i = 0; i < 30; i++)
    q[1 + i % 3] *= (i % 5 == 0) ? 2.0 : 1.0;

  int rhist[B] = {0}, rtop[B];
  long rh[16];
  double rq[8];
  for (int b = 0; b < B; b++) rtop[b] = -1;
  for (int k = 0; k < 16; k++) rh[k] = 100 + k;
  for (int k = 0; k < 8; k++) rq[k] = 1.0;
  for (int i = 0; i < N; i++) {
    rhist[v[i] % B] += 1;
    rtop[i % B] = v[i] > rtop[i % B] ? v[i] : rtop[i % B];
    rh[4 + v[i] % 6] += 2;
  }
  for (int i = 0; i < 30; i++) rq[1 + i % 3] *= (i % 5 == 0) ? 2.0 : 1.0;
  for (int b = 0; b < B; b++)
    if (hist[b] != rhist[b] || top[b] != rtop[b]) {
      printf("reduction-array: bin %d hist %d/%d top %d/%d\n", b, hist[b], rhist[b], top[b], rtop[b]);
      return 1;
    }
  for (int k = 0; k < 16; k++)
    if (h[k] != rh[k]) { printf("reduction-array: h[%d] = %ld, expected %ld\n", k, h[k], rh[k]); return 1; }
  for (int k = 0; k < 8; k++)
    if (q[k] != rq[k]) { printf("reduction-array: q[%d] = %g, expected %g\n", k, q[k], rq[k]); return 1; }
  printf("reduction-array: ok\n");
  free(h);
  free(q);
  return 0;
}
