/* Update Directives: self -> from, device -> to, with the `present`
 * motion modifier unless if_present; `if` -> `if`. */
void f(int n, double *a, double *b) {
  #pragma omp target update from(present: a[0:n]) to(present: b[0:n])
  #pragma omp target update if(n > 10) from(present: a[0:n])
  #pragma omp target update to(b[1:n-1])
}
