/* Comments inside directive lines: the preprocessor replaces each by one space, so a directive
   goes on after a comment in its middle, before a `\` continuation, or across the lines a block
   comment spans; a comment in a macro definition's middle leaves the rest of its body. */
#include <stdio.h>
#define N 256
#define TWICE(x) /* the body follows */ (2 * (x))
#define ADD_ONE(x) ((x) /* plus */ + 1) /* trailing */
int main(void) {
  double a[N], b[N], sum = 0;
  for (int i = 0; i < N; i++) { a[i] = i; b[i] = 0; }
  #pragma acc data /* both arrays */ copy(a) copyout(b)
  {
    #pragma acc parallel loop /* gang */ gang \
        /* between lines */ vector_length(32) /* end */ \
        present(a, b)
    for (int i = 0; i < N; i++) b[i] = TWICE(a[i]);
    #pragma acc parallel /* a comment
       over two lines */ loop present(a) // a line comment ends it
    for (int i = 0; i < N; i++) a[i] = ADD_ONE(a[i]);
  }
  #pragma acc parallel loop reduction(+:sum) /* sums b */ copyin(b)
  for (int i = 0; i < N; i++) sum += b[i];
  for (int i = 0; i < N; i++)
    if (a[i] != i + 1 || b[i] != 2 * i) { printf("directive-comments: wrong at %d\n", i); return 1; }
  if (sum != (double)N * (N - 1)) { printf("directive-comments: sum %f\n", sum); return 1; }
  printf("directive-comments: ok\n");
  return 0;
}
