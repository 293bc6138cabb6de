/* A struct copied back to the host (`exit data copyout`, `update self`) while a pointer member
 * is attached to device memory: the host's struct keeps its host pointer (the device copy of
 * the member points at device memory, which host code must never see). The pattern of
 * meshless CFD solvers that keep a struct of fields on the device: acc had copied the device
 * address into the host struct, and the program's later reads and `free()` used it. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int n;
  double scale;
  double *u;
} field;

int main(void) {
  int bad = 0;
  field f;
  f.n = 64;
  f.scale = 1;
  f.u = malloc(f.n * sizeof(double));
  double *const host_u = f.u;
  for (int i = 0; i < f.n; i++)
    f.u[i] = i;
#pragma acc enter data copyin(f)
#pragma acc enter data copyin(f.u[0:f.n])
#pragma acc parallel loop present(f)
  for (int i = 0; i < f.n; i++)
    f.u[i] *= 2;
#pragma acc serial present(f)
  f.scale = 3;
  /* The whole struct back while its member is attached: the scalar comes, the pointer stays. */
#pragma acc update self(f)
  if (f.u != host_u || f.scale != 3) {
    printf("update self(f): f.u = %p (host %p), scale %g\n", (void *)f.u, (void *)host_u, f.scale);
    bad = 1;
  }
#pragma acc update self(f.u[0:f.n])
#pragma acc exit data copyout(f)
  if (f.u != host_u) {
    printf("exit data copyout(f): f.u = %p, the host's was %p\n", (void *)f.u, (void *)host_u);
    return 1;
  }
  for (int i = 0; i < f.n; i++)
    if (f.u[i] != 2.0 * i) {
      printf("f.u[%d] = %g, want %g\n", i, f.u[i], 2.0 * i);
      bad = 1;
      break;
    }
#pragma acc exit data delete(f.u[0:f.n])
  free(f.u);
  if (!bad)
    printf("struct-copyout-attached: ok\n");
  return bad;
}
