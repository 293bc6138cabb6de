/* A struct reached through its members' clauses only: `copy(v.a, v.b[:4])` on a compute
 * construct gives `v` itself the implicit copy of an aggregate (OpenACC 3.3 2.6.2), first, so
 * that `v.a` is part of it and `v.b` attaches to the device copy of `b`; a member's section on
 * a construct inside data that holds the struct (`enter data copyin(v)`, then
 * `copyout(v.c[:4])`) attaches as `copy` does; and a pointer to a present struct
 * (`copy(m->a[0:4])`) reaches the kernel as the struct's device address. */
#include <stdio.h>
#include <stdlib.h>

struct with_array {
  int a;
  int *b;
};

struct holder {
  int *c;
};

typedef struct {
  int *a;
} S;

int main(void) {
  int bad = 0;

  int b[4] = {0};
  struct with_array v = {3, b};
#pragma acc parallel loop copy(v.a, v.b[:4])
  for (int i = 0; i < 4; i++) v.b[i] = v.a + i;
  bad += b[0] != 3 || b[3] != 6;

  int b2[4] = {0};
  struct with_array w = {5, b2};
#pragma acc parallel loop copy(w.b[:4])
  for (int i = 0; i < 4; i++) w.b[i] = w.a * i;
  bad += b2[1] != 5 || b2[3] != 15;

  int z[4] = {0};
  struct holder h = {z};
#pragma acc enter data copyin(h)
#pragma acc parallel loop copyout(h.c[:4])
  for (int i = 0; i < 4; i++) h.c[i] = i + 1;
#pragma acc exit data delete(h)
  bad += z[0] != 1 || z[3] != 4;

  S *m = malloc(sizeof *m);
  m->a = calloc(4, sizeof(int));
#pragma acc enter data copyin(m[0:1])
#pragma acc parallel loop copy(m->a[0:4])
  for (int j = 0; j < 4; j++) m->a[j] += j + 1;
#pragma acc exit data copyout(m[0:1])
  bad += m->a[0] != 1 || m->a[3] != 4;
  free(m->a);
  free(m);

  if (bad) {
    printf("struct-member-clauses: %d wrong\n", bad);
    return 1;
  }
  printf("struct-member-clauses: ok\n");
  return 0;
}
