/* `kernels` loops that reduce a scalar without a `reduction` clause (`err = fmax(err, d);`,
 * `sum += a[i];`, `n++;`), as nvc takes them ("Generating implicit reduction"): acc makes them
 * gang loops with the reduction, where the variable's only use in the region is that loop.
 * Every other shape (the variable read elsewhere in the loop or the region, mapped by an
 * enclosing data construct, an integer summing a floating value) must keep the sequential
 * answer. Run on every device, the answers must equal the sequential ones (floating sums to a
 * relative 1e-12, as the order of the additions changes). */
#include <math.h>
#include <stdio.h>
#define N 300
#define M 200
static double A[N][M], Anew[N][M];
static double v[N * M];
static int k[N * M];

/* The classic Jacobi sweep: the largest change, reduced by `fmax` in the nest. */
static double jacobi(int parallel) {
  double err = 1.0;
  (void)parallel; /* read by the directives only */
  int iter = 0;
  for (int j = 0; j < N; j++)
    for (int i = 0; i < M; i++) A[j][i] = j == 0 ? 1.0 : 0.0;
#pragma acc data copy(A) create(Anew) if(parallel)
  while (err > 1e-9 && iter < 40) {
    err = 0.0;
#pragma acc kernels if(parallel)
    for (int j = 1; j < N - 1; j++)
      for (int i = 1; i < M - 1; i++) {
        Anew[j][i] = 0.25 * (A[j][i + 1] + A[j][i - 1] + A[j - 1][i] + A[j + 1][i]);
        err = fmax(err, fabs(Anew[j][i] - A[j][i]));
      }
#pragma acc kernels if(parallel)
    for (int j = 1; j < N - 1; j++)
      for (int i = 1; i < M - 1; i++) A[j][i] = Anew[j][i];
    iter++;
  }
  return err;
}

