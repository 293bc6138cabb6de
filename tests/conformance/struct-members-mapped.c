/* A struct whose pointer members' data an enclosing data construct maps (`copy(m.u[0:n])`),
 * used in compute constructs through the struct (`m.u[i]`, `m.scale`) with no clause naming
 * the struct itself: the struct gets the implicit copy of an aggregate at each construct
 * (OpenACC 3.3 2.6.2), so a scalar member the host changes between kernels is current in each,
 * and its pointer members reach the device copies of their data (attached for the construct,
 * detached before the struct's copy goes back, so the host's pointers are never changed). */
#include <stdio.h>
#include <stdlib.h>

#define N 1000
#define STEPS 4

typedef struct {
  int n;
  double scale;
  double *u, *v;
} field;

int main(void) {
  field m;
  m.n = N;
  m.scale = 1.0;
  m.u = malloc(N * sizeof(double));
  m.v = malloc(N * sizeof(double));
  double *u0 = m.u, *v0 = m.v;
  double want_u[N], want_v[N];
  for (int i = 0; i < N; i++) {
    m.u[i] = i;
    m.v[i] = 0;
    want_u[i] = i;
    want_v[i] = 0;
  }
  for (int step = 0; step < STEPS; step++)
    for (int i = 0; i < N; i++) {
      want_v[i] += (1.0 + step) * want_u[i];
      want_u[i] += 1;
    }

  #pragma acc data copy(m.u[0:m.n]) copyout(m.v[0:m.n])
  {
    #pragma acc parallel loop
    for (int i = 0; i < m.n; i++)
      m.v[i] = 0;
    for (int step = 0; step < STEPS; step++) {
      m.scale = 1.0 + step;
      #pragma acc parallel loop
      for (int i = 0; i < m.n; i++) {
        m.v[i] += m.scale * m.u[i];
        m.u[i] += 1;
      }
    }
  }

  if (m.u != u0 || m.v != v0) {
    printf("the struct's pointers changed: %p %p\n", (void *)m.u, (void *)m.v);
    return 1;
  }
  for (int i = 0; i < N; i++)
    if (m.u[i] != want_u[i] || m.v[i] != want_v[i]) {
      printf("u[%d] = %g (want %g), v[%d] = %g (want %g)\n", i, m.u[i], want_u[i], i, m.v[i],
             want_v[i]);
      return 1;
    }
  printf("struct-members-mapped: ok\n");
  free(m.u);
  free(m.v);
  return 0;
}
