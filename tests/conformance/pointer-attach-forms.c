/* Attach actions of the forms data clauses on pointers take in real code: a section of a
 * struct's pointer member that starts past its target (`copy(s.x[10:20])`, `p->x[lo:len]`),
 * whose device pointer must index as the host's; a `declare create`d global pointer whose
 * target `copyin(gp[0:n])` maps, which a routine reads on the device (OpenACC 3.3 2.7.2,
 * 2.6.8: the present pointer is attached); and `finalize` after two attaching enters, which
 * detaches the member for good, so the struct copied back holds the host's pointer again. */
#include <stdio.h>
#include <stdlib.h>

enum { N = 40 };

typedef struct {
  int n;
  double *x;
} vec;

double *gp;
#pragma acc declare create(gp)

#pragma acc routine seq
static double global_at(int i) { return gp[i]; }

int main(void) {
  int bad = 0;
  vec s = {N, malloc(N * sizeof(double))};
  for (int i = 0; i < N; i++) s.x[i] = i;
#pragma acc parallel loop copy(s.x[10:20])
  for (int i = 10; i < 30; i++) s.x[i] += 100;
  for (int i = 0; i < N; i++) bad += s.x[i] != (i >= 10 && i < 30 ? i + 100 : i);

  vec *p = malloc(sizeof *p);
  p->n = N;
  p->x = malloc(N * sizeof(double));
  double *host_x = p->x;
  for (int i = 0; i < N; i++) p->x[i] = 2 * i;
  int lo = 5, len = 30;
#pragma acc enter data copyin(p[0:1])
#pragma acc enter data copyin(p->x[lo:len])
#pragma acc parallel loop present(p[0:1])
  for (int i = lo; i < lo + len; i++) p->x[i] += 1;
#pragma acc enter data copyin(p->x[lo:len])
#pragma acc exit data copyout(p->x[lo:len]) finalize
#pragma acc exit data copyout(p[0:1])
  bad += p->x != host_x;
  for (int i = 0; i < N; i++) bad += host_x[i] != 2 * i + (i >= lo && i < lo + len);

  gp = malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) gp[i] = i;
  double out[N];
#pragma acc enter data copyin(gp[0:N])
#pragma acc parallel loop copyout(out)
  for (int i = 0; i < N; i++) out[i] = 3 * global_at(i);
#pragma acc exit data delete(gp[0:N])
  for (int i = 0; i < N; i++) bad += out[i] != 3 * i;

  free(s.x);
  free(host_x);
  free(p);
  free(gp);
  if (bad) {
    printf("pointer-attach-forms: %d wrong\n", bad);
    return 1;
  }
  printf("pointer-attach-forms: ok\n");
  return 0;
}
