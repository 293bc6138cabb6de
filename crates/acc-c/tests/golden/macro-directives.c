/* Macros in directives: the preprocessor replaces the words of a `#pragma acc` line, so the
 * directive acc analyses is the replaced one; clause arguments keep their text. */
#define LOOP loop
#define N 100
#define PAR_LOOP parallel LOOP
#define DATA(v) copy(v[0:N])
void f(double *x, double *y) {
  #pragma acc parallel LOOP copy(x[0:N])
  for (int i = 0; i < N; i++)
    x[i] *= 2;
  #pragma acc PAR_LOOP DATA(y) copyin(x[0:N])
  for (int i = 0; i < N; i++)
    y[i] = x[i] + 1;
}
