/* What a program's own header declares: a global that only data directives name (`enter data`,
 * `update`, `exit data`, no compute construct), and the prototype of a function the file
 * defines after the routine that calls it (the kernel's CUDA version needs the prototype
 * too). */
#include <stdio.h>

#include "header-declared.h"

int hd_plus_one(int x) { return hd_twice(x) + 1; }
int hd_twice(int x) { return 2 * x; }

static void fill(void) {
  for (int i = 0; i < HD_N; i++) hd_field[i] = i;
  #pragma acc enter data copyin(hd_field)
  #pragma acc update host(hd_field)
  #pragma acc exit data delete(hd_field)
}

int main(void) {
  fill();
  double sum = 0;
  for (int i = 0; i < HD_N; i++) sum += hd_field[i];
  int a[8];
  #pragma acc parallel loop copyout(a)
  for (int i = 0; i < 8; i++) a[i] = hd_plus_one(i);
  for (int i = 0; i < 8; i++)
    if (a[i] != 2 * i + 1) {
      printf("a[%d] = %d\n", i, a[i]);
      return 1;
    }
  if (sum != 4950) {
    printf("sum = %g\n", sum);
    return 1;
  }
  printf("header-declared: ok\n");
  return 0;
}
