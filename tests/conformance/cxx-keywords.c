/* C names that C++ reserves, in code a kernel uses: `typedef int bool` (as Rodinia's bfs
 * writes it), NPB's `typedef enum { false, true } logical`, locals named `new` and `class`, a
 * member named `this`, a `float3` of the program's own (a type CUDA declares too). A GPU
 * compiles kernels as C++, where each would be a syntax error or another type; acc renames
 * them in the CUDA module (an `int` bool stays 4 bytes there too). */
#include <stdio.h>

typedef int bool;
typedef enum { false, true } logical;
#define N 1000

struct node { int this; bool visited; };
typedef struct { float x, y, z; } float3;

int main(void) {
  static struct node g[N];
  static bool mask[N];
  for (int i = 0; i < N; i++) {
    g[i].this = i;
    g[i].visited = 0;
    mask[i] = i % 3 == 0;
  }
  #pragma acc parallel loop copy(g, mask)
  for (int i = 0; i < N; i++) {
    int new = g[i].this * 2, class = new + 1;
    logical odd = (i % 2) ? true : false;
    float3 p = {(float)i, 1.0f, 2.0f};
    class += (int)(p.z - p.y) - 1;
    g[i].visited = mask[i] ? class + (odd == true) - (i % 2) : 0;
    mask[i] = !mask[i];
  }
  int count = 0;
  for (int i = 0; i < N; i++) {
    int want = i % 3 == 0 ? 2 * i + 1 : 0;
    if (g[i].visited != want || mask[i] != (i % 3 != 0)) { printf("g[%d]: %d\n", i, g[i].visited); return 1; }
    count += mask[i];
  }
  printf("C++ keywords as C names: ok (%d, %zu-byte bool)\n", count, sizeof(bool));
  return 0;
}
