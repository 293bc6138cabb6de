/* Error: a reduction on a loop control variable (assigned in the init);
 * a declared one is a different variable, so no error. */
void f(int n) {
  int i;
  #pragma acc parallel
  {
    #pragma acc loop reduction(+:i)
    for (i = 0; i < n; ++i)
      ;
    #pragma acc loop reduction(+:i)
    for (int i = 0; i < n; ++i)
      ;
  }
}
