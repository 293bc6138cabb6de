/* num_workers: a non-constant argument with a nested worker loop ->
 * a local const in a compound statement, used as num_threads; a
 * non-constant argument with side effects and no worker loop -> cast to
 * void; a constant one -> num_threads of the worker loop. */
#define NW 4
int g(void);
void f(int n, double *a) {
  {
  const int __acc_num_workers_0 = n;
  #pragma omp target teams map(ompx_hold,tofrom: a[0:n]) shared(a) firstprivate(n)
  #pragma omp distribute parallel for num_threads(__acc_num_workers_0) shared(n,a)
  for (int i = 0; i < n; ++i)
    a[i] = 0;
  }
  {
  (void)(g());
  #pragma omp target teams map(ompx_hold,tofrom: a[0:n]) shared(a) firstprivate(n)
  #pragma omp distribute
  for (int i = 0; i < n; ++i)
    a[i] = 0;
  }
  #pragma omp target teams map(ompx_hold,tofrom: a[0:n]) shared(a) firstprivate(n)
  #pragma omp distribute parallel for num_threads(NW) shared(n,a)
  for (int i = 0; i < n; ++i)
    a[i] = 0;
}
