/* Macros in directives: the preprocessor replaces the words of a `#pragma acc` line, so the
 * directive acc analyses is the replaced one; clause arguments keep their text. */
#define LOOP loop
#define N 100
#define PAR_LOOP parallel LOOP
#define DATA(v) copy(v[0:N])
void f(double *x, double *y) {
  #pragma omp target teams map(ompx_hold,tofrom: x[0:N]) shared(x)
  #pragma omp distribute
  for (int i = 0; i < N; i++)
    x[i] *= 2;
  #pragma omp target teams map(ompx_hold,tofrom: y[0:N]) map(ompx_hold,to: x[0:N]) shared(y,x)
  #pragma omp distribute
  for (int i = 0; i < N; i++)
    y[i] = x[i] + 1;
}
