/* atomic read, write and update, with update in every form: x++, x--,
 * ++x, --x, x binop= expr and x = x binop expr and x = expr binop x for
 * binop + * - / & ^ | << >>, and atomic with no clause (update). Operands
 * are chosen so that any order of the atomic operations gives one answer.
 * Also atomics on array elements (a histogram) and on float / double. */
#include <stdio.h>

#define N 256

int main(void) {
  static int v[N], reads[N];
  int hist[8] = {0};
  int inc = 0, dec = 0, pinc = 0, pdec = 0, add = 0, sub = 0, add2 = 0, add3 = 0, flip = 3;
  unsigned band = 0xFFFFFFFFu, bor = 0, bxor = 0, div = 1u << 20, shl = 1, shr = 1u << 12;
  unsigned band2 = 0xFFFFFFFFu, bor2 = 0, bxor2 = 0;
  long mul = 1, mul2 = 1, mul3 = 1, noclause = 0;
  double dsum = 0.0;
  float fsum = 0.0f;
  int wr = 0, src = 42;
  for (int i = 0; i < N; i++) v[i] = (i * 11) % 29;

  #pragma acc parallel loop copyin(v) copy(hist, inc, dec, pinc, pdec, add, sub, add2, add3, flip, \
      band, bor, bxor, div, shl, shr, band2, bor2, bxor2, mul, mul2, mul3, noclause, dsum, fsum, wr) \
      copyout(reads) copyin(src)
  for (int i = 0; i < N; i++) {
    #pragma acc atomic update
    hist[v[i] % 8]++;
    #pragma acc atomic update
    inc++;
    #pragma acc atomic update
    dec--;
    #pragma acc atomic update
    ++pinc;
    #pragma acc atomic update
    --pdec;
    #pragma acc atomic update
    add += v[i];
    #pragma acc atomic update
    sub -= i;
    #pragma acc atomic update
    add2 = add2 + i;
    #pragma acc atomic update
    add3 = i + add3;
    #pragma acc atomic update
    flip = 1 - flip;
    #pragma acc atomic update
    band &= ~(1u << (i % 16));
    #pragma acc atomic update
    bor |= 1u << (i % 20);
    #pragma acc atomic update
    bxor ^= (unsigned)v[i];
    #pragma acc atomic update
    band2 = band2 & (0xFFFFFFF0u | (unsigned)(i % 16));
    #pragma acc atomic update
    bor2 = bor2 | (unsigned)v[i];
    #pragma acc atomic update
    bxor2 = (unsigned)i ^ bxor2;
    if (i < 10) {
      #pragma acc atomic update
      div /= 2;
      #pragma acc atomic update
      shl <<= 1;
      #pragma acc atomic update
      shr >>= 1;
      #pragma acc atomic update
      mul *= 3;
      #pragma acc atomic update
      mul2 = mul2 * 2;
      #pragma acc atomic update
      mul3 = 5 * mul3;
    }
    #pragma acc atomic
    noclause += 2;
    #pragma acc atomic update
    dsum += 0.5 * v[i];
    #pragma acc atomic update
    fsum += 0.25f;
    #pragma acc atomic write
    wr = 7;
    #pragma acc atomic read
    reads[i] = src;
  }

  int rhist[8] = {0}, radd = 0, radd2 = 0;
  unsigned rbxor = 0, rbor2 = 0, rbxor2 = 0;
  double rdsum = 0.0;
  for (int i = 0; i < N; i++) {
    rhist[v[i] % 8]++;
    radd += v[i];
    radd2 += i;
    rbxor ^= (unsigned)v[i];
    rbor2 |= (unsigned)v[i];
    rbxor2 ^= (unsigned)i;
    rdsum += 0.5 * v[i];
    if (reads[i] != 42) { printf("atomic: reads[%d] = %d\n", i, reads[i]); return 1; }
  }
  for (int b = 0; b < 8; b++)
    if (hist[b] != rhist[b]) { printf("atomic: hist[%d] = %d, expected %d\n", b, hist[b], rhist[b]); return 1; }
  int bad = inc != N || dec != -N || pinc != N || pdec != -N || add != radd || sub != -radd2 ||
            add2 != radd2 || add3 != radd2 || flip != 3 || band != 0xFFFF0000u ||
            bor != 0xFFFFFu || bxor != rbxor || band2 != 0xFFFFFFF0u || bor2 != rbor2 ||
            bxor2 != rbxor2 || div != (1u << 10) || shl != (1u << 10) || shr != (1u << 2) ||
            mul != 59049 || mul2 != 1024 || mul3 != 9765625 || noclause != 2 * N ||
            dsum != rdsum || fsum != 0.25f * N || wr != 7;
  if (bad) {
    printf("atomic: inc %d dec %d pinc %d pdec %d add %d/%d sub %d add2 %d add3 %d flip %d band %x "
           "bor %x bxor %x/%x band2 %x bor2 %x/%x bxor2 %x/%x div %u shl %u shr %u mul %ld mul2 %ld "
           "mul3 %ld noclause %ld dsum %g/%g fsum %g wr %d\n",
           inc, dec, pinc, pdec, add, radd, sub, add2, add3, flip, band, bor, bxor, rbxor, band2,
           bor2, rbor2, bxor2, rbxor2, div, shl, shr, mul, mul2, mul3, noclause, dsum, rdsum,
           (double)fsum, wr);
    return 1;
  }
  printf("atomic: ok\n");
  return 0;
}
