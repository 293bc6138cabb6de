/* Array elements in data clauses and `update`: each is that one element (OpenACC 3.3's var
 * includes array elements; GCC and Flang read them so), as an n-body code writes
 * `update self(particle[i])` to look at a few particles between steps. */
#include <stdio.h>

#define N 64

struct particle {
  double x, v;
};

int main(void) {
  struct particle p[N];
  double a[N];
  int bad = 0;
  for (int i = 0; i < N; i++) {
    p[i].x = i;
    p[i].v = 1;
    a[i] = 0;
  }
#pragma acc data copyin(p[0:N]) copyout(a[0:N])
  {
#pragma acc parallel loop present(p[0:N], a[0:N])
    for (int i = 0; i < N; i++) {
      p[i].x += p[i].v;
      a[i] = 2 * i;
    }
    for (int i = 0; i < N; i += 8) {
#pragma acc update self(p[i])
      bad += p[i].x != i + 1;
    }
    /* One element fetched, changed on the host and sent back alone. */
#pragma acc update self(p[5])
    p[5].v = 10;
#pragma acc update device(p[5])
#pragma acc parallel loop present(p[0:N])
    for (int i = 0; i < N; i++) p[i].x += p[i].v;
#pragma acc update self(p[0:N])
  }
  for (int i = 0; i < N; i++) {
    double want = i == 5 ? 5 + 1 + 10 : i + 2;
    bad += p[i].x != want || a[i] != 2 * i;
  }
  /* A scalar element mapped on its own by enter data. */
  double s[4] = {1, 2, 3, 4};
#pragma acc enter data copyin(s[2])
#pragma acc parallel present(s[2:1])
  s[2] *= 10;
#pragma acc exit data copyout(s[2])
  bad += s[0] != 1 || s[1] != 2 || s[2] != 30 || s[3] != 4;
  if (bad) {
    printf("data-array-elements: %d wrong\n", bad);
    return 1;
  }
  printf("data-array-elements: ok\n");
  return 0;
}
