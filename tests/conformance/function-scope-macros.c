/* Macros a function defines, undefines or redefines, used by its compute constructs: the
 * preprocessor knows no scopes, so a `#define` inside a function holds from there to the end
 * of the file, and a later `#undef` ends it. acc writes the kernels after the file's last
 * line; it had left a function's own `#define`s out of the kernels (a link error: `F` taken
 * for a function), and had named a macro the file `#undef`s later in the type of an array
 * the kernel uses (`int b[N]`: "`N` undeclared"). */
#include <stdio.h>

#define N 100

static int array_sized_by_a_macro_undefined_later(void) {
  int b[N];
#pragma acc parallel loop copyout(b)
  for (int i = 0; i < 100; i++)
    b[i] = 3 * i;
  for (int i = 0; i < 100; i++)
    if (b[i] != 3 * i) {
      printf("b[%d] = %d, want %d\n", i, b[i], 3 * i);
      return 1;
    }
  return 0;
}

#undef N
#define M 16

int main(void) {
  int a[M], c[M], d[M];
#define F(x) ((x) + 1)
#pragma acc parallel loop copyout(a)
  for (int i = 0; i < M; i++)
    a[i] = F(i);
#undef F
#define F(x) ((x)*100)
#if 0
#define G(x) ((x) + 5)
#else
#define G(x) ((x) + 7)
#endif
#pragma acc parallel loop copyout(c, d)
  for (int i = 0; i < M; i++) {
    c[i] = F(i);
    d[i] = G(i);
  }
#undef F
  int bad = array_sized_by_a_macro_undefined_later();
  for (int i = 0; i < M && !bad; i++)
    if (a[i] != i + 1 || c[i] != i * 100 || d[i] != i + 7) {
      printf("at %d: a %d c %d d %d, want %d %d %d\n", i, a[i], c[i], d[i], i + 1, i * 100, i + 7);
      bad = 1;
    }
  if (!bad)
    printf("function-scope-macros: ok\n");
  return bad;
}
