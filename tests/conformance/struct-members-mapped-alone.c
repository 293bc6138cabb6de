/* A struct whose pointer members' targets the program maps on their own (`enter data
 * copyin(s.arr[0:n])`, in the function that uses them or in another), never the struct
 * itself, and then uses as
 * `s.arr[i]` in compute constructs: the constructs copy the struct implicitly, and its members
 * are attached to their targets' device copies there, so the kernels work on the mapped data
 * (not the host's memory), and the struct the host keeps still points at the host's arrays.
 * So does a construct whose own `copyin(s)` copies the struct as shallowly. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int n;
  double *arr;
} vec_t;

struct grid {
  int n;
  float *u, *v;
  const char *name;
} grid;

static void grid_init(int n) {
  grid.n = n;
  grid.u = malloc(n * sizeof *grid.u);
  grid.v = malloc(n * sizeof *grid.v);
  grid.name = "grid";
  for (int i = 0; i < n; i++) grid.u[i] = (float)i, grid.v[i] = -1.0f;
#pragma acc enter data copyin(grid.u[0:n]) create(grid.v[0:n])
}

static void grid_step(void) {
#pragma acc parallel loop
  for (int i = 1; i < grid.n - 1; i++)
    grid.v[i] = grid.u[i - 1] + grid.u[i] + grid.u[i + 1];
}

static int grid_check(void) {
  float *u = grid.u, *v = grid.v;
#pragma acc update self(grid.v[1:grid.n - 2])
#pragma acc exit data delete(grid.u[0:grid.n], grid.v[0:grid.n])
  int bad = grid.u != u || grid.v != v;
  for (int i = 1; i < grid.n - 1; i++) bad += grid.v[i] != 3.0f * (float)i;
  free(grid.u);
  free(grid.v);
  return bad;
}

int main(void) {
  int bad = 0;
  vec_t s;
  s.n = 1000;
  s.arr = malloc(s.n * sizeof *s.arr);
  double *host = s.arr;
  for (int i = 0; i < s.n; i++) s.arr[i] = i;
#pragma acc enter data copyin(s.arr[0:s.n])
#pragma acc parallel loop
  for (int i = 0; i < s.n; i++) s.arr[i] *= 2;
#pragma acc kernels
  for (int i = 0; i < s.n; i++) s.arr[i] += 1;
#pragma acc parallel loop copyin(s)
  for (int i = 0; i < s.n; i++) s.arr[i] += 3;
  bad += s.arr != host;
#pragma acc exit data copyout(s.arr[0:s.n])
  for (int i = 0; i < s.n; i++) bad += s.arr[i] != 2.0 * i + 4;

  free(s.arr);

  grid_init(64);
  grid_step();
  bad += grid_check();
  if (bad) {
    printf("struct-members-mapped-alone: %d wrong\n", bad);
    return 1;
  }
  printf("struct-members-mapped-alone: ok\n");
  return 0;
}
