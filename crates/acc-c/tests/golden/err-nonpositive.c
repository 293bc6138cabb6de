/* Error: num_gangs, num_workers and vector_length need positive
 * arguments (literal or constant expressions). */
#define ZERO 0
void f(void) {
  #pragma acc parallel num_gangs(0) num_workers(-1) vector_length(ZERO)
  { }
}
