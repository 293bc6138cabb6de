/* Types a function declares for itself, used by a compute construct: an anonymous enum's
 * constant as a bound and an extent, a typedef'd struct, a struct tag, an enum declared with
 * a variable, a type in a nested block around the construct, and one in a block that closed
 * before it (not visible there, and a different type of the same name after it). */
#include <stdio.h>

int main(void) {
  enum { N = 67 };
  typedef struct { double x, y; } pt;
  struct cell { int id; float w; };
  enum color { RED = 3, GREEN = 5 } paint = GREEN;
  static pt p[N];
  static struct cell cells[N];
  int a[N];
  {
    typedef int scratch;
    scratch s = 1;
    (void)s;
  }
  typedef long scratch;
  #pragma acc parallel loop copyout(a) copy(p, cells)
  for (int i = 0; i < N; i++) {
    scratch k = (scratch)i * 2;
    a[i] = (int)k + (paint == GREEN ? 1 : 0);
    p[i].x = i;
    p[i].y = -i;
    cells[i].id = i + RED;
    cells[i].w = 0.5f * i;
  }
  {
    enum { M = 8 };
    typedef struct { int v[M]; } box;
    static box b[4];
    #pragma acc parallel loop copy(b)
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < M; j++) b[i].v[j] = i * M + j;
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < M; j++)
        if (b[i].v[j] != i * M + j) { printf("b[%d].v[%d] = %d\n", i, j, b[i].v[j]); return 1; }
  }
  for (int i = 0; i < N; i++) {
    if (a[i] != 2 * i + 1) { printf("a[%d] = %d\n", i, a[i]); return 1; }
    if (p[i].x != i || p[i].y != -i) { printf("p[%d] = (%g, %g)\n", i, p[i].x, p[i].y); return 1; }
    if (cells[i].id != i + 3 || cells[i].w != 0.5f * i) { printf("cells[%d]\n", i); return 1; }
  }
  printf("local-types: ok\n");
  return 0;
}
