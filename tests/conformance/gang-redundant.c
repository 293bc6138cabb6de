/* Gang-redundant mode (OpenACC 3.3 2.5.1): the code of a parallel region
 * outside its gang loops runs once per gang. With num_gangs(n) and no gang
 * loop, the region runs n times; with a gang loop, the code around it still
 * runs once per gang while the loop's iterations are shared out. Directives
 * ignored, there is one "gang". */
#include <stdio.h>

#define N 100

int main(void) {
  int ok = 1;
#ifdef _OPENACC
  const int gangs = 4;
#else
  const int gangs = 1;
#endif
  int count = 0;
  #pragma acc parallel num_gangs(4) copy(count)
  {
    #pragma acc atomic update
    count += 1;
  }
  if (count != gangs) {
    printf("gang-redundant: region without a gang loop ran %d times, want %d\n", count, gangs);
    ok = 0;
  }

  int around = 0, a[N];
  #pragma acc parallel num_gangs(4) copy(around) copyout(a)
  {
    #pragma acc atomic update
    around += 1;
    #pragma acc loop gang
    for (int i = 0; i < N; i++) a[i] = 2 * i;
    #pragma acc atomic update
    around += 10;
  }
  if (around != 11 * gangs) {
    printf("gang-redundant: code around the gang loop ran for %d, want %d\n", around, 11 * gangs);
    ok = 0;
  }
  for (int i = 0; i < N; i++)
    if (a[i] != 2 * i) {
      printf("gang-redundant: a[%d] = %d, want %d\n", i, a[i], 2 * i);
      ok = 0;
      break;
    }

  /* Gang-redundant code in a sequential loop that also holds a gang loop: still once per
   * gang, and a capture gives each gang its own ticket. */
  int rounds = 0, ticket = 0, seen[3 * 4] = {0}, b[N];
  #pragma acc parallel num_gangs(4) copy(rounds, ticket, seen) copyout(b)
  {
    for (int it = 0; it < 3; it++) {
      int v;
      #pragma acc atomic capture
      v = ticket++;
      seen[v % 12] += 1;
      #pragma acc loop gang
      for (int i = 0; i < N; i++) b[i] = i + it;
      if (it == 1) {
        #pragma acc atomic update
        rounds += 1;
      }
    }
  }
  if (rounds != gangs || ticket != 3 * gangs) {
    printf("gang-redundant: nested in a loop: rounds %d ticket %d, want %d and %d\n", rounds,
           ticket, gangs, 3 * gangs);
    ok = 0;
  }
  for (int t = 0; t < 3 * gangs; t++)
    if (seen[t] != 1) {
      printf("gang-redundant: ticket %d taken %d times\n", t, seen[t]);
      ok = 0;
      break;
    }
  for (int i = 0; i < N; i++)
    if (b[i] != i + 2) {
      printf("gang-redundant: b[%d] = %d, want %d\n", i, b[i], i + 2);
      ok = 0;
      break;
    }

  /* The same with the region's statement the loop itself (no braces). */
  int rounds2 = 0;
  #pragma acc parallel num_gangs(4) copy(rounds2) copyout(b)
  for (int it = 0; it < 3; it++) {
    #pragma acc atomic update
    rounds2 += 1;
    #pragma acc loop gang
    for (int i = 0; i < N; i++) b[i] = i + it;
  }
  if (rounds2 != 3 * gangs) {
    printf("gang-redundant: a loop as the region: %d rounds, want %d\n", rounds2, 3 * gangs);
    ok = 0;
  }

  /* Each gang adds its own contribution to its private copy. */
  int s = 100;
  #pragma acc parallel num_gangs(3) reduction(+:s)
  {
    s += 5;
  }
  if (s != 100 + 5 * (gangs == 1 ? 1 : 3)) {
    printf("gang-redundant: reduction gave %d, want %d\n", s, 100 + 5 * (gangs == 1 ? 1 : 3));
    ok = 0;
  }

  if (!ok) return 1;
  printf("gang-redundant: ok\n");
  return 0;
}
