/* atomic capture in every form. Expression statements: v = x++; v = x--;
 * v = ++x; v = --x; v = x binop= expr; v = x = x binop expr;
 * v = x = expr binop x. Structured blocks: {v = x; x binop= expr;}
 * {x binop= expr; v = x;} {v = x; x = x binop expr;} {v = x; x = expr binop x;}
 * {x = x binop expr; v = x;} {x = expr binop x; v = x;} {v = x; x = expr;}
 * and {v = x; x++;} {v = x; ++x;} {++x; v = x;} {x++; v = x;} and the same
 * four with --. Each counter is captured by every iteration, so the
 * captured values must be exactly the members of an arithmetic progression
 * (or, for the exchange, the old values plus the final one), in any order. */
#include <stdio.h>
#include <string.h>

#define N 200
#define F 22 /* number of forms */

static long cap[F][N];

/* the values in c[0..n) must be start, start + step, ... in some order */
static int progression(int form, const long *c, int n, long start, long step) {
  static char seen[N];
  memset(seen, 0, sizeof seen);
  for (int i = 0; i < n; i++) {
    long k = (c[i] - start) / step;
    if ((c[i] - start) % step != 0 || k < 0 || k >= n || seen[k]) {
      printf("atomic-capture: form %d: value %ld at %d is not in the progression %ld + %ld k\n",
             form, c[i], i, start, step);
      return 1;
    }
    seen[k] = 1;
  }
  return 0;
}

int main(void) {
  long x[F];
  long sw = -1;
  long swcap[N];
  for (int f = 0; f < F; f++) x[f] = 1000;

  #pragma acc parallel loop copy(x, sw) copyout(cap, swcap)
  for (int i = 0; i < N; i++) {
    long v;
    #pragma acc atomic capture
    v = x[0]++;
    cap[0][i] = v;
    #pragma acc atomic capture
    v = x[1]--;
    cap[1][i] = v;
    #pragma acc atomic capture
    v = ++x[2];
    cap[2][i] = v;
    #pragma acc atomic capture
    v = --x[3];
    cap[3][i] = v;
    #pragma acc atomic capture
    v = x[4] += 3;
    cap[4][i] = v;
    #pragma acc atomic capture
    v = x[5] = x[5] - 2;
    cap[5][i] = v;
    #pragma acc atomic capture
    v = x[6] = 5 + x[6];
    cap[6][i] = v;
    #pragma acc atomic capture
    { v = x[7]; x[7] += 4; }
    cap[7][i] = v;
    #pragma acc atomic capture
    { x[8] -= 3; v = x[8]; }
    cap[8][i] = v;
    #pragma acc atomic capture
    { v = x[9]; x[9] = x[9] + 6; }
    cap[9][i] = v;
    #pragma acc atomic capture
    { v = x[10]; x[10] = 7 + x[10]; }
    cap[10][i] = v;
    #pragma acc atomic capture
    { x[11] = x[11] + 2; v = x[11]; }
    cap[11][i] = v;
    #pragma acc atomic capture
    { x[12] = 9 + x[12]; v = x[12]; }
    cap[12][i] = v;
    #pragma acc atomic capture
    { v = x[13]; x[13]++; }
    cap[13][i] = v;
    #pragma acc atomic capture
    { v = x[14]; ++x[14]; }
    cap[14][i] = v;
    #pragma acc atomic capture
    { ++x[15]; v = x[15]; }
    cap[15][i] = v;
    #pragma acc atomic capture
    { x[16]++; v = x[16]; }
    cap[16][i] = v;
    #pragma acc atomic capture
    { v = x[17]; x[17]--; }
    cap[17][i] = v;
    #pragma acc atomic capture
    { v = x[18]; --x[18]; }
    cap[18][i] = v;
    #pragma acc atomic capture
    { --x[19]; v = x[19]; }
    cap[19][i] = v;
    #pragma acc atomic capture
    { x[20]--; v = x[20]; }
    cap[20][i] = v;
    #pragma acc atomic capture
    { v = x[21]; x[21] = x[21] * 1; }
    cap[21][i] = v;
    #pragma acc atomic capture
    { v = sw; sw = i; }
    swcap[i] = v;
  }

  /* start and step of each captured progression; x ends at 1000 + step * N.
   * Form 21 multiplies by one, so every capture sees 1000. */
  static const long start[F] = {1000, 1000, 1001, 999, 1003, 998, 1005, 1000, 997, 1000, 1000,
                                1002, 1009, 1000, 1000, 1001, 1001, 1000, 1000, 999, 999, 1000};
  static const long step[F] = {1, -1, 1, -1, 3, -2, 5, 4, -3, 6, 7, 2, 9, 1, 1, 1, 1, -1, -1, -1, -1, 0};
  for (int f = 0; f < F; f++) {
    if (x[f] != 1000 + step[f] * N) { printf("atomic-capture: form %d final x = %ld\n", f, x[f]); return 1; }
    if (step[f] == 0) {
      for (int i = 0; i < N; i++)
        if (cap[f][i] != 1000) { printf("atomic-capture: form %d cap[%d] = %ld\n", f, i, cap[f][i]); return 1; }
    } else if (progression(f, cap[f], N, start[f], step[f])) {
      return 1;
    }
  }
  /* exchange: the captured old values and the final value are -1, 0, ..., N-1 */
  static char seen[N + 1];
  for (int i = 0; i <= N; i++) {
    long val = i < N ? swcap[i] : sw;
    if (val < -1 || val >= N || seen[val + 1]) { printf("atomic-capture: exchange value %ld\n", val); return 1; }
    seen[val + 1] = 1;
  }
  printf("atomic-capture: ok\n");
  return 0;
}
