/* private, firstprivate, and the loop control variable rules. */
#include <stdio.h>

#define N 256

int main(void) {
  int out[N];
  int base = 10;
  int tmp = -1;
  #pragma acc parallel loop firstprivate(base) private(tmp) copyout(out)
  for (int i = 0; i < N; i++) {
    tmp = base + i;
    out[i] = tmp;
  }
  for (int i = 0; i < N; i++)
    if (out[i] != 10 + i) { printf("private: out[%d] = %d\n", i, out[i]); return 1; }
  /* An assigned control variable of a `seq` loop stays shared: its final
   * value is visible after the loop, inside the region. */
  int last[1] = {0};
  #pragma acc parallel num_gangs(1) copy(last)
  {
    int j;
    #pragma acc loop seq
    for (j = 0; j < 5; j++)
      ;
    last[0] = j;
  }
  if (last[0] != 5) { printf("private: seq loop variable %d\n", last[0]); return 1; }
  printf("private: ok\n");
  return 0;
}
