/* Combined constructs: parallel loop, kernels loop and serial loop, each
 * carrying clauses of both halves: data clauses, private, firstprivate,
 * reduction (which implies copy of the reduction variable), collapse,
 * gang/vector, num_gangs/vector_length, if, async and wait. */
#include <stdio.h>
#include <stdlib.h>

#define N 300
#define M 20

int main(void) {
  int n = N;
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  static int grid[N][M];
  double alpha = 0.5, dot = 0.0;
  long ksum = 0;
  int smax = -1, tmp;
  for (int i = 0; i < n; i++) { x[i] = i % 13; y[i] = 1.0; }

  #pragma acc parallel loop gang vector num_gangs(6) vector_length(32) copyin(x[0:n]) copy(y[0:n]) firstprivate(alpha)
  for (int i = 0; i < n; i++)
    y[i] += alpha * x[i];

  #pragma acc parallel loop reduction(+:dot) copyin(x[0:n], y[0:n]) if(n > 10)
  for (int i = 0; i < n; i++)
    dot += x[i] * y[i];

  #pragma acc kernels loop collapse(2) independent private(tmp) copyout(grid)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      tmp = i * M;
      grid[i][j] = tmp + j;
    }

  #pragma acc kernels loop reduction(+:ksum) copyin(grid)
  for (int i = 0; i < N; i++)
    ksum += grid[i][M - 1];

  #pragma acc serial loop reduction(max:smax) copyin(x[0:n])
  for (int i = 0; i < n; i++)
    smax = (int)x[i] > smax ? (int)x[i] : smax;

  #pragma acc parallel loop async(3) copy(y[0:n])
  for (int i = 0; i < n; i++)
    y[i] *= 2.0;
  #pragma acc parallel loop async(4) wait(3) copy(y[0:n])
  for (int i = 0; i < n; i++)
    y[i] += 1.0;
  #pragma acc wait(4)

  double rdot = 0.0;
  long rksum = 0;
  int rsmax = -1;
  for (int i = 0; i < n; i++) {
    double ry = 1.0 + 0.5 * x[i];
    rdot += x[i] * ry;
    ry = ry * 2.0 + 1.0;
    if (y[i] != ry) { printf("combined: y[%d] = %g, expected %g\n", i, y[i], ry); return 1; }
    rksum += i * M + M - 1;
    rsmax = (int)x[i] > rsmax ? (int)x[i] : rsmax;
    for (int j = 0; j < M; j++)
      if (grid[i][j] != i * M + j) { printf("combined: grid[%d][%d] = %d\n", i, j, grid[i][j]); return 1; }
  }
  if (dot != rdot || ksum != rksum || smax != rsmax) {
    printf("combined: dot %g/%g ksum %ld/%ld smax %d/%d\n", dot, rdot, ksum, rksum, smax, rsmax);
    return 1;
  }
  printf("combined: ok\n");
  free(x);
  free(y);
  return 0;
}
