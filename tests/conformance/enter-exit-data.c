/* enter data / exit data: copyin, create, copyout, delete; dynamic
 * reference counts (two enters and one exit keep the data present, a
 * finalize removes it whatever the count); if clauses (false: nothing
 * happens, the data stays absent and a later copy clause maps it); async
 * and wait clauses on enter/exit data with compute work on the same queue;
 * enter data in one function and exit data in another. */
#include <stdio.h>
#include <stdlib.h>

#define N 256

static double *g;

static void open_g(int n) {
  g = malloc(n * sizeof *g);
  for (int i = 0; i < n; i++) g[i] = i;
  #pragma acc enter data copyin(g[0:n])
}

static void close_g(int n) {
  #pragma acc exit data copyout(g[0:n])
}

int main(void) {
  int n = N, no = 0;
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
  double *t = malloc(n * sizeof *t);
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = 0.0; c[i] = 2.0 * i; }

  /* reference counting */
  #pragma acc enter data copyin(a[0:n])
  #pragma acc enter data copyin(a[0:n])
  #pragma acc exit data delete(a[0:n])
  #pragma acc parallel loop present(a[0:n])
  for (int i = 0; i < n; i++)
    a[i] += 1.0;
  #pragma acc enter data copyin(a[0:n])
  #pragma acc enter data create(t[0:n])
  #pragma acc parallel loop present(a[0:n], t[0:n])
  for (int i = 0; i < n; i++)
    t[i] = a[i] * 3.0;
  #pragma acc parallel loop present(a[0:n], t[0:n])
  for (int i = 0; i < n; i++)
    a[i] = t[i] - 1.0;
  #pragma acc exit data delete(t[0:n])
  #pragma acc exit data copyout(a[0:n]) finalize

  /* if clause: false means the data is not mapped */
  #pragma acc enter data create(b[0:n]) if(no)
  #pragma acc parallel loop copy(b[0:n])
  for (int i = 0; i < n; i++)
    b[i] = i * 0.5;
  #pragma acc exit data delete(b[0:n]) if(no)
  #pragma acc enter data copyin(b[0:n]) if(n > 0)
  #pragma acc parallel loop present(b[0:n])
  for (int i = 0; i < n; i++)
    b[i] += 1.0;
  #pragma acc exit data copyout(b[0:n]) if(n > 0)

  /* async and wait */
  #pragma acc enter data copyin(c[0:n]) async(1)
  #pragma acc parallel loop present(c[0:n]) async(1)
  for (int i = 0; i < n; i++)
    c[i] *= 2.0;
  #pragma acc exit data copyout(c[0:n]) async(2) wait(1)
  #pragma acc wait(2)

  /* across functions */
  open_g(n);
  #pragma acc parallel loop present(g[0:n])
  for (int i = 0; i < n; i++)
    g[i] = -g[i];
  close_g(n);

  for (int i = 0; i < n; i++) {
    double ra = (i + 1.0) * 3.0 - 1.0;
    if (a[i] != ra || b[i] != i * 0.5 + 1.0 || c[i] != 4.0 * i || g[i] != -i) {
      printf("enter-exit-data: i=%d a=%g b=%g c=%g g=%g\n", i, a[i], b[i], c[i], g[i]);
      return 1;
    }
  }
  printf("enter-exit-data: ok\n");
  free(a); free(b); free(c); free(t); free(g);
  return 0;
}
