/* Directives and declarations as older or other code spells them: blanks between `#` and the
   directive's name (`# pragma acc`, `#  ifndef`), and `register` variables that a construct
   uses (their address is never the program's to take, but a device copy needs one). */
#include <stdio.h>
#define N 200
# ifndef SCALE
#  define SCALE 3
# endif
int main(void) {
  static double a[N], b[N];
  register int i;
  register double bias = 0.5;
  double sum = 0;
  for (i = 0; i < N; i++) { a[i] = i; b[i] = 0; }
  # pragma acc data copyin(a) copy(b)
  {
    #  pragma  acc parallel loop
    for (i = 0; i < N; i++) b[i] = SCALE * a[i] + bias;
    # pragma acc parallel loop reduction(+:sum)
    for (i = 0; i < N; i++) {
      register double t = b[i] - bias;
      sum += t;
    }
  }
  for (i = 0; i < N; i++)
    if (b[i] != SCALE * i + 0.5) { printf("directive-spellings: b[%d] = %f\n", i, b[i]); return 1; }
  if (sum != SCALE * (double)N * (N - 1) / 2) { printf("directive-spellings: sum %f\n", sum); return 1; }
  printf("directive-spellings: ok\n");
  return 0;
}
