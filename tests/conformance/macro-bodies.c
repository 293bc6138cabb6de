/* Variables a construct reaches only through a macro's replacement text, as benchmark code
   writes its accessors (`#define IDX(i, j) (w[(i) + nx * (j)])`): the scalar `nx`, a local
   2-D array and a file-scope array named in macro bodies, in `kernels` (where the scalars are
   shared copies) and in `parallel loop`. A loop's control variable named in a macro body is
   the loop's own, even where a data region around maps a variable of that name; a comment on
   a `#define` line is no part of the macro. */
#include <stdio.h>
#define NX 24 // columns, written to `count` below
#define NY 16 /* rows */
#define IDX(a, i, j) (a[(i) + nx * (j)])
#define GRID(i, j) grid[j][i]
#define SCALE(v) ((v) * weights.scale + weights.shift)
static double field[NX * NY];
#define FIELD(i, j) field[(i) + NX * (j)]
#define TWICE_AT(a) (2.0 * a[k])
struct weights { double scale, shift; };
int main(void) {
  int nx = NX, ny = NY;
  double w[NX * NY], grid[NY][NX];
  struct weights weights = {2.0, 1.0};
  #pragma acc kernels copyout(w, grid, field)
  {
    #pragma acc loop independent
    for (int j = 0; j < ny; j++)
      for (int i = 0; i < nx; i++) {
        IDX(w, i, j) = i + 100 * j;
        GRID(i, j) = SCALE(i - j);
        FIELD(i, j) = IDX(w, i, j) + 0.5;
      }
  }
  double total = 0;
  #pragma acc parallel loop reduction(+:total) copyin(w, grid)
  for (int j = 0; j < NY; j++)
    for (int i = 0; i < NX; i++) total += IDX(w, i, j) - GRID(i, j);
  int k, count = 0;
  double twice[NX];
  #pragma acc data create(k) copyin(w) copyout(twice)
  {
    #pragma acc parallel loop
    for (k = 0; k < NX; k++) twice[k] = TWICE_AT(w);
  }
  #pragma acc serial copy(count)
  for (int i = 0; i < NX; i++) count += 1;
  for (k = 0; k < NX; k++)
    if (twice[k] != 2.0 * w[k]) { printf("macro-bodies: twice[%d] %f\n", k, twice[k]); return 1; }
  if (count != NX) { printf("macro-bodies: count %d\n", count); return 1; }
  double want = 0;
  for (int j = 0; j < NY; j++)
    for (int i = 0; i < NX; i++) {
      double wv = i + 100 * j, gv = (i - j) * 2.0 + 1.0;
      if (w[i + NX * j] != wv || grid[j][i] != gv || field[i + NX * j] != wv + 0.5) {
        printf("macro-bodies: wrong at %d,%d\n", i, j);
        return 1;
      }
      want += wv - gv;
    }
  if (total != want) { printf("macro-bodies: total %f, want %f\n", total, want); return 1; }
  printf("macro-bodies: ok\n");
  return 0;
}
