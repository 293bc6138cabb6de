/* Kernels with both versions, as acc cc emits them: a host function for the CPU devices and
 * CUDA source for the nvidia device (acc_rt.h's launch convention). The same checks pass on
 * every device, so the CPU devices check the program itself and a GPU checks the CUDA path:
 *   #pragma acc parallel loop copyin(a[0:n]) copyout(b[0:n]) reduction(+:sum) reduction(max:m[0:2])
 *   for (i = 0; i < n; i++) { b[i] = 2*a[i]; sum += x*a[i]; m[0] = max(m[0], i%100); m[1] = max(m[1], n-i); } */
#include <acc_rt.h>
#include <limits.h>
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

static void k_host(const acc_rt_chunk *c) {
  const double *a = *(double **)c->__acc_args[0];
  double *b = *(double **)c->__acc_args[1];
  int n = *(int *)c->__acc_args[2];
  double x = *(double *)c->__acc_args[3];
  double s = *(double *)c->__acc_red[0];
  int *m = (int *)c->__acc_red[1];
  for (int64_t i = c->__acc_begin; i < c->__acc_end && i < n; i++) {
    b[i] = 2.0 * a[i];
    s += x * a[i];
    if ((int)(i % 100) > m[0]) m[0] = (int)(i % 100);
    if (n - (int)i > m[1]) m[1] = n - (int)i;
  }
  *(double *)c->__acc_red[0] = s;
}

static const char k_cuda[] =
    "extern \"C\" __global__ void k_cuda(const double *a, double *b, int n, double x,\n"
    "                                    void *const *__acc_red, long long __acc_iterations) {\n"
    "  __shared__ double ps[1024];\n"
    "  __shared__ int pm[2][1024];\n"
    "  unsigned t = threadIdx.y * blockDim.x + threadIdx.x, nt = blockDim.x * blockDim.y;\n"
    "  long long stride = (long long)gridDim.x * nt;\n"
    "  long long lim = __acc_iterations < n ? __acc_iterations : n;\n"
    "  double s = 0.0;\n"
    "  int m0 = -2147483647 - 1, m1 = -2147483647 - 1;\n"
    "  for (long long i = (long long)blockIdx.x * nt + t; i < lim; i += stride) {\n"
    "    b[i] = 2.0 * a[i];\n"
    "    s += x * a[i];\n"
    "    int v0 = (int)(i % 100), v1 = (int)(n - i);\n"
    "    m0 = v0 > m0 ? v0 : m0;\n"
    "    m1 = v1 > m1 ? v1 : m1;\n"
    "  }\n"
    "  ps[t] = s; pm[0][t] = m0; pm[1][t] = m1;\n"
    "  __syncthreads();\n"
    "  for (unsigned h = 1; h < nt; h *= 2) {\n"
    "    if (t % (2 * h) == 0 && t + h < nt) {\n"
    "      ps[t] += ps[t + h];\n"
    "      pm[0][t] = pm[0][t + h] > pm[0][t] ? pm[0][t + h] : pm[0][t];\n"
    "      pm[1][t] = pm[1][t + h] > pm[1][t] ? pm[1][t + h] : pm[1][t];\n"
    "    }\n"
    "    __syncthreads();\n"
    "  }\n"
    "  if (t == 0) {\n"
    "    double *rs = (double *)((char *)__acc_red[0] + blockIdx.x * 1 * sizeof(double));\n"
    "    *rs += ps[0];\n"
    "    int *rm = (int *)((char *)__acc_red[1] + blockIdx.x * 2 * sizeof(int));\n"
    "    rm[0] = pm[0][0] > rm[0] ? pm[0][0] : rm[0];\n"
    "    rm[1] = pm[1][0] > rm[1] ? pm[1][0] : rm[1];\n"
    "  }\n"
    "}\n";

enum { N = 100000 };
static double a[N], b[N];

