/* num_workers: a non-constant argument with a nested worker loop ->
 * a local const in a compound statement, used as num_threads; a
 * non-constant argument with side effects and no worker loop -> cast to
 * void; a constant one -> num_threads of the worker loop. */
#define NW 4
int g(void);
void f(int n, double *a) {
  #pragma acc parallel num_workers(n) copy(a[0:n])
  #pragma acc loop gang worker
  for (int i = 0; i < n; ++i)
    a[i] = 0;
  #pragma acc parallel num_workers(g()) copy(a[0:n])
  #pragma acc loop gang
  for (int i = 0; i < n; ++i)
    a[i] = 0;
  #pragma acc parallel num_workers(NW) copy(a[0:n])
  #pragma acc loop gang worker
  for (int i = 0; i < n; ++i)
    a[i] = 0;
}
