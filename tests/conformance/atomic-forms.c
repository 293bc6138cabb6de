/* atomic update and capture in the forms that are easy to get wrong once taken
 * apart: `x = e op x` for the operators that do not commute (and their
 * captures), locations spelled through pointers and members, `e` with operators
 * of its own, 1- and 2-byte locations, and a statement written through a macro,
 * which acc cannot read as one of the forms and makes atomic with the device's
 * lock (`BUMP(plain)`). Each result is the same whatever order the iterations
 * run in. */
#include <stdio.h>

#define N 400 /* even: an involution applied N times gives the start back */
#define BUMP(x) x = x + 1

struct counters {
  long hits;
  double scale;
};

int main(void) {
  long flip = 10, cflip = 10;
  double inv = 4.0, cinv = 4.0;
  long twice = 0, plain = 0, weighted = 0;
  unsigned char small = 0;
  short mid = 0;
  struct counters s = {0, 0.0};
  struct counters *ps = &s;
  long flip_old[N], inv_seen[N];
  long rsh = 0;

  #pragma acc parallel loop copy(flip, cflip, inv, cinv, twice, plain, weighted, small, mid, s, rsh) copyout(flip_old, inv_seen)
  for (int i = 0; i < N; i++) {
    long a = i % 3, b = 2;
    #pragma acc atomic update
    flip = 7 - flip;
    #pragma acc atomic update
    inv = 1.0 / inv;
    long v;
    #pragma acc atomic capture
    { v = cflip; cflip = 7 - cflip; }
    flip_old[i] = v;
    double w;
    #pragma acc atomic capture
    w = cinv = 1.0 / cinv;
    inv_seen[i] = w == 4.0 ? 1 : w == 0.25 ? 2 : 0;
    #pragma acc atomic update
    twice = twice + a * b;
    #pragma acc atomic update
    weighted = a * b + (i % 2) + weighted;
    #pragma acc atomic
    BUMP(plain);
    #pragma acc atomic update
    small += 1;
    #pragma acc atomic update
    mid = mid + 3;
    #pragma acc atomic update
    s.hits++;
    #pragma acc atomic update
    s.scale = s.scale + 0.5;
    #pragma acc atomic update
    ps->hits = (ps->hits) + 1;
    #pragma acc atomic update
    rsh = 3 >> rsh; /* 0 -> 3 -> 0 */
  }

  int ok = 1;
  long want_twice = 0, want_weighted = 0;
  long olds[2] = {0, 0};
  long invs[3] = {0, 0, 0};
  for (int i = 0; i < N; i++) {
    want_twice += (i % 3) * 2;
    want_weighted += (i % 3) * 2 + (i % 2);
    if (flip_old[i] == 10) olds[0]++;
    else if (flip_old[i] == -3) olds[1]++;
    else {
      printf("atomic-forms: captured %ld from 7 - x\n", flip_old[i]);
      ok = 0;
    }
    invs[inv_seen[i]]++;
  }
  if (flip != 10 || cflip != 10 || inv != 4.0 || cinv != 4.0) {
    printf("atomic-forms: flip %ld cflip %ld inv %g cinv %g\n", flip, cflip, inv, cinv);
    ok = 0;
  }
  if (olds[0] != N / 2 || olds[1] != N / 2 || invs[1] != N / 2 || invs[2] != N / 2) {
    printf("atomic-forms: captures %ld/%ld and %ld/%ld/%ld\n", olds[0], olds[1], invs[0], invs[1],
           invs[2]);
    ok = 0;
  }
  if (twice != want_twice || weighted != want_weighted || plain != N) {
    printf("atomic-forms: twice %ld/%ld weighted %ld/%ld plain %ld\n", twice, want_twice,
           weighted, want_weighted, plain);
    ok = 0;
  }
  if (small != (unsigned char)N || mid != 3 * N || s.hits != 2 * N || s.scale != 0.5 * N) {
    printf("atomic-forms: small %d mid %d hits %ld scale %g\n", small, mid, s.hits, s.scale);
    ok = 0;
  }
  if (rsh != 0) {
    printf("atomic-forms: rsh %ld\n", rsh);
    ok = 0;
  }
  if (!ok) return 1;
  printf("atomic-forms: ok\n");
  return 0;
}
