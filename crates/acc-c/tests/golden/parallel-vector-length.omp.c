/* vector_length: a constant argument -> simdlen of the vector loop; a
 * non-constant one is ignored with a warning, and cast to void when it
 * may have side effects. */
#define VL 128
int g(void);
void f(int n, double *a) {
  #pragma omp target teams map(ompx_hold,tofrom: a[0:n]) shared(a) firstprivate(n)
  #pragma omp distribute simd simdlen(VL)
  for (int i = 0; i < n; ++i)
    a[i] = 0;
  #pragma omp target teams map(ompx_hold,tofrom: a[0:n]) shared(a) firstprivate(n)
  #pragma omp distribute simd
  for (int i = 0; i < n; ++i)
    a[i] = 0;
  {
  (void)(g());
  #pragma omp target teams map(ompx_hold,tofrom: a[0:n]) shared(a) firstprivate(n)
  #pragma omp distribute simd
  for (int i = 0; i < n; ++i)
    a[i] = 0;
  }
}
