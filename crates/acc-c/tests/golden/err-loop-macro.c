/* A loop directive's loop written through a macro that expands to the `for` header: acc reads
 * the loop a directive partitions as written, and says so; a statement that is no loop at all
 * is named with its article. */
#define FOR_EACH(i, n) for (i = 0; i < (n); i++)
void f(int n, double *y) {
  int i;
  #pragma acc parallel loop copy(y[0:n])
  FOR_EACH(i, n) y[i] += 1;
  #pragma acc parallel loop copy(y[0:n])
  y[0] = 1;
}
