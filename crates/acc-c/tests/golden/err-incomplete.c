/* Error: an exp or imp DA for a variable of incomplete type. */
extern double ext[];
struct opaque;
extern struct opaque thing;
void f(int n) {
  #pragma acc parallel copy(thing)
  {
    ext[0] = 1;
  }
  #pragma acc parallel copy(ext[0:n])
  {
    ext[0] = 1;
  }
}
