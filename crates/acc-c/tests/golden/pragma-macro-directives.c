/* Directives that macros produce through `_Pragma`, the idiom of codes that build with and
 * without OpenACC: acc applies each where the macro is used, as the compiler does, and prints
 * the OpenMP form in its place. Clause arguments are what the preprocessor gives (`N` is
 * replaced in the argument of `ACC`, which passes it on before `#` spells it). */
#define STR(...) #__VA_ARGS__
#ifdef _OPENACC
#define ACC(...) _Pragma(STR(acc __VA_ARGS__))
#else
#define ACC(...)
#endif
#define PRAGMA(x) _Pragma(#x)
#define ACC_LOOP _Pragma("acc loop")
#define N 100

ACC(routine seq)
static double twice(double v) { return 2 * v; }

void f(double *x, double *y) {
  ACC(parallel loop gang, vector copy(x[0:N]))
  for (int i = 0; i < N; i++)
    x[i] = twice(x[i]);
  PRAGMA(acc data copyin(x[0:N]) copyout(y[0:N]))
  {
    ACC(parallel)
    {
      ACC_LOOP
      for (int i = 0; i < 10; i++)
        ACC_LOOP
        for (int j = 0; j < 10; j++)
          y[i * 10 + j] = x[i * 10 + j] + 1;
    }
  }
}
