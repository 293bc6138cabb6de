/* host_data -> target data use_device_ptr/addr; declare at file scope ->
 * declare target; in a block -> target data over the rest of the block;
 * routine -> declare target around the function; atomic -> omp atomic;
 * wait -> taskwait; cache disappears. */
double table[64];
#pragma omp declare target(table)
int counter;
#pragma omp declare target link(counter)

#pragma omp declare target
double twice(double x) { return 2 * x; }
#pragma omp end declare target

double thrice(double x) { return 3 * x; }
#pragma omp declare target(thrice)

void use(double *p);

void f(int n, double *a) {
  double b[16];
  #pragma omp target data map(ompx_hold,to: b)
  {
  int hits = 0;
  #pragma omp target data use_device_ptr(a) use_device_addr(b)
  {
    use(a);
  }
  #pragma omp target teams map(ompx_hold,tofrom: a[0:n]) shared(a,table,b) firstprivate(n,hits)
  #pragma omp distribute
  for (int i = 0; i < n; ++i) {
    a[i] = twice(a[i]) + table[0];
    #pragma omp atomic update
    hits++;
    #pragma omp atomic capture
    { b[0] = hits; hits += 1; }
  }
  #pragma omp taskwait
  use(b);
  }
}
