/* Reductions at every level of parallelism: a gang/worker/vector nest with
 * the reduction repeated on each loop, per-row reductions into a variable
 * declared in the gang loop (vector and worker reductions), a reduction on
 * the parallel construct itself, a reduction with several variables in one
 * clause, and the same scalar reduced twice in one region. */
#include <stdio.h>

#define NI 12
#define NJ 10
#define NK 30

static int a[NI][NJ][NK];
static long rowsum[NI];
static int rowmax[NI];

int main(void) {
  long total = 0, t2 = 0, cnt = 0;
  int mx = -1000, mn = 1000;
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      for (int k = 0; k < NK; k++) a[i][j][k] = (i * 7 + j * 3 + k * 5) % 61 - 20;

  #pragma acc parallel copyin(a) copy(total)
  {
    #pragma acc loop gang reduction(+:total)
    for (int i = 0; i < NI; i++) {
      #pragma acc loop worker reduction(+:total)
      for (int j = 0; j < NJ; j++) {
        #pragma acc loop vector reduction(+:total)
        for (int k = 0; k < NK; k++)
          total += a[i][j][k];
      }
    }
  }

  #pragma acc parallel copyin(a) copyout(rowsum, rowmax)
  {
    #pragma acc loop gang
    for (int i = 0; i < NI; i++) {
      long rs = 0;
      int rm = -1000;
      #pragma acc loop worker vector collapse(2) reduction(+:rs) reduction(max:rm)
      for (int j = 0; j < NJ; j++)
        for (int k = 0; k < NK; k++) {
          rs += a[i][j][k];
          rm = a[i][j][k] > rm ? a[i][j][k] : rm;
        }
      rowsum[i] = rs;
      rowmax[i] = rm;
    }
  }

  #pragma acc parallel num_gangs(4) copyin(a) reduction(+:cnt)
  {
    #pragma acc loop gang reduction(+:cnt)
    for (int i = 0; i < NI; i++)
      for (int j = 0; j < NJ; j++)
        cnt += a[i][j][0] > 0;
  }

  #pragma acc parallel copyin(a) copy(mx, mn, t2)
  {
    #pragma acc loop gang vector collapse(3) reduction(max:mx) reduction(min:mn)
    for (int i = 0; i < NI; i++)
      for (int j = 0; j < NJ; j++)
        for (int k = 0; k < NK; k++) {
          mx = a[i][j][k] > mx ? a[i][j][k] : mx;
          mn = a[i][j][k] < mn ? a[i][j][k] : mn;
        }
    #pragma acc loop gang reduction(+:t2)
    for (int i = 0; i < NI; i++)
      t2 += a[i][0][0];
    #pragma acc loop gang reduction(+:t2)
    for (int i = 0; i < NI; i++)
      t2 += a[i][1][1];
  }

  long rtotal = 0, rcnt = 0, rt2 = 0;
  int rmx = -1000, rmn = 1000;
  for (int i = 0; i < NI; i++) {
    long rs = 0;
    int rm = -1000;
    for (int j = 0; j < NJ; j++) {
      for (int k = 0; k < NK; k++) {
        rs += a[i][j][k];
        rm = a[i][j][k] > rm ? a[i][j][k] : rm;
        rmn = a[i][j][k] < rmn ? a[i][j][k] : rmn;
      }
      rcnt += a[i][j][0] > 0;
    }
    rtotal += rs;
    rmx = rm > rmx ? rm : rmx;
    rt2 += a[i][0][0] + a[i][1][1];
    if (rowsum[i] != rs || rowmax[i] != rm) {
      printf("reduction-nested: row %d sum %ld/%ld max %d/%d\n", i, rowsum[i], rs, rowmax[i], rm);
      return 1;
    }
  }
  if (total != rtotal || cnt != rcnt || mx != rmx || mn != rmn || t2 != rt2) {
    printf("reduction-nested: total %ld/%ld cnt %ld/%ld max %d/%d min %d/%d t2 %ld/%ld\n", total,
           rtotal, cnt, rcnt, mx, rmx, mn, rmn, t2, rt2);
    return 1;
  }
  printf("reduction-nested: ok\n");
  return 0;
}
