/* The compiler entry points of acc_rt.h, used as the C front end's generated code will:
 *   #pragma acc data copy(y[0:n]) copyin(x[0:n])
 *   #pragma acc parallel loop reduction(+:sum) reduction(max:big)
 *   for (i = 0; i < n; i++) { y[i] += a * x[i]; sum += y[i]; big = max(big, y[i]); }  */
#include <acc_rt.h>
#include <openacc.h>
#include <stdint.h>
#include <stdio.h>

static int failures = 0;
#define CHECK(cond)                                                          \
  do {                                                                       \
    if (!(cond)) {                                                           \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                            \
    }                                                                        \
  } while (0)

static void saxpy_chunk(const acc_rt_chunk *c) {
  float *y = *(float **)c->__acc_args[0];
  const float *x = *(float **)c->__acc_args[1];
  float a = *(float *)c->__acc_args[2];
  double sum = *(double *)c->__acc_red[0];
  int big = *(int *)c->__acc_red[1];
  for (int64_t i = c->__acc_begin; i < c->__acc_end; i++) {
    y[i] += a * x[i];
    sum += y[i];
    if ((int)y[i] > big) big = (int)y[i];
  }
  *(double *)c->__acc_red[0] = sum;
  *(int *)c->__acc_red[1] = big;
}

static int on_device_flag = -1;
static void where_chunk(const acc_rt_chunk *c) {
  (void)c;
  on_device_flag = acc_on_device(acc_device_not_host);
}

enum { N = 10000 };
static float x[N], y[N];

int main(void) {
  int discrete = acc_get_device_type() == acc_device_host_discrete;
  for (int i = 0; i < N; i++) {
    x[i] = 1.0f;
    y[i] = (float)i;
  }
  float a = 2.0f;
  double sum = 0.5;
  int big = -5;
  acc_rt_data data[] = {
      {ACC_RT_COPY, 0, y, sizeof y, "y[0:n]"},
      {ACC_RT_COPYIN, 0, x, sizeof x, "x[0:n]"},
      {ACC_RT_COPY, 0, &sum, sizeof sum, "sum"},
      {ACC_RT_COPY, 0, &big, sizeof big, "big"},
  };
  acc_rt_region_begin(__FILE__, __LINE__, data, 4, acc_async_sync);
  acc_rt_kernel k = {"saxpy", __FILE__, __LINE__, saxpy_chunk, NULL, NULL, 0};
  acc_rt_config cfg = {N, 0, 0, 0, acc_async_sync};
  acc_rt_arg args[] = {
      {ACC_RT_ARG_MAPPED, y, sizeof y, "y"},
      {ACC_RT_ARG_MAPPED, x, sizeof x, "x"},
      {ACC_RT_ARG_VALUE, &a, sizeof a, "a"},
  };
  acc_rt_reduction reds[] = {
      {ACC_RT_RED_ADD, ACC_RT_TYPE_F64, &sum, "sum", 1, 0, 0, 0},
      {ACC_RT_RED_MAX, ACC_RT_TYPE_I32, &big, "big", 1, 0, 0, 0},
  };
  acc_rt_launch(&k, &cfg, args, 3, reds, 2);
  if (discrete) CHECK(y[10] == 10.0f && sum == 0.5); /* results are still on the device */
  acc_rt_region_end(__FILE__, __LINE__, data, 4, acc_async_sync);
  double want = 0.5;
  for (int i = 0; i < N; i++) want += i + 2.0;
  CHECK(y[10] == 12.0f && y[N - 1] == N + 1.0f);
  CHECK(sum == want);
  CHECK(big == N + 1);
  CHECK(!acc_is_present(y, sizeof y) || !discrete);

  /* enter data / async launch / update / exit data finalize. */
  acc_rt_data enter[] = {{ACC_RT_COPYIN, 0, y, sizeof y, "y[0:n]"},
                         {ACC_RT_CREATE, ACC_RT_ZERO, x, sizeof x, "x[0:n]"}};
  acc_rt_enter_data(__FILE__, __LINE__, enter, 2, 4);
  acc_rt_config acfg = {N, 3, 0, 0, 4};
  double s2 = 0;
  acc_rt_reduction r2[] = {{ACC_RT_RED_ADD, ACC_RT_TYPE_F64, &s2, "s2", 1, 0, 0, 0},
                           {ACC_RT_RED_MAX, ACC_RT_TYPE_I32, &big, "big", 1, 0, 0, 0}};
  acc_rt_launch(&k, &acfg, args, 3, r2, 2); /* x is zero on the device: y is unchanged */
  int q = 4;
  acc_rt_wait(__FILE__, __LINE__, &q, 1, acc_async_sync);
  if (discrete) CHECK(s2 == want - 0.5);
  acc_rt_data upd[] = {{ACC_RT_UPDATE_SELF, 0, x, sizeof x, "x"},
                       {ACC_RT_UPDATE_SELF, ACC_RT_IF_PRESENT, &a, sizeof a, "a"}};
  acc_rt_update(__FILE__, __LINE__, upd, 2, acc_async_sync);
  if (discrete) CHECK(x[0] == 0.0f);
  void *dy = acc_rt_use_device(__FILE__, __LINE__, y, "y", 0);
  CHECK(dy == acc_deviceptr(y));
  acc_rt_data leave[] = {{ACC_RT_COPYOUT, ACC_RT_FINALIZE, y, sizeof y, "y[0:n]"},
                         {ACC_RT_DELETE, 0, x, sizeof x, "x[0:n]"}};
  acc_rt_exit_data(__FILE__, __LINE__, leave, 2, acc_async_sync);
  CHECK(!discrete || !acc_is_present(x, sizeof x));

  /* acc_on_device inside a kernel reports the device it runs on. */
  acc_rt_kernel w = {"where", __FILE__, __LINE__, where_chunk, NULL, NULL, 0};
  acc_rt_config one = {1, 0, 0, 0, acc_async_sync};
  acc_rt_launch(&w, &one, NULL, 0, NULL, 0);
  CHECK(on_device_flag == discrete);
  CHECK(acc_rt_shared_memory() == !discrete);

  if (failures) {
    fprintf(stderr, "rt_kernel: %d failure(s)\n", failures);
    return 1;
  }
  printf("rt_kernel ok\n");
  return 0;
}
