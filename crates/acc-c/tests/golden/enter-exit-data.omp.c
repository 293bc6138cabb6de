/* Enter Data: copyin -> map(to), create -> map(alloc).
 * Exit Data: copyout -> map(from), delete -> map(release); with finalize,
 * delete -> map(delete) and copyout -> update from + map(delete). */
void f(int n, double *a, double *b, double *c) {
  #pragma omp target enter data map(to: a[0:n]) map(alloc: b[0:n]) map(alloc: c[0:n])
  #pragma omp target exit data if(n) map(from: a[0:n]) map(release: b[0:n])
  #pragma omp target update from(c[0:n])
  #pragma omp target exit data map(delete: c[0:n])
  #pragma omp target exit data map(delete: a[0:n])
}
