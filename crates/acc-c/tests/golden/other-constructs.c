/* host_data -> target data use_device_ptr/addr; declare at file scope ->
 * declare target; in a block -> target data over the rest of the block;
 * routine -> declare target around the function; atomic -> omp atomic;
 * wait -> taskwait; cache disappears. */
double table[64];
#pragma acc declare create(table)
int counter;
#pragma acc declare link(counter)

#pragma acc routine seq
double twice(double x) { return 2 * x; }

double thrice(double x) { return 3 * x; }
#pragma acc routine(thrice) vector

void use(double *p);

void f(int n, double *a) {
  double b[16];
  #pragma acc declare copyin(b)
  int hits = 0;
  #pragma acc host_data use_device(a, b)
  {
    use(a);
  }
  #pragma acc parallel loop copy(a[0:n]) async(1)
  for (int i = 0; i < n; ++i) {
    #pragma acc cache(a[i:1])
    a[i] = twice(a[i]) + table[0];
    #pragma acc atomic update
    hits++;
    #pragma acc atomic capture
    { b[0] = hits; hits += 1; }
  }
  #pragma acc wait(1)
  use(b);
}
