/* Data, compute (explicit, implicit and no data), update, async enter data, waits with the
 * wait events toggled off and on, and exit data, for the recorder's events. */
#include <acc_prof.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1000;
  double *a = malloc(n * sizeof *a);
  for (int i = 0; i < n; i++) a[i] = i;
  #pragma acc data copy(a[0:n])
  {
    #pragma acc parallel loop present(a[0:n])
    for (int i = 0; i < n; i++) a[i] *= 2;
    #pragma acc update self(a[0:n])
  }
  int b[8] = {0};
  #pragma acc parallel loop
  for (int i = 0; i < 8; i++) b[i] = i;
  #pragma acc enter data copyin(a[0:n]) async(1)
  acc_prof_unregister(acc_ev_wait_start, NULL, acc_toggle);
  acc_prof_unregister(acc_ev_wait_end, NULL, acc_toggle_per_thread);
  #pragma acc wait(1)
  acc_prof_register(acc_ev_wait_start, NULL, acc_toggle);
  acc_prof_register(acc_ev_wait_end, NULL, acc_toggle_per_thread);
  #pragma acc wait(1)
  #pragma acc exit data delete(a[0:n])
  #pragma acc parallel num_gangs(1)
  { }
  for (int i = 0; i < n; i++)
    if (a[i] != 2.0 * i) { printf("a[%d] = %g\n", i, a[i]); return 1; }
  for (int i = 0; i < 8; i++)
    if (b[i] != i) { printf("b[%d] = %d\n", i, b[i]); return 1; }
  printf("app: ok\n");
  free(a);
  return 0;
}
