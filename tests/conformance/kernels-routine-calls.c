/* kernels loops that call the file's routines: one that only computes from its arguments
 * (through a helper, a local array and a const global) lets the dependence test parallelize
 * the loop (`acc cc --info`: gang); one that counts its calls in a global, or reads through a
 * pointer it is given, keeps the loop sequential, and the answers stay the sequential ones. */
#include <math.h>
#include <stdio.h>

#define N 4096

static const double weight = 0.5;
#pragma acc declare copyin(weight)

#pragma acc routine seq
static inline double sq(double x) { return x * x; }

#pragma acc routine seq
double smooth(double x) {
  double taps[3];
  for (int k = 0; k < 3; k++) taps[k] = sq(x + k) * weight;
  return sqrt(taps[0] + taps[1] + taps[2]);
}

int calls;
#pragma acc declare create(calls)

#pragma acc routine seq
int next_ticket(void) { return calls++; }

#pragma acc routine seq
double previous(const double *p, int i) { return i > 0 ? p[i - 1] : 0.0; }

int main(void) {
  static double a[N], b[N];
  static int ticket[N];
  for (int i = 0; i < N; i++) a[i] = i % 17;
  #pragma acc kernels copyin(a) copyout(b)
  for (int i = 0; i < N; i++) b[i] = smooth(a[i]);
  for (int i = 0; i < N; i++) {
    double x = a[i], want = sqrt((sq(x) + sq(x + 1) + sq(x + 2)) * weight);
    if (fabs(b[i] - want) > 1e-12 * want) { printf("smooth: b[%d] = %g, not %g\n", i, b[i], want); return 1; }
  }
  /* Each iteration takes the next ticket: in order only if the loop runs in order. */
  calls = 0;
  #pragma acc update device(calls)
  #pragma acc kernels copyout(ticket)
  for (int i = 0; i < N; i++) ticket[i] = next_ticket();
  #pragma acc update self(calls)
  if (calls != N) { printf("calls = %d\n", calls); return 1; }
  for (int i = 0; i < N; i++)
    if (ticket[i] != i) { printf("ticket[%d] = %d\n", i, ticket[i]); return 1; }
  /* A running sum through the routine's read of the element before. */
  b[0] = 1.0;
  #pragma acc kernels copy(b)
  for (int i = 1; i < N; i++) b[i] = previous(b, i) + 1.0;
  for (int i = 0; i < N; i++)
    if (b[i] != i + 1.0) { printf("previous: b[%d] = %g\n", i, b[i]); return 1; }
  printf("kernels routine calls: ok\n");
  return 0;
}
