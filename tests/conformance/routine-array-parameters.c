/* Routines whose parameters are arrays with their lengths written C99's way (`double a[n]`,
 * `const float w[static 4]`, `int m[][3]`): C adjusts each to a pointer, ignoring the outer
 * extent, which a GPU's C++ would not take where it names another parameter. Inner extents
 * that name parameters (`double g[n][m]`) are variable-length array types, which C++ lacks:
 * such routines are called with a kernel's variable-length array, with a fixed-size one, and
 * from one another, read and write through them, and are declared before they are defined. */
#include <stdio.h>

#pragma acc routine seq
static double row_sum(int n, int m, const double g[n][m], int i);

#pragma acc routine seq
static double cell(int n, int m, const double g[n][m], int i, int j) { return g[i][j]; }

#pragma acc routine seq
static void scale_row(int n, int m, double g[n][m], int i, double by) {
  for (int j = 0; j < m; j++) g[i][j] *= by;
}

#pragma acc routine seq
static float corners(int n, int m, int l, const float c[n][m][l]) {
  return c[0][0][0] + c[n - 1][m - 1][l - 1] + c[n / 2][m / 2][l / 2];
}

static double row_sum(int n, int m, const double g[n][m], int i) {
  double s = 0;
  for (int j = 0; j < m; j++) s += cell(n, m, g, i, j);
  return s;
}

/* A variable-length array of the host, a fixed-size one, and a 3-D one, through routines. */
static int variable_extents(int rows, int cols) {
  double g[rows][cols], h[4][6], sums[rows], hsums[4];
  float c[3][rows][cols], outc[1] = {0};
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) g[i][j] = i * 0.5 + j;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 6; j++) h[i][j] = i - j * 0.25;
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < rows; i++)
      for (int j = 0; j < cols; j++) c[k][i][j] = (float)(k * 100 + i * 10 + j);
#pragma acc parallel loop copy(g) copyin(h, c) copyout(sums, hsums, outc)
  for (int i = 0; i < rows; i++) {
    scale_row(rows, cols, g, i, 2.0);
    sums[i] = row_sum(rows, cols, g, i);
    if (i < 4) hsums[i] = row_sum(4, 6, h, i);
    if (i == 0) outc[0] = corners(3, rows, cols, c);
  }
  int bad = 0;
  for (int i = 0; i < rows; i++) {
    double s = 0;
    for (int j = 0; j < cols; j++) {
      s += 2.0 * (i * 0.5 + j);
      bad += g[i][j] != 2.0 * (i * 0.5 + j);
    }
    bad += sums[i] != s;
  }
  for (int i = 0; i < 4; i++) {
    double s = 0;
    for (int j = 0; j < 6; j++) s += i - j * 0.25;
    bad += hsums[i] != s;
  }
  bad += outc[0] != c[0][0][0] + c[2][rows - 1][cols - 1] + c[1][rows / 2][cols / 2];
  return bad;
}

#pragma acc routine seq
static double total(int n, const double a[n]) {
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}

#pragma acc routine seq
static float weighted(const float w[static 4], int k) { return w[k % 4] * (float)k; }

#pragma acc routine seq
static int trace(int n, int m[][3]) {
  int t = 0;
  for (int i = 0; i < n && i < 3; i++) t += m[i][i];
  return t;
}

int main(void) {
  enum { N = 32 };
  double a[8], out[N];
  float w[4] = {0.5f, 1.5f, 2.5f, 3.5f}, outw[N];
  int m[3][3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}, outm[N];
  for (int i = 0; i < 8; i++) a[i] = i + 0.25;
#pragma acc parallel loop copyin(a, w, m) copyout(out, outw, outm)
  for (int i = 0; i < N; i++) {
    out[i] = total(1 + i % 8, a);
    outw[i] = weighted(w, i);
    outm[i] = trace(1 + i % 3, m);
  }
  int bad = variable_extents(7, 5);
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int k = 0; k <= i % 8; k++) s += a[k];
    int t = 0;
    for (int k = 0; k <= i % 3; k++) t += m[k][k];
    bad += out[i] != s || outw[i] != w[i % 4] * (float)i || outm[i] != t;
  }
  if (bad) {
    printf("routine-array-parameters: %d wrong\n", bad);
    return 1;
  }
  printf("routine-array-parameters: ok\n");
  return 0;
}
