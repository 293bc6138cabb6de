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

#pragma omp declare target
static double twice(double v) { return 2 * v; }
#pragma omp end declare target

void f(double *x, double *y) {
  #pragma omp target teams map(ompx_hold,tofrom: x[0:100]) shared(x)
  #pragma omp distribute simd
  for (int i = 0; i < N; i++)
    x[i] = twice(x[i]);
  #pragma omp target data map(ompx_hold,to: x[0:N]) map(ompx_hold,from: y[0:N])
  {
    #pragma omp target teams defaultmap(tofrom: scalar) shared(y,x)
    {
      #pragma omp distribute
      for (int i = 0; i < 10; i++)
        for (int j = 0; j < 10; j++)
          y[i * 10 + j] = x[i * 10 + j] + 1;
    }
  }
}
