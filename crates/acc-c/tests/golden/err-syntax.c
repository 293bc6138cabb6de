/* Errors in the directive text itself. */
void f(int n, double *a) {
  #pragma acc parallel copyinn(a[0:n])
  { }
  #pragma acc paralel
  { }
  #pragma acc data copy(a[0:n]
  { }
  #pragma acc enter data copyout(a[0:n])
  #pragma acc parallel gang
  { }
}
