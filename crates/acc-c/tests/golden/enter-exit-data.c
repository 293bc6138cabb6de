/* Enter Data: copyin -> map(to), create -> map(alloc).
 * Exit Data: copyout -> map(from), delete -> map(release); with finalize,
 * delete -> map(delete) and copyout -> update from + map(delete). */
void f(int n, double *a, double *b, double *c) {
  #pragma acc enter data copyin(a[0:n]) create(b[0:n]) pcreate(c[0:n])
  #pragma acc exit data copyout(a[0:n]) delete(b[0:n]) if(n)
  #pragma acc exit data copyout(c[0:n]) finalize
  #pragma acc exit data delete(a[0:n]) finalize
}