/* One launch with the given shape hints and queue; checks the results. */
static void run(int gangs, int workers, int vector, int async, double *sum, int *m) {
  int n = N;
  double x = 0.5;
  acc_rt_kernel k = {"k", __FILE__, __LINE__, k_host, k_cuda, "k_cuda", 0};
  acc_rt_config cfg = {N, gangs, workers, vector, async};
  acc_rt_data data[] = {
      {ACC_RT_COPYIN, 0, a, sizeof a, "a[0:n]"},
      {ACC_RT_COPYOUT, 0, b, sizeof b, "b[0:n]"},
  };
  acc_rt_arg args[] = {
      {ACC_RT_ARG_MAPPED, a, sizeof a, "a"},
      {ACC_RT_ARG_MAPPED, b, sizeof b, "b"},
      {ACC_RT_ARG_VALUE, &n, sizeof n, "n"},
      {ACC_RT_ARG_VALUE, &x, sizeof x, "x"},
  };
  acc_rt_reduction reds[] = {
      {ACC_RT_RED_ADD, ACC_RT_TYPE_F64, sum, "sum", 1, 0, 0, 0},
      {ACC_RT_RED_MAX, ACC_RT_TYPE_I32, m, "m[0:2]", 2, 0, 0, 0},
  };
  for (int i = 0; i < N; i++) b[i] = -1;
  acc_rt_region_begin(__FILE__, __LINE__, data, 2, async);
  acc_rt_launch(&k, &cfg, args, 4, reds, 2);
  acc_rt_region_end(__FILE__, __LINE__, data, 2, async);
  if (async != acc_async_sync) acc_wait(async);
  CHECK(b[0] == 0.0 && b[N - 1] == 2.0 * (N - 1));
}

int main(void) {
  for (int i = 0; i < N; i++) a[i] = i;
  const double want = 5.0 + 0.5 * ((double)N * (N - 1) / 2);
  int shapes[][3] = {{0, 0, 0}, {3, 2, 64}, {1, 1, 1}, {1000, 4, 256}};
  for (int s = 0; s < 4; s++) {
    double sum = 5.0;
    int m[2] = {-1, 7};
    run(shapes[s][0], shapes[s][1], shapes[s][2], acc_async_sync, &sum, m);
    CHECK(sum == want);
    CHECK(m[0] == 99 && m[1] == N);
  }

  /* Async on queue 1: the reductions are complete after the wait. */
  double sum = 5.0;
  int m[2] = {200, INT_MIN};
  run(0, 0, 0, 1, &sum, m);
  CHECK(sum == want);
  CHECK(m[0] == 200 && m[1] == N);

  /* A present reduction variable: the result goes to its device copy. */
  sum = 5.0;
  m[0] = m[1] = 0;
  acc_copyin(&sum, sizeof sum);
  acc_copyin(m, sizeof m);
  run(0, 0, 0, acc_async_sync, &sum, m);
  acc_copyout(&sum, sizeof sum);
  acc_copyout(m, sizeof m);
  CHECK(sum == want);
  CHECK(m[0] == 99 && m[1] == N);

  if (acc_get_device_type() == acc_device_nvidia) {
    CHECK(acc_get_cuda_stream(1) != NULL);
    CHECK(acc_get_cuda_stream(2) != acc_get_cuda_stream(1));
    CHECK(acc_get_property(0, acc_device_nvidia, acc_property_memory) > 0);
    CHECK(acc_get_property(0, acc_device_nvidia, acc_property_free_memory) > 0);
    const char *vendor = acc_get_property_string(0, acc_device_nvidia, acc_property_vendor);
    CHECK(vendor && vendor[0] == 'N');

    /* A queue given back its own stream keeps using it; a queue given another queue's stream
     * keeps it when that queue moves to a third stream. Both then still work. */
    void *s1 = acc_get_cuda_stream(1);
    CHECK(acc_set_cuda_stream(1, s1) == 1);
    CHECK(acc_get_cuda_stream(1) == s1);
    void *s2 = acc_get_cuda_stream(2);
    CHECK(acc_set_cuda_stream(3, s2) == 1);
    CHECK(acc_set_cuda_stream(2, acc_get_cuda_stream(4)) == 1);
    CHECK(acc_get_cuda_stream(3) == s2);
    for (int q = 1; q <= 3; q += 2) {
      sum = 5.0;
      m[0] = m[1] = INT_MIN;
      run(0, 0, 0, q, &sum, m);
      CHECK(sum == want);
      CHECK(m[0] == 99 && m[1] == N);
    }
  } else {
    CHECK(acc_get_cuda_stream(1) == NULL);
  }
  if (failures) return 1;
  printf("rt_cuda ok\n");
  return 0;
}
