/* OpenACC 2.7+ sec. 2.11: a reduction on a combined construct implies copy
 * on the compute part whatever the loop's partitioning, so the result comes
 * back from a `serial loop` or a `parallel loop seq` too (Clacc's rule only
 * covers gang loops; see attrs.rs). The clause names the variable on the compute part
 * even where the loop never uses it: it is copied, and keeps its value. */
void f(int n, double *a) {
  double s = 0, m = 0, best = 5;
  #pragma acc serial loop reduction(+:s) copyin(a[0:n])
  for (int i = 0; i < n; ++i)
    s += a[i];
  #pragma acc parallel loop seq reduction(max:m) copyin(a[0:n])
  for (int i = 0; i < n; ++i)
    m = a[i] > m ? a[i] : m;
  #pragma acc parallel loop reduction(max:best) copyin(a[0:n])
  for (int i = 0; i < n; ++i)
    a[i] = 2 * a[i];
}
