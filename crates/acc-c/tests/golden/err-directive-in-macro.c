/* Error: a macro whose replacement holds an OpenACC directive, used in the code (the directive
 * would apply to code only the expansion has). A macro that is only defined, and `_Pragma`
 * written in the code itself, are fine. */
#define LOOP(n) _Pragma("acc parallel loop") for (int i = 0; i < (n); i++)
#define UNUSED _Pragma( "acc kernels" )
#define NOT_ACC _Pragma("omp parallel for")
void f(int n, double *b) {
  LOOP(n) { b[i] = i; }
  _Pragma("acc parallel loop copy(b[0:n])")
  for (int i = 0; i < n; i++) b[i] += 1;
}
