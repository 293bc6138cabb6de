/* routine directives: unnamed (before the definition) and named
 * (routine(name) after a prototype, definition later), at every level of
 * parallelism: seq functions called from vector loops and from other
 * routines, a vector routine with a vector loop and reduction, a worker
 * routine with worker and vector loops, a gang routine with a gang loop
 * called from gang-redundant code, routines called from kernels and serial. */
#include <stdio.h>

#define N 40
#define M 64

static int sq(int x);
#pragma acc routine(sq) seq

#pragma acc routine seq
static int poly(int x) {
  return sq(x) + 3 * x + 1;
}

#pragma acc routine vector
static long row_sum(const int *row, int m) {
  long s = 0;
  #pragma acc loop vector reduction(+:s)
  for (int j = 0; j < m; j++)
    s += poly(row[j]);
  return s;
}

#pragma acc routine worker
static void fill_rows(int *rows, int first, int count, int m) {
  #pragma acc loop worker
  for (int r = first; r < first + count; r++) {
    #pragma acc loop vector
    for (int j = 0; j < m; j++)
      rows[r * m + j] = (r * 7 + j) % 13;
  }
}

#pragma acc routine gang
static void scale_all(long *v, int n, long k) {
  #pragma acc loop gang worker vector
  for (int i = 0; i < n; i++)
    v[i] *= k;
}

static int sq(int x) { return x * x; }

int main(void) {
  static int rows[N * M];
  static long sums[N], sums2[N];
  int chunk = 8;

  #pragma acc parallel copyout(rows)
  {
    #pragma acc loop gang
    for (int c = 0; c < N / chunk; c++)
      fill_rows(rows, c * chunk, chunk, M);
  }

  #pragma acc parallel copyin(rows) copyout(sums)
  {
    #pragma acc loop gang worker
    for (int r = 0; r < N; r++)
      sums[r] = row_sum(&rows[r * M], M);
  }

  #pragma acc parallel copy(sums)
  {
    scale_all(sums, N, 2);
  }

  #pragma acc kernels copyin(rows) copyout(sums2)
  {
    for (int r = 0; r < N; r++)
      sums2[r] = poly(rows[r * M]) + sq(2);
  }

  int s0 = 0;
  #pragma acc serial copy(s0)
  {
    s0 = poly(5);
  }

  for (int r = 0; r < N; r++) {
    long want = 0;
    for (int j = 0; j < M; j++) {
      int v = (r * 7 + j) % 13;
      if (rows[r * M + j] != v) { printf("routine: rows[%d][%d] = %d\n", r, j, rows[r * M + j]); return 1; }
      want += v * v + 3 * v + 1;
    }
    int v0 = (r * 7) % 13;
    if (sums[r] != 2 * want || sums2[r] != v0 * v0 + 3 * v0 + 1 + 4) {
      printf("routine: row %d sums=%ld (expected %ld) sums2=%ld\n", r, sums[r], 2 * want, sums2[r]);
      return 1;
    }
  }
  if (s0 != 41) { printf("routine: s0 = %d, expected 41\n", s0); return 1; }
  printf("routine: ok\n");
  return 0;
}
