/* The data routines of openacc.h on either device: counts, copies, subarrays, mapping, attach. */
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond)                                                          \
  do {                                                                       \
    if (!(cond)) {                                                           \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                            \
    }                                                                        \
  } while (0)

struct node {
  double *data;
  int n;
};

int main(void) {
  int discrete = acc_get_device_type() == acc_device_host_discrete;
  enum { N = 100 };
  double a[N], b[N];
  for (int i = 0; i < N; i++) {
    a[i] = i;
    b[i] = 1000 + i;
  }

  /* Dynamic reference counts: two copyins need two deletes. */
  double *da = acc_copyin(a, sizeof a);
  CHECK(da != NULL);
  CHECK(acc_is_present(a, sizeof a));
  CHECK(acc_deviceptr(a) == da);
  CHECK(acc_hostptr(da) == a);
  CHECK(acc_is_present(a + 10, 10 * sizeof(double))); /* a subarray of present data */
  CHECK(acc_deviceptr(a + 10) == da + 10);
  CHECK((acc_copyin(a, sizeof a) == da));
  acc_delete(a, sizeof a);
  CHECK(acc_is_present(a, sizeof a));
  acc_delete(a, sizeof a);
  CHECK(discrete ? !acc_is_present(a, sizeof a) : acc_is_present(a, sizeof a));

  /* finalize drops the dynamic count to zero at once. */
  acc_copyin(a, sizeof a);
  acc_pcopyin(a, sizeof a);
  acc_present_or_copyin(a, sizeof a);
  acc_delete_finalize(a, sizeof a);
  if (discrete) CHECK(!acc_is_present(a, sizeof a));

  /* Device memory is separate on host_discrete: copyout brings the device copy back. */
  da = acc_copyin(a, sizeof a);
  acc_memcpy_to_device(da, b, sizeof b); /* overwrite the device copy */
  if (discrete) CHECK(a[5] == 5.0);       /* the host copy is untouched */
  acc_copyout(a, sizeof a);
  CHECK(a[5] == 1005.0 && a[99] == 1099.0);

  /* update self/device on a subarray. */
  for (int i = 0; i < N; i++) a[i] = i;
  da = acc_copyin(a, sizeof a);
  a[20] = -1;
  acc_update_device(a + 20, sizeof(double));
  a[20] = 20;
  acc_update_self(a + 20, sizeof(double));
  CHECK(a[20] == (discrete ? -1 : 20)); /* on shared memory updates are no-ops */
  double back[N];
  acc_memcpy_from_device(back, da, sizeof back);
  CHECK(back[20] == (discrete ? -1 : 20) && back[21] == 21);
  acc_copyout_finalize(a, sizeof a);

  /* New device memory is poisoned on host_discrete: forgetting to copy in is visible. */
  int x[4] = {1, 2, 3, 4};
  acc_create(x, sizeof x);
  acc_update_self(x, sizeof x);
  if (discrete) CHECK(x[0] == -1 && x[3] == -1);
  acc_delete(x, sizeof x);
  acc_pcreate(x, sizeof x);
  acc_present_or_create(x, sizeof x);
  acc_delete_finalize(x, sizeof x);

  /* acc_malloc + acc_map_data + acc_memcpy_device. */
  double *d1 = acc_malloc(sizeof a), *d2 = acc_malloc(sizeof a);
  CHECK(d1 != NULL && d2 != NULL && d1 != d2);
  acc_memcpy_to_device(d1, b, sizeof b);
  acc_memcpy_device(d2, d1, sizeof b);
  acc_map_data(a, d2, sizeof a);
  CHECK(acc_is_present(a, sizeof a));
  if (discrete) CHECK(acc_deviceptr(a) == d2 && acc_hostptr(d2) == a);
  acc_update_self(a, sizeof a);
  CHECK(a[7] == (discrete ? 1007.0 : 7.0));
  /* an exit action never removes a mapping made with acc_map_data */
  acc_copyin(a, sizeof a);
  acc_delete_finalize(a, sizeof a);
  CHECK(acc_is_present(a, sizeof a));
  acc_unmap_data(a);
  if (discrete) CHECK(!acc_is_present(a, sizeof a));
  acc_free(d1);
  acc_free(d2);
  CHECK(acc_malloc(0) == NULL);

  /* attach: the device copy of a struct's pointer points at the device copy of its target. */
  struct node nd = {b, N};
  struct node *dn = acc_copyin(&nd, sizeof nd);
  double *db = acc_copyin(b, sizeof b);
  acc_attach((void **)&nd.data);
  struct node check;
  acc_memcpy_from_device(&check, dn, sizeof check);
  CHECK(check.data == db && check.n == N);
  acc_detach((void **)&nd.data);
  acc_memcpy_from_device(&check, dn, sizeof check);
  CHECK(check.data == b);
  acc_attach_async((void **)&nd.data, 1);
  acc_attach((void **)&nd.data);
  acc_detach_finalize_async((void **)&nd.data, 1);
  acc_wait(1);
  acc_memcpy_from_device(&check, dn, sizeof check);
  CHECK(check.data == b);
  acc_delete(b, sizeof b);
  acc_delete(&nd, sizeof nd);

  if (failures) {
    fprintf(stderr, "api_data: %d failure(s)\n", failures);
    return 1;
  }
  printf("api_data ok\n");
  return 0;
}
