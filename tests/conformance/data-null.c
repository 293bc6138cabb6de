/* A section of a null pointer in data clauses (a buffer the program does not need this time):
 * no data, nothing copied, the kernel sees a null pointer; never a crash. */
#include <stdio.h>
#include <stdlib.h>

static int run(double *p, int n) {
  int seen_null = 0;
  #pragma acc data copy(p[0:n])
  {
    #pragma acc parallel loop copy(p[0:n]) reduction(+:seen_null)
    for (int i = 0; i < 4; i++) seen_null += p == NULL;
    #pragma acc update device(p[0:n])
  }
  #pragma acc enter data copyin(p[0:n])
  #pragma acc update self(p[0:n])
  #pragma acc exit data copyout(p[0:n])
  return seen_null;
}

int main(void) {
  if (run(NULL, 100) != 4) {
    printf("the kernel did not see a null pointer\n");
    return 1;
  }
  printf("data-null: ok\n");
  return 0;
}
