/* update directive: self, host (its synonym) and device, on whole arrays,
 * subarrays and scalars; if (true and false: a false update does nothing
 * even for absent data); if_present (no-op for absent data); async and
 * wait, with the update queued behind compute work. Every update here is
 * one a discrete device needs, and on shared memory each is harmless. */
#include <stdio.h>
#include <stdlib.h>

#define N 300

int main(void) {
  int n = N, yes = 1, no = 0;
  double *a = malloc(n * sizeof *a), *absent = malloc(n * sizeof *absent);
  static int b[N];
  int s = 5, bad = 0;
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = -i; absent[i] = 7.0; }

  #pragma acc data copy(a[0:n], b, s)
  {
    #pragma acc parallel loop present(a[0:n])
    for (int i = 0; i < n; i++)
      a[i] *= 2.0;
    #pragma acc update self(a[0:n])
    for (int i = 0; i < n; i++) {
      if (a[i] != 2.0 * i) { printf("update: after update self a[%d] = %g\n", i, a[i]); bad = 1; break; }
      a[i] += 1.0;
    }
    #pragma acc update device(a[0:n])
    #pragma acc parallel loop present(a[0:n], b)
    for (int i = 0; i < n; i++) {
      a[i] *= 3.0;
      b[i] = (int)a[i];
    }
    #pragma acc update host(a[0:n / 2]) if(yes)
    #pragma acc update self(a[n / 2:n - n / 2]) if(no)
    #pragma acc update self(absent[0:n]) if_present
    #pragma acc update device(absent[0:n]) if(no)
    for (int i = 0; i < n / 2; i++)
      if (a[i] != 3.0 * (2.0 * i + 1.0)) { printf("update: after update host a[%d] = %g\n", i, a[i]); bad = 1; break; }

    s = 11;
    #pragma acc update device(s)
    #pragma acc parallel loop present(b, s) async(1)
    for (int i = 0; i < n; i++)
      b[i] += s;
    #pragma acc update self(b[0:n]) async(1)
    #pragma acc wait(1)
    for (int i = 0; i < n; i++)
      if (b[i] != 3 * (2 * i + 1) + 11) { printf("update: after async update b[%d] = %d\n", i, b[i]); bad = 1; break; }
    #pragma acc parallel loop present(b) async(2)
    for (int i = 0; i < n; i++)
      b[i] -= 11;
    #pragma acc update self(b[0:n]) wait(2)
    for (int i = 0; i < n; i++)
      if (b[i] != 3 * (2 * i + 1)) { printf("update: after wait update b[%d] = %d\n", i, b[i]); bad = 1; break; }
    #pragma acc serial present(s)
    {
      s += 1;
    }
    #pragma acc update self(s)
    if (s != 12) { printf("update: s = %d, expected 12\n", s); bad = 1; }
  }

  if (bad) return 1;
  for (int i = 0; i < n; i++)
    if (a[i] != 3.0 * (2.0 * i + 1.0) || absent[i] != 7.0) {
      printf("update: end a[%d] = %g absent = %g\n", i, a[i], absent[i]);
      return 1;
    }
  printf("update: ok\n");
  free(a); free(absent);
  return 0;
}
