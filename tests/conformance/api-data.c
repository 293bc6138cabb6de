/* The data routines of the runtime API and the reference counts behind the
 * data directives: acc_copyin / acc_create / acc_copyout / acc_delete (and
 * their _finalize forms), acc_update_device / acc_update_self,
 * acc_is_present, acc_deviceptr / acc_hostptr, acc_map_data /
 * acc_unmap_data, and enter data / exit data (finalize, if) seen through
 * acc_is_present. On a shared-memory device everything is always present
 * and the device address is the host address, so presence is only checked
 * where acc_deviceptr shows a separate device copy. */
#include <openacc.h>
#include <stdio.h>
#include <stdlib.h>

#define N 200

#define CHECK(cond, ...)                                  \
  do {                                                    \
    if (!(cond)) {                                        \
      printf("api-data: " __VA_ARGS__);                   \
      printf("\n");                                       \
      return 1;                                           \
    }                                                     \
  } while (0)

int main(void) {
  int n = N, no = 0;
  size_t bytes = n * sizeof(double);
  double *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes), *e = malloc(bytes);
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = -1.0; c[i] = 0.0; e[i] = i; }

  /* copyin / update / copyout */
  void *da = acc_copyin(a, bytes);
  int discrete = da != (void *)a;
  CHECK(da != NULL && acc_is_present(a, bytes), "a not present after acc_copyin");
  CHECK(acc_deviceptr(a) == da && acc_hostptr(da) == (void *)a, "acc_deviceptr/acc_hostptr disagree");
  #pragma acc parallel loop present(a[0:n])
  for (int i = 0; i < n; i++)
    a[i] *= 2.0;
  acc_update_self(a, bytes);
  for (int i = 0; i < n; i++) {
    CHECK(a[i] == 2.0 * i, "a[%d] = %g after acc_update_self", i, a[i]);
    a[i] += 1.0;
  }
  acc_update_device(a, bytes);
  #pragma acc parallel loop present(a[0:n])
  for (int i = 0; i < n; i++)
    a[i] *= 3.0;
  acc_copyout(a, bytes);
  CHECK(!discrete || !acc_is_present(a, bytes), "a still present after acc_copyout");
  for (int i = 0; i < n; i++) CHECK(a[i] == 3.0 * (2.0 * i + 1.0), "a[%d] = %g after acc_copyout", i, a[i]);

  /* create / delete */
  acc_create(b, bytes);
  CHECK(acc_is_present(b, bytes), "b not present after acc_create");
  #pragma acc parallel loop present(b[0:n])
  for (int i = 0; i < n; i++)
    b[i] = i * 0.5;
  acc_update_self(b, bytes);
  acc_delete(b, bytes);
  CHECK(!discrete || !acc_is_present(b, bytes), "b still present after acc_delete");
  for (int i = 0; i < n; i++) CHECK(b[i] == i * 0.5, "b[%d] = %g", i, b[i]);

  /* dynamic reference counts through the API */
  acc_copyin(e, bytes);
  acc_copyin(e, bytes);
  acc_delete(e, bytes);
  CHECK(acc_is_present(e, bytes), "e gone after one of two acc_delete");
  acc_copyin(e, bytes);
  acc_delete_finalize(e, bytes);
  CHECK(!discrete || !acc_is_present(e, bytes), "e present after acc_delete_finalize");
  acc_create(e, bytes);
  acc_create(e, bytes);
  #pragma acc parallel loop present(e[0:n])
  for (int i = 0; i < n; i++)
    e[i] = 7.0;
  acc_copyout_finalize(e, bytes);
  CHECK(!discrete || !acc_is_present(e, bytes), "e present after acc_copyout_finalize");
  for (int i = 0; i < n; i++) CHECK(e[i] == 7.0, "e[%d] = %g after acc_copyout_finalize", i, e[i]);

  /* reference counts through the directives */
  #pragma acc enter data copyin(c[0:n])
  #pragma acc enter data copyin(c[0:n])
  #pragma acc exit data delete(c[0:n])
  CHECK(acc_is_present(c, bytes), "c gone after one of two exit data");
  #pragma acc enter data create(c[0:n])
  #pragma acc exit data delete(c[0:n]) finalize
  CHECK(!discrete || !acc_is_present(c, bytes), "c present after exit data finalize");
  #pragma acc enter data copyin(c[0:n]) if(no)
  CHECK(!discrete || !acc_is_present(c, bytes), "c present after enter data if(0)");
  int inside = 0;
  #pragma acc data copyin(c[0:n])
  {
    inside = acc_is_present(c, bytes);
    #pragma acc enter data copyin(c[0:n])
  }
  CHECK(inside, "c not present inside data construct");
  CHECK(acc_is_present(c, bytes), "c gone although enter data holds it");
  #pragma acc exit data delete(c[0:n])
  CHECK(!discrete || !acc_is_present(c, bytes), "c present after last exit data");

  /* map_data / unmap_data: only where device memory is separate */
  if (discrete) {
    void *dc = acc_malloc(bytes);
    acc_map_data(c, dc, bytes);
    CHECK(acc_is_present(c, bytes) && acc_deviceptr(c) == dc, "c not mapped to its acc_malloc memory");
    #pragma acc parallel loop present(c[0:n])
    for (int i = 0; i < n; i++)
      c[i] = i * 5.0;
    acc_update_self(c, bytes);
    acc_unmap_data(c);
    CHECK(!acc_is_present(c, bytes), "c present after acc_unmap_data");
    acc_free(dc);
    for (int i = 0; i < n; i++) CHECK(c[i] == i * 5.0, "c[%d] = %g after map_data", i, c[i]);
  }

  printf("api-data: ok\n");
  free(a); free(b); free(c); free(e);
  return 0;
}
