/* vector_length: a constant argument -> simdlen of the vector loop; a
 * non-constant one is ignored with a warning, and cast to void when it
 * may have side effects. */
#define VL 128
int g(void);
void f(int n, double *a) {
  #pragma acc parallel loop vector vector_length(VL) copy(a[0:n])
  for (int i = 0; i < n; ++i)
    a[i] = 0;
  #pragma acc parallel loop vector vector_length(n) copy(a[0:n])
  for (int i = 0; i < n; ++i)
    a[i] = 0;
  #pragma acc parallel loop vector vector_length(g()) copy(a[0:n])
  for (int i = 0; i < n; ++i)
    a[i] = 0;
}
