/* Errors: macro uses whose expansion holds an OpenACC directive that acc cannot apply where
 * the macro is used: where no directive may stand, a use whose expansion is wrong. A directive
 * with code (`LOOP`) or with another directive (`TWO`) is applied in the expansion; a macro only
 * defined, one that expands to another pragma, and `_Pragma` written in the code are fine. */
#define LOOP(n) _Pragma("acc parallel loop") for (int i = 0; i < (n); i++)
#define TWO _Pragma("acc parallel") _Pragma("acc loop")
#define ACC(x) _Pragma(#x)
#define UNUSED _Pragma( "acc kernels" )
#define NOT_ACC _Pragma("omp parallel for")
void f(int n, double *b) {
  LOOP(n) { b[i] = i; }
  TWO
  for (int i = 0; i < n; i++) b[i] = 0;
  if (n > 2 && ACC(acc loop)) b[0] = 1;
  ACC(acc parallel, loop)
  for (int i = 0; i < n; i++) b[i] = 0;
  NOT_ACC
  for (int i = 0; i < n; i++) b[i] += 1;
  _Pragma("acc parallel loop copy(b[0:n])")
  for (int i = 0; i < n; i++) b[i] += 1;
}
