/* A `parallel num_gangs(1)` region whose one gang runs sequential sweeps around its loops
 * (the single-gang form of PolyBench-style time steps and recurrences): each vector loop ends
 * before the code after it runs, so the next loop, the next sweep and the gang-redundant
 * statements see every element it wrote (OpenACC 3.3 2.9.4: the loops' vector lanes finish
 * before the vector-single code continues; with one gang there is nobody else to race). */
#include <stdio.h>

#define N 1000
#define T 50
#define M 256

int main(void) {
  static double a[N], b[N], want[N], c[M], x[M];
  for (int i = 0; i < N; i++) {
    a[i] = 0;
    b[i] = i;
    want[i] = i;
  }
  for (int t = 0; t < T; t++) {
    double next[N];
    for (int i = 0; i < N; i++)
      next[i] = want[(i + 1) % N] + 1;
    for (int i = 0; i < N; i++)
      want[i] = next[i];
  }

  /* Each sweep reads the neighbours the previous loop wrote. */
  #pragma acc parallel num_gangs(1) copy(a, b)
  {
    #pragma acc loop seq
    for (int t = 0; t < T; t++) {
      #pragma acc loop vector
      for (int i = 0; i < N; i++)
        a[i] = b[(i + 1) % N] + 1;
      #pragma acc loop vector
      for (int i = 0; i < N; i++)
        b[i] = a[i];
    }
  }
  for (int i = 0; i < N; i++)
    if (b[i] != want[i]) {
      printf("b[%d] = %g, want %g\n", i, b[i], want[i]);
      return 1;
    }

  /* A recurrence: each step adds the whole of a vector reduction to the previous element. */
  for (int k = 0; k < M; k++) {
    c[k] = 1.0 + k % 3;
    x[k] = 0;
  }
  #pragma acc parallel num_gangs(1) copyin(c) copy(x)
  {
    #pragma acc loop seq
    for (int i = 1; i < M; i++) {
      double s = 0;
      #pragma acc loop vector reduction(+:s)
      for (int k = 0; k < M; k++)
        s += c[k];
      x[i] = x[i - 1] + s;
    }
  }
  double total = 0;
  for (int k = 0; k < M; k++)
    total += c[k];
  for (int i = 0; i < M; i++)
    if (x[i] != i * total) {
      printf("x[%d] = %g, want %g\n", i, x[i], i * total);
      return 1;
    }
  printf("one-gang-sweeps: ok\n");
  return 0;
}
