/* Sequential Loops: seq and auto loops are discarded; exp private and
 * pre private of an assigned control variable -> a local copy in a new
 * compound statement; with exp seq an assigned control variable is imp
 * shared and keeps its value after the loop. */
void f(int n, double *a) {
  int i, j, t;
  #pragma omp target teams map(ompx_hold,tofrom: a[0:n]) shared(a) firstprivate(i,n,t,j)
  {
    for (i = 0; i < n; ++i)
      a[i] = i;
    {
    int t;
    for (int k = 0; k < n; ++k) {
      t = k;
      a[k] = t;
    }
    }
    {
    int j;
    for (j = 0; j < n; ++j)
      a[j] += 1;
    }
  }
}
