/* Update Directives: self -> from, device -> to, with the `present`
 * motion modifier unless if_present; `if` -> `if`. */
void f(int n, double *a, double *b) {
  #pragma acc update self(a[0:n]) device(b[0:n])
  #pragma acc update host(a[0:n]) if(n > 10)
  #pragma acc update device(b[1:n-1]) if_present
}
