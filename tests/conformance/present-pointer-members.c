/* `present` naming a struct's pointer member alone (`present(s.x)`), the way codes written for
 * nvc say that the arrays a struct points to are on the device (an n-body code's particle
 * arrays): the data the member points to must be present, and a kernel that copies the struct
 * implicitly reaches that data's device copy through the member, on a compute construct and
 * inside a data construct alike, as `present(p)` of a plain pointer does. */
#include <stdio.h>
#include <stdlib.h>

struct particles {
  float *x, *v;
  int n;
};

static void step(struct particles in, float dt) {
#pragma acc data present(in.x, in.v)
  {
#pragma acc parallel loop
    for (int i = 0; i < in.n; i++) in.x[i] += dt * in.v[i];
  }
}

static void kick(struct particles in) {
#pragma acc parallel loop present(in.v)
  for (int i = 0; i < in.n; i++) in.v[i] += 1.0f;
}

int main(void) {
  enum { N = 100 };
  struct particles p = {malloc(N * sizeof(float)), malloc(N * sizeof(float)), N};
  for (int i = 0; i < N; i++) {
    p.x[i] = (float)i;
    p.v[i] = 0.5f;
  }
#pragma acc data copy(p.x[0:N], p.v[0:N])
  {
    step(p, 2.0f);
    kick(p);
    step(p, 1.0f);
  }
  int bad = 0;
  for (int i = 0; i < N; i++) {
    bad += p.x[i] != (float)i + 1.0f + 1.5f;
    bad += p.v[i] != 1.5f;
  }
  free(p.x);
  free(p.v);
  if (bad) {
    printf("present-pointer-members: %d wrong\n", bad);
    return 1;
  }
  printf("present-pointer-members: ok\n");
  return 0;
}
