/* Sections of arrays in private and firstprivate (OpenACC 3.3 2.5.13-14 allow any
 * subarray): on a combined construct (an LBM code's `private(distr_eq[0:MC])`), a part of
 * an array, a 2-D firstprivate table, and on a `loop`. acc had refused a section of an
 * array; each gang (or iteration) now gets a copy of the whole array, which holds the
 * section, a firstprivate one starting from the host's values. */
#include <stdio.h>

#define MC 8
#define N 64

int main(void) {
  double eq[MC], part[MC], table[2][4], out[N], out2[N];
  for (int s = 0; s < 4; s++) {
    table[0][s] = s;
    table[1][s] = 10 * s;
  }
  for (int s = 0; s < MC; s++)
    eq[s] = part[s] = -1;
#pragma acc parallel loop gang worker private(eq[0:MC], part[2:4]) \
    firstprivate(table[0:2][0:4]) copyout(out)
  for (int i = 0; i < N; i++) {
    double sum = 0;
    for (int s = 0; s < MC; s++)
      eq[s] = i + s;
    for (int s = 2; s < 6; s++)
      part[s] = table[1][s - 2] + eq[s];
    for (int s = 2; s < 6; s++)
      sum += part[s];
    table[0][i % 4] += 1;
    out[i] = sum;
  }
#pragma acc parallel copyout(out2)
  {
#pragma acc loop gang private(eq[0:MC])
    for (int i = 0; i < N; i++) {
      for (int s = 0; s < MC; s++)
        eq[s] = 2 * i + s;
      out2[i] = eq[MC - 1];
    }
  }
  int wrong = 0;
  for (int i = 0; i < N; i++)
    wrong += out[i] != 4.0 * i + 14 + 60 || out2[i] != 2.0 * i + MC - 1;
  /* The host's arrays are untouched. */
  wrong += eq[0] != -1 || part[3] != -1 || table[0][1] != 1;
  if (wrong)
    printf("private-array-sections: %d wrong\n", wrong);
  else
    printf("private-array-sections: ok\n");
  return wrong != 0;
}
