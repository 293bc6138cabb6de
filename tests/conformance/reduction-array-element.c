/* Reductions on array elements (a var in a reduction clause may be an
 * array element): + and max on single elements of a fixed-size array,
 * while the other elements keep their values. */
#include <stdio.h>

#define N 500

int main(void) {
  static int v[N];
  long tot[4] = {10, 20, 30, 40};
  for (int i = 0; i < N; i++) v[i] = (i * 13) % 97;

  #pragma acc parallel loop copyin(v) reduction(+:tot[1])
  for (int i = 0; i < N; i++)
    tot[1] += v[i];

  #pragma acc parallel loop copyin(v) reduction(max:tot[3])
  for (int i = 0; i < N; i++)
    tot[3] = v[i] > tot[3] ? v[i] : tot[3];

  long r1 = 20, r3 = 40;
  for (int i = 0; i < N; i++) {
    r1 += v[i];
    r3 = v[i] > r3 ? v[i] : r3;
  }
  if (tot[0] != 10 || tot[1] != r1 || tot[2] != 30 || tot[3] != r3) {
    printf("reduction-array-element: tot = {%ld, %ld, %ld, %ld}, expected {10, %ld, 30, %ld}\n",
           tot[0], tot[1], tot[2], tot[3], r1, r3);
    return 1;
  }
  printf("reduction-array-element: ok\n");
  return 0;
}