int main(void) {
  int bad = 0;
  double err = jacobi(1), s_err = jacobi(0);
  if (fabs(err - s_err) > 1e-12 * s_err) {
    printf("jacobi: error %.17g, want %.17g\n", err, s_err);
    bad = 1;
  }
  for (int i = 0; i < N * M; i++) {
    v[i] = (double)((i * 7919) % 1000) / 997.0 - 0.3;
    k[i] = (i * 31) % 17 - 8;
  }
  double sum = 0, lo = 1e30, hi = -1e30, prod = 1;
  long count = 0, ksum = 0;
  unsigned bits = 0;
  int trunc = 0;
#pragma acc kernels copyin(v, k)
  for (int i = 0; i < N * M; i++) {
    sum += v[i];
    if (v[i] > 0.5) count++;
    lo = fmin(lo, v[i]);
    hi = fmax(v[i], hi);
    ksum -= k[i];
    bits |= 1u << (k[i] + 8);
    if (i % 1000 == 0) prod = prod * (1.0 + v[i] / 10);
  }
#pragma acc kernels copyin(v)
  for (int i = 0; i < N * M; i++)
    trunc += v[i]; /* C converts after each step: no reduction, sequential */
  double s_sum = 0, s_lo = 1e30, s_hi = -1e30, s_prod = 1;
  long s_count = 0, s_ksum = 0;
  unsigned s_bits = 0;
  int s_trunc = 0;
  for (int i = 0; i < N * M; i++) {
    s_sum += v[i];
    if (v[i] > 0.5) s_count++;
    s_lo = fmin(s_lo, v[i]);
    s_hi = fmax(v[i], s_hi);
    s_ksum -= k[i];
    s_bits |= 1u << (k[i] + 8);
    if (i % 1000 == 0) s_prod = s_prod * (1.0 + v[i] / 10);
    s_trunc += v[i];
  }
  if (fabs(sum - s_sum) > 1e-12 * fabs(s_sum) || count != s_count || lo != s_lo ||
      hi != s_hi || ksum != s_ksum || bits != s_bits ||
      fabs(prod - s_prod) > 1e-12 * fabs(s_prod) || trunc != s_trunc) {
    printf("kernels: %g %ld %g %g %ld %x %g %d, want %g %ld %g %g %ld %x %g %d\n", sum, count,
           lo, hi, ksum, bits, prod, trunc, s_sum, s_count, s_lo, s_hi, s_ksum, s_bits, s_prod,
           s_trunc);
    bad = 1;
  }

  /* Extremes chosen by a comparison (`if (v[i] > m) m = v[i];`, a conditional), on doubles
   * and ints: `max` and `min` reductions too. */
  double cmax = -1e30, cmin = 1e30, s_cmax = -1e30, s_cmin = 1e30;
  int kmax = -100, kmin = 100, s_kmax = -100, s_kmin = 100;
#pragma acc kernels copyin(v, k)
  for (int i = 0; i < N * M; i++) {
    if (v[i] > cmax) cmax = v[i];
    cmin = v[i] < cmin ? v[i] : cmin;
    if (kmax < k[i]) {
      kmax = k[i];
    }
    kmin = kmin <= k[i] ? kmin : k[i];
  }
  for (int i = 0; i < N * M; i++) {
    if (v[i] > s_cmax) s_cmax = v[i];
    if (v[i] < s_cmin) s_cmin = v[i];
    if (k[i] > s_kmax) s_kmax = k[i];
    if (k[i] < s_kmin) s_kmin = k[i];
  }
  if (cmax != s_cmax || cmin != s_cmin || kmax != s_kmax || kmin != s_kmin) {
    printf("compared extremes: %g %g %d %d, want %g %g %d %d\n", cmax, cmin, kmax, kmin, s_cmax,
           s_cmin, s_kmax, s_kmin);
    bad = 1;
  }

  /* `kernels loop` and a `loop` of its own in `kernels`, without the clause; asynchronous. */
  long evens = 0;
  double total = 0;
#pragma acc kernels loop copyin(k)
  for (int i = 0; i < N * M; i++)
    if (k[i] % 2 == 0) evens += 1;
#pragma acc kernels copyin(v) async(1)
  {
#pragma acc loop
    for (int i = 0; i < N * M; i++) total = total + 2 * v[i];
  }
#pragma acc wait(1)
  long s_evens = 0;
  for (int i = 0; i < N * M; i++) s_evens += k[i] % 2 == 0;
  if (evens != s_evens || fabs(total - 2 * s_sum) > 1e-12 * fabs(s_sum)) {
    printf("kernels loop: %ld %g, want %ld %g\n", evens, total, s_evens, 2 * s_sum);
    bad = 1;
  }

  /* Shapes that stay sequential: a running value read in the loop, two loops of a region
   * reducing one variable, a variable an enclosing data construct maps. */
  double run = 0, twice = 0, mapped = 0;
  static double prefix[N * M];
#pragma acc kernels copyin(v) copyout(prefix)
  for (int i = 0; i < N * M; i++) {
    run += v[i];
    prefix[i] = run;
  }
#pragma acc kernels copyin(v)
  {
    for (int i = 0; i < N * M; i++) twice += v[i];
    for (int i = 0; i < N * M; i++) twice += v[i];
  }
#pragma acc data copy(mapped) copyin(v)
  {
#pragma acc kernels
    for (int i = 0; i < N * M; i++) mapped += v[i];
  }
  double s_run = 0;
  for (int i = 0; i < N * M; i++) {
    s_run += v[i];
    if (prefix[i] != s_run) {
      printf("prefix[%d] = %g, want %g\n", i, prefix[i], s_run);
      bad = 1;
      break;
    }
  }
  if (run != s_run || fabs(twice - 2 * s_sum) > 1e-12 * fabs(s_sum) ||
      fabs(mapped - s_sum) > 1e-12 * fabs(s_sum)) {
    printf("sequential shapes: %g %g %g, want %g %g %g\n", run, twice, mapped, s_run, 2 * s_sum,
           s_sum);
    bad = 1;
  }
  if (!bad)
    printf("OK\n");
  return bad;
}
