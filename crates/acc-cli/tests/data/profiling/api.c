/* The data routines and acc_shutdown, for the recorder's events: each routine raises what
 * the directive doing the same would, with acc_construct_runtime_api as its construct. */
#include <openacc.h>
#include <stdio.h>

int main(void) {
  static double a[100];
  acc_copyin(a, sizeof a);
  acc_update_self(a, sizeof a);
  acc_delete(a, sizeof a);
  acc_shutdown(acc_device_host_discrete);
  printf("api: ok\n");
  return 0;
}
