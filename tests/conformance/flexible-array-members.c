/* Structs with a flexible array member (`double d[]`) or a GNU zero-length array
 * (`char pad[0]`), which the host code allocates and fills, and whose arrays the kernels
 * reach through plain pointers. A GPU's C++ has no such members: acc had put every type of
 * the file into the CUDA module, which NVRTC then refused for all the file's kernels. The
 * module now leaves out such a type when no device code names it. */
#include <stdio.h>
#include <stdlib.h>

struct samples {
  int count;
  double values[];
};

typedef struct {
  int rows;
  struct {
    int width;
    float cells[];
  } grid;
} sheet;

struct header {
  long tag;
  char tail[0];
};

#define N 64

int main(void) {
  struct samples *s = malloc(sizeof *s + N * sizeof(double));
  struct header *h = malloc(sizeof *h + 8);
  sheet *t = malloc(sizeof *t + N * sizeof(float));
  if (!s || !h || !t)
    return 2;
  s->count = N;
  t->grid.width = N;
  h->tag = 7;
  for (int i = 0; i < N; i++) {
    s->values[i] = i;
    t->grid.cells[i] = 2.0f * (float)i;
  }
  double *v = s->values;
  float *c = t->grid.cells;
  long tag = h->tag;
#pragma acc parallel loop copy(v[0:N]) copyin(c[0:N])
  for (int i = 0; i < N; i++)
    v[i] = v[i] * 3 + c[i] + (double)tag;
  int wrong = 0;
  for (int i = 0; i < N; i++)
    wrong += s->values[i] != 5.0 * i + 7;
  free(s);
  free(h);
  free(t);
  if (wrong)
    printf("flexible-array-members: %d wrong\n", wrong);
  else
    printf("flexible-array-members: ok\n");
  return wrong != 0;
}
