/* Routines whose parameters are arrays with their lengths written C99's way (`double a[n]`,
 * `const float w[static 4]`, `int m[][3]`): C adjusts each to a pointer, ignoring the outer
 * extent, which a GPU's C++ would not take where it names another parameter. */
#include <stdio.h>

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
  int bad = 0;
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
