/* OpenACC 2.7+ sec. 2.11: a reduction on a combined construct implies copy
 * on the compute part whatever the loop's partitioning, so the result comes
 * back from a `serial loop` or a `parallel loop seq` too (Clacc's rule only
 * covers gang loops; see attrs.rs). The clause names the variable on the compute part
 * even where the loop never uses it: it is copied, and keeps its value. */
void f(int n, double *a) {
  double s = 0, m = 0, best = 5;
  #pragma omp target map(ompx_hold,to: a[0:n]) map(ompx_hold,tofrom: s) firstprivate(n)
  for (int i = 0; i < n; ++i)
    s += a[i];
  #pragma omp target teams map(ompx_hold,to: a[0:n]) map(ompx_hold,tofrom: m) shared(a) firstprivate(n) reduction(max: m)
  for (int i = 0; i < n; ++i)
    m = a[i] > m ? a[i] : m;
  #pragma omp target teams map(ompx_hold,to: a[0:n]) map(ompx_hold,tofrom: best) shared(a) firstprivate(n) reduction(max: best)
  #pragma omp distribute
  for (int i = 0; i < n; ++i)
    a[i] = 2 * a[i];
}
