/* libcuda.c — acc's CUDA simulator, driver half: a fake libcuda.so.1 with the driver calls the
 * runtime makes through cudarc, running kernels (shared objects from the fake NVRTC) on the
 * CPU with CUDA's execution model. See README.md for what it simulates and what it does not.
 *
 * - Device memory is host memory mapped per allocation, 256-byte aligned, filled with all bits
 *   set (a GPU leaves it undefined) and ending at a guard page; copies check that the device
 *   side is live memory; a kernel's fault fails the launch with CUDA_ERROR_ILLEGAL_ADDRESS.
 * - Each block's threads are fibers (ucontext) on one OS thread, started in a shuffled order
 *   (fixed seed) and switched at barriers and warp collectives, so shared memory and
 *   __syncthreads behave as on a GPU and a missing barrier shows. Blocks run on up to
 *   ACC_SIM_THREADS OS threads.
 * - Work is synchronous (a launch or copy is complete when the call returns), except copies
 *   between device memory and pinned host memory (cuMemAllocHost), which, as on a GPU, happen
 *   later: when the stream reaches a synchronization (cuStreamSynchronize, a cuEventSynchronize
 *   of an event recorded after them) or its next operation of another kind. A program that
 *   touches a pinned buffer before the copy is known complete sees the wrong data. A fault or trap
 *   is reported as a GPU reports it: the launch call succeeds, the stream's synchronization
 *   fails, and the error sticks to the context (every later call returns it). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "sim_api.h"
#include "sim_util.h"

#define API __attribute__((visibility("default")))

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct sim_ctx *CUcontext;
typedef struct sim_stream *CUstream;
typedef struct sim_module *CUmodule;
typedef struct sim_function *CUfunction;
typedef struct sim_event *CUevent;

enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_INVALID_CONTEXT = 201,
  CUDA_ERROR_INVALID_HANDLE = 400,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_LAUNCH_FAILED = 719,
  CUDA_ERROR_NOT_SUPPORTED = 801,
};

static const struct {
  CUresult code;
  const char *name, *text;
} ERRORS[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS",
     "an illegal memory access was encountered"},
    {CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
};

/* ---- configuration ---------------------------------------------------------------------------- */

static struct {
  int sms, cc, threads, no_device;
  unsigned long long seed;
  size_t stack, memory;
} cfg;

static long env_long(const char *name, long dflt, long lo, long hi) {
  const char *v = getenv(name);
  if (!v || !*v) return dflt;
  char *end;
  long n = strtol(v, &end, 10);
  if (*end || n < lo || n > hi) {
    fprintf(stderr, "acc-sim: ignoring %s=%s (expected %ld..%ld)\n", name, v, lo, hi);
    return dflt;
  }
  return n;
}

static void read_config(void) {
  cfg.sms = (int)env_long("ACC_SIM_SMS", 4, 1, 1024);
  cfg.cc = (int)env_long("ACC_SIM_CC", 90, 30, 200);
  cfg.threads = (int)env_long("ACC_SIM_THREADS", 2, 1, 64);
  cfg.seed = (unsigned long long)env_long("ACC_SIM_SEED", 1, 0, 1L << 62);
  cfg.stack = (size_t)env_long("ACC_SIM_STACK_KIB", 640, 16, 1 << 20) << 10;
  cfg.memory = (size_t)env_long("ACC_SIM_MEMORY_MIB", 16384, 1, 1L << 30) << 20;
  cfg.no_device = env_long("ACC_SIM_NO_DEVICE", 0, 0, 1) != 0;
}

/* ---- driver state ------------------------------------------------------------------------------ */

#define CTX_MAGIC 0x43545831u
#define STREAM_MAGIC 0x5354524du
#define MODULE_MAGIC 0x4d4f4455u
#define FUNC_MAGIC 0x46554e43u
#define EVENT_MAGIC 0x45564e54u

struct sim_ctx {
  unsigned magic;
  int retained;
};
/* A copy between device memory and pinned host memory, not yet done. */
struct pending_copy {
  int to_device;
  void *host;
  CUdeviceptr dev;
  size_t n;
  unsigned long long seq;
};
struct sim_stream {
  unsigned magic;
  struct sim_stream *next;
  /* Deferred copies in stream order (protected by `mu`); `seq` numbers every copy queued. */
  pthread_mutex_t mu;
  struct pending_copy *pending;
  size_t npending, cap_pending;
  unsigned long long seq;
};
struct sim_event {
  unsigned magic;
  struct sim_stream *stream; /* NULL: recorded on the null stream, or never */
  unsigned long long seq;    /* the copies queued before the record */
};
struct sim_module {
  unsigned magic;
  void *handle;
  size_t tls_size;
  void *(*tls)(void);
};
struct sim_function {
  unsigned magic;
  struct sim_module *module;
  void (*entry)(void **);
  char name[200];
};
struct alloc {
  uintptr_t start;
  size_t size;
  char *map;
  size_t map_len;
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static int g_initialized;
static struct sim_ctx g_ctx = {CTX_MAGIC, 0};
static struct sim_stream *g_streams;
static struct alloc *g_allocs; /* sorted by start */
/* Pinned host allocations (cuMemAllocHost): start and size. */
static struct {
  char *start;
  size_t size;
} *g_pinned;
static size_t g_npinned, g_cap_pinned;
static size_t g_nallocs, g_cap_allocs, g_used;
static int g_sticky; /* the context's sticky error, 0 when none */
static size_t g_page;

/* Few and small, so they fit the static TLS a dlopened library may use (the fault handler
 * reads them, and must not make the loader allocate). */
static __thread struct sim_ctx *tl_ctx __attribute__((tls_model("initial-exec")));
static __thread struct worker *tl_worker __attribute__((tls_model("initial-exec")));

static int sticky(void) { return __atomic_load_n(&g_sticky, __ATOMIC_SEQ_CST); }

/* The checks every call on the current context makes, in the driver's order. */
static CUresult ctx_check(void) {
  if (!__atomic_load_n(&g_initialized, __ATOMIC_SEQ_CST)) return CUDA_ERROR_NOT_INITIALIZED;
  if (!tl_ctx) return CUDA_ERROR_INVALID_CONTEXT;
  return sticky();
}
#define CHECK_CTX()                    \
  do {                                 \
    CUresult r_ = ctx_check();         \
    if (r_ != CUDA_SUCCESS) return r_; \
  } while (0)

static CUresult stream_check(CUstream s) {
  if (!s) return CUDA_SUCCESS;
  pthread_mutex_lock(&g_lock);
  struct sim_stream *p = g_streams;
  while (p && p != s) p = p->next;
  pthread_mutex_unlock(&g_lock);
  return p && p->magic == STREAM_MAGIC ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

/* Whether [p, p + n) lies in pinned host memory. */
static int pinned(const void *p, size_t n) {
  int found = 0;
  pthread_mutex_lock(&g_lock);
  for (size_t i = 0; i < g_npinned && !found; i++)
    found = (const char *)p >= g_pinned[i].start &&
            (const char *)p + n <= g_pinned[i].start + g_pinned[i].size;
  pthread_mutex_unlock(&g_lock);
  return found;
}

/* Performs the deferred copies of `s` numbered below `upto` (all: ~0ull), in order. */
static void flush_stream(CUstream s, unsigned long long upto) {
  if (!s) return;
  pthread_mutex_lock(&s->mu);
  size_t done = 0;
  while (done < s->npending && s->pending[done].seq < upto) {
    struct pending_copy *c = &s->pending[done++];
    if (c->to_device)
      memcpy((void *)(uintptr_t)c->dev, c->host, c->n);
    else
      memcpy(c->host, (const void *)(uintptr_t)c->dev, c->n);
  }
  if (done) memmove(s->pending, s->pending + done, (s->npending - done) * sizeof *s->pending);
  s->npending -= done;
  pthread_mutex_unlock(&s->mu);
}

static void flush_all_streams(void) {
  pthread_mutex_lock(&g_lock);
  for (struct sim_stream *p = g_streams; p; p = p->next) flush_stream(p, ~0ull);
  pthread_mutex_unlock(&g_lock);
}

/* Queues a copy on `s` when it involves pinned host memory (0: do it now, after the stream's
 * earlier deferred copies). */
static int defer_copy(CUstream s, int to_device, void *host, CUdeviceptr dev, size_t n) {
  if (!s || !pinned(host, n)) {
    flush_stream(s, ~0ull);
    return 0;
  }
  pthread_mutex_lock(&s->mu);
  if (s->npending == s->cap_pending) {
    s->cap_pending = s->cap_pending ? 2 * s->cap_pending : 16;
    s->pending = realloc(s->pending, s->cap_pending * sizeof *s->pending);
  }
  s->pending[s->npending++] = (struct pending_copy){to_device, host, dev, n, s->seq++};
  pthread_mutex_unlock(&s->mu);
  return 1;
}

/* The allocation holding [p, p + n), or -1. Called with g_lock held. */
static long alloc_find(uintptr_t p, size_t n) {
  size_t lo = 0, hi = g_nallocs;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (g_allocs[mid].start <= p)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0) return -1;
  struct alloc *a = &g_allocs[lo - 1];
  if (p + n < p || p + n > a->start + a->size) return -1;
  return (long)(lo - 1);
}

/* A module's `__device__` variables that cuModuleGetGlobal handed out: device memory too. */
struct global_range {
  uintptr_t start;
  size_t size;
};
static struct global_range g_globals[256];
static size_t g_nglobals;

static int device_range_ok(CUdeviceptr p, size_t n) {
  pthread_mutex_lock(&g_lock);
  long i = alloc_find((uintptr_t)p, n);
  for (size_t k = 0; i < 0 && k < g_nglobals; k++)
    if (p >= g_globals[k].start && p + n >= p && p + n <= g_globals[k].start + g_globals[k].size)
      i = 0;
  pthread_mutex_unlock(&g_lock);
  return i >= 0;
}

static void bad_range(const char *call, CUdeviceptr p, size_t n) {
  fprintf(stderr, "acc-sim: %s: [0x%llx, +%zu) is not inside a live allocation\n", call, p, n);
}

/* ---- initialisation and the device ------------------------------------------------------------- */

static void install_fault_handlers(void);

API CUresult cuInit(unsigned int flags) {
  if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
  pthread_mutex_lock(&g_lock);
  if (!g_initialized) {
    read_config();
    g_page = (size_t)sysconf(_SC_PAGESIZE);
    if (!cfg.no_device) {
      install_fault_handlers();
      __atomic_store_n(&g_initialized, 1, __ATOMIC_SEQ_CST);
    }
  }
  pthread_mutex_unlock(&g_lock);
  return cfg.no_device ? CUDA_ERROR_NO_DEVICE : CUDA_SUCCESS;
}

API CUresult cuDriverGetVersion(int *v) {
  if (!v) return CUDA_ERROR_INVALID_VALUE;
  *v = 12090;
  return CUDA_SUCCESS;
}

API CUresult cuDeviceGetCount(int *n) {
  if (!g_initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!n) return CUDA_ERROR_INVALID_VALUE;
  *n = 1;
  return CUDA_SUCCESS;
}

API CUresult cuDeviceGet(CUdevice *d, int ordinal) {
  if (!g_initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!d) return CUDA_ERROR_INVALID_VALUE;
  if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
  *d = 0;
  return CUDA_SUCCESS;
}

API CUresult cuDeviceGetName(char *name, int len, CUdevice d) {
  if (!g_initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
  if (!name || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  snprintf(name, (size_t)len, "acc-sim GPU (simulated sm_%d)", cfg.cc);
  return CUDA_SUCCESS;
}

API CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice d) {
  if (!g_initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
  if (!bytes) return CUDA_ERROR_INVALID_VALUE;
  *bytes = cfg.memory;
  return CUDA_SUCCESS;
}

API CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice d) {
  if (!g_initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
  if (!v) return CUDA_ERROR_INVALID_VALUE;
  switch (attr) {
  case 1: *v = 1024; break;              /* MAX_THREADS_PER_BLOCK */
  case 2: case 3: *v = 1024; break;      /* MAX_BLOCK_DIM_X, Y */
  case 4: *v = 64; break;                /* MAX_BLOCK_DIM_Z */
  case 5: *v = 0x7fffffff; break;        /* MAX_GRID_DIM_X */
  case 6: case 7: *v = 65535; break;     /* MAX_GRID_DIM_Y, Z */
  case 8: *v = 48 << 10; break;          /* MAX_SHARED_MEMORY_PER_BLOCK */
  case 10: *v = 32; break;               /* WARP_SIZE */
  case 12: *v = 65536; break;            /* MAX_REGISTERS_PER_BLOCK */
  case 13: *v = 1755000; break;          /* CLOCK_RATE (kHz) */
  case 16: *v = cfg.sms; break;          /* MULTIPROCESSOR_COUNT */
  case 31: *v = 1; break;                /* CONCURRENT_KERNELS */
  case 38: *v = 50 << 20; break;         /* L2_CACHE_SIZE */
  case 39: *v = 2048; break;             /* MAX_THREADS_PER_MULTIPROCESSOR */
  case 40: *v = 2; break;                /* ASYNC_ENGINE_COUNT */
  case 41: *v = 1; break;                /* UNIFIED_ADDRESSING */
  case 75: *v = cfg.cc / 10; break;      /* COMPUTE_CAPABILITY_MAJOR */
  case 76: *v = cfg.cc % 10; break;      /* COMPUTE_CAPABILITY_MINOR */
  default:
    if (attr <= 0 || attr > 200) return CUDA_ERROR_INVALID_VALUE;
    *v = 0;
  }
  return CUDA_SUCCESS;
}

API CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice d) {
  if (!g_initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
  if (!ctx) return CUDA_ERROR_INVALID_VALUE;
  __atomic_add_fetch(&g_ctx.retained, 1, __ATOMIC_SEQ_CST);
  *ctx = &g_ctx;
  return CUDA_SUCCESS;
}

API CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d) {
  if (!g_initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (d != 0) return CUDA_ERROR_INVALID_DEVICE;
  if (__atomic_load_n(&g_ctx.retained, __ATOMIC_SEQ_CST) <= 0) return CUDA_ERROR_INVALID_CONTEXT;
  __atomic_sub_fetch(&g_ctx.retained, 1, __ATOMIC_SEQ_CST);
  return CUDA_SUCCESS;
}

API CUresult cuCtxSetCurrent(CUcontext ctx) {
  if (!g_initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (ctx && (ctx != &g_ctx || __atomic_load_n(&g_ctx.retained, __ATOMIC_SEQ_CST) <= 0))
    return CUDA_ERROR_INVALID_CONTEXT;
  tl_ctx = ctx;
  return CUDA_SUCCESS;
}

API CUresult cuCtxGetCurrent(CUcontext *ctx) {
  if (!g_initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (!ctx) return CUDA_ERROR_INVALID_VALUE;
  *ctx = tl_ctx;
  return CUDA_SUCCESS;
}

API CUresult cuGetErrorName(CUresult e, const char **s) {
  if (!s) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < sizeof ERRORS / sizeof ERRORS[0]; i++)
    if (ERRORS[i].code == e) {
      *s = ERRORS[i].name;
      return CUDA_SUCCESS;
    }
  *s = NULL;
  return CUDA_ERROR_INVALID_VALUE;
}

API CUresult cuGetErrorString(CUresult e, const char **s) {
  if (!s) return CUDA_ERROR_INVALID_VALUE;
  for (size_t i = 0; i < sizeof ERRORS / sizeof ERRORS[0]; i++)
    if (ERRORS[i].code == e) {
      *s = ERRORS[i].text;
      return CUDA_SUCCESS;
    }
  *s = NULL;
  return CUDA_ERROR_INVALID_VALUE;
}

/* ---- memory ------------------------------------------------------------------------------------ */

API CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes) {
  CHECK_CTX();
  if (!p || bytes == 0) return CUDA_ERROR_INVALID_VALUE;
  /* The allocation ends at a guard page, so running off its end faults (within the rounding
   * to 256 bytes that keeps the start aligned as cuMemAlloc's is). */
  size_t len = (bytes + 255) & ~(size_t)255;
  size_t pages = (len + g_page - 1) & ~(g_page - 1);
  pthread_mutex_lock(&g_lock);
  if (bytes > cfg.memory - g_used) {
    pthread_mutex_unlock(&g_lock);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  char *map = mmap(NULL, pages + g_page, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (map == MAP_FAILED) {
    pthread_mutex_unlock(&g_lock);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  mprotect(map + pages, g_page, PROT_NONE);
  struct alloc a = {(uintptr_t)(map + pages - len), bytes, map, pages + g_page};
  memset((void *)a.start, 0xff, len);
  if (g_nallocs == g_cap_allocs) {
    g_cap_allocs = g_cap_allocs ? 2 * g_cap_allocs : 256;
    g_allocs = realloc(g_allocs, g_cap_allocs * sizeof *g_allocs);
  }
  size_t at = g_nallocs;
  while (at > 0 && g_allocs[at - 1].start > a.start) at--;
  memmove(&g_allocs[at + 1], &g_allocs[at], (g_nallocs - at) * sizeof *g_allocs);
  g_allocs[at] = a;
  g_nallocs++;
  g_used += bytes;
  pthread_mutex_unlock(&g_lock);
  *p = (CUdeviceptr)a.start;
  return CUDA_SUCCESS;
}

API CUresult cuMemFree_v2(CUdeviceptr p) {
  CHECK_CTX();
  if (p == 0) return CUDA_SUCCESS;
  pthread_mutex_lock(&g_lock);
  long i = alloc_find((uintptr_t)p, 0);
  if (i < 0 || g_allocs[i].start != (uintptr_t)p) {
    pthread_mutex_unlock(&g_lock);
    fprintf(stderr, "acc-sim: cuMemFree(0x%llx): not the start of a live allocation\n", p);
    return CUDA_ERROR_INVALID_VALUE;
  }
  struct alloc a = g_allocs[i];
  memmove(&g_allocs[i], &g_allocs[i + 1], (g_nallocs - (size_t)i - 1) * sizeof *g_allocs);
  g_nallocs--;
  g_used -= a.size;
  pthread_mutex_unlock(&g_lock);
  munmap(a.map, a.map_len);
  return CUDA_SUCCESS;
}

API CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total) {
  CHECK_CTX();
  if (!free_bytes || !total) return CUDA_ERROR_INVALID_VALUE;
  pthread_mutex_lock(&g_lock);
  *free_bytes = cfg.memory - g_used;
  *total = cfg.memory;
  pthread_mutex_unlock(&g_lock);
  return CUDA_SUCCESS;
}

API CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, CUstream s) {
  CHECK_CTX();
  CUresult r = stream_check(s);
  if (r) return r;
  if (n == 0) return CUDA_SUCCESS;
  if (!src || !device_range_ok(dst, n)) {
    bad_range("cuMemcpyHtoDAsync", dst, n);
    return CUDA_ERROR_INVALID_VALUE;
  }
  if (defer_copy(s, 1, (void *)src, dst, n)) return CUDA_SUCCESS;
  memcpy((void *)(uintptr_t)dst, src, n);
  return CUDA_SUCCESS;
}

API CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n) {
  return cuMemcpyHtoDAsync_v2(dst, src, n, NULL);
}

API CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, CUstream s) {
  CHECK_CTX();
  CUresult r = stream_check(s);
  if (r) return r;
  if (n == 0) return CUDA_SUCCESS;
  if (!dst || !device_range_ok(src, n)) {
    bad_range("cuMemcpyDtoHAsync", src, n);
    return CUDA_ERROR_INVALID_VALUE;
  }
  if (defer_copy(s, 0, dst, src, n)) return CUDA_SUCCESS;
  memcpy(dst, (const void *)(uintptr_t)src, n);
  return CUDA_SUCCESS;
}

API CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s) {
  CHECK_CTX();
  CUresult r = stream_check(s);
  if (r) return r;
  if (n == 0) return CUDA_SUCCESS;
  if (!device_range_ok(dst, n) || !device_range_ok(src, n)) {
    bad_range("cuMemcpyDtoDAsync", device_range_ok(dst, n) ? src : dst, n);
    return CUDA_ERROR_INVALID_VALUE;
  }
  if (dst < src + n && src < dst + n) {
    /* The driver leaves overlapping copies undefined; the runtime must never issue one. */
    fprintf(stderr, "acc-sim: cuMemcpyDtoDAsync: the ranges overlap (undefined in CUDA)\n");
    return CUDA_ERROR_INVALID_VALUE;
  }
  flush_stream(s, ~0ull);
  memcpy((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
  return CUDA_SUCCESS;
}

API CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char v, size_t n, CUstream s) {
  CHECK_CTX();
  CUresult r = stream_check(s);
  if (r) return r;
  if (n == 0) return CUDA_SUCCESS;
  if (!device_range_ok(dst, n)) {
    bad_range("cuMemsetD8Async", dst, n);
    return CUDA_ERROR_INVALID_VALUE;
  }
  flush_stream(s, ~0ull);
  memset((void *)(uintptr_t)dst, v, n);
  return CUDA_SUCCESS;
}

/* ---- streams ----------------------------------------------------------------------------------- */

API CUresult cuStreamCreate(CUstream *s, unsigned int flags) {
  CHECK_CTX();
  if (!s || flags > 1) return CUDA_ERROR_INVALID_VALUE;
  struct sim_stream *p = calloc(1, sizeof *p);
  if (!p) return CUDA_ERROR_OUT_OF_MEMORY;
  p->magic = STREAM_MAGIC;
  pthread_mutex_init(&p->mu, NULL);
  pthread_mutex_lock(&g_lock);
  p->next = g_streams;
  g_streams = p;
  pthread_mutex_unlock(&g_lock);
  *s = p;
  return CUDA_SUCCESS;
}

API CUresult cuStreamDestroy_v2(CUstream s) {
  CHECK_CTX();
  if (!s) return CUDA_ERROR_INVALID_HANDLE;
  pthread_mutex_lock(&g_lock);
  struct sim_stream **pp = &g_streams;
  while (*pp && *pp != s) pp = &(*pp)->next;
  if (!*pp) {
    pthread_mutex_unlock(&g_lock);
    return CUDA_ERROR_INVALID_HANDLE;
  }
  *pp = s->next;
  pthread_mutex_unlock(&g_lock);
  /* Work queued on a destroyed stream still completes. */
  flush_stream(s, ~0ull);
  s->magic = 0;
  free(s->pending);
  free(s);
  return CUDA_SUCCESS;
}

API CUresult cuStreamSynchronize(CUstream s) {
  CHECK_CTX();
  CUresult r = stream_check(s);
  if (r) return r;
  if (s)
    flush_stream(s, ~0ull);
  else
    flush_all_streams(); /* the legacy null stream waits for every blocking stream */
  return CUDA_SUCCESS;
}

/* ---- events ------------------------------------------------------------------------------------ */

API CUresult cuEventCreate(CUevent *e, unsigned int flags) {
  CHECK_CTX();
  if (!e || flags > 0xf) return CUDA_ERROR_INVALID_VALUE;
  struct sim_event *p = calloc(1, sizeof *p);
  if (!p) return CUDA_ERROR_OUT_OF_MEMORY;
  p->magic = EVENT_MAGIC;
  *e = p;
  return CUDA_SUCCESS;
}

API CUresult cuEventRecord(CUevent e, CUstream s) {
  CHECK_CTX();
  if (!e || e->magic != EVENT_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
  CUresult r = stream_check(s);
  if (r) return r;
  e->stream = s;
  if (s) {
    pthread_mutex_lock(&s->mu);
    e->seq = s->seq;
    pthread_mutex_unlock(&s->mu);
  }
  return CUDA_SUCCESS;
}

API CUresult cuEventSynchronize(CUevent e) {
  CHECK_CTX();
  if (!e || e->magic != EVENT_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
  if (e->stream) {
    CUresult r = stream_check(e->stream);
    if (r) return r;
    flush_stream(e->stream, e->seq);
  }
  return CUDA_SUCCESS;
}

API CUresult cuEventDestroy_v2(CUevent e) {
  CHECK_CTX();
  if (!e || e->magic != EVENT_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
  e->magic = 0;
  free(e);
  return CUDA_SUCCESS;
}

/* ---- pinned host memory ------------------------------------------------------------------------ */

API CUresult cuMemAllocHost_v2(void **pp, size_t bytes) {
  CHECK_CTX();
  if (!pp || bytes == 0) return CUDA_ERROR_INVALID_VALUE;
  char *p = malloc(bytes);
  if (!p) return CUDA_ERROR_OUT_OF_MEMORY;
  memset(p, 0xa5, bytes);
  pthread_mutex_lock(&g_lock);
  if (g_npinned == g_cap_pinned) {
    g_cap_pinned = g_cap_pinned ? 2 * g_cap_pinned : 16;
    g_pinned = realloc(g_pinned, g_cap_pinned * sizeof *g_pinned);
  }
  g_pinned[g_npinned].start = p;
  g_pinned[g_npinned].size = bytes;
  g_npinned++;
  pthread_mutex_unlock(&g_lock);
  *pp = p;
  return CUDA_SUCCESS;
}

API CUresult cuMemFreeHost(void *p) {
  CHECK_CTX();
  /* As the driver does, wait for the work that may still use it. */
  flush_all_streams();
  pthread_mutex_lock(&g_lock);
  size_t i = 0;
  while (i < g_npinned && g_pinned[i].start != p) i++;
  if (i == g_npinned) {
    pthread_mutex_unlock(&g_lock);
    return CUDA_ERROR_INVALID_VALUE;
  }
  g_pinned[i] = g_pinned[--g_npinned];
  pthread_mutex_unlock(&g_lock);
  free(p);
  return CUDA_SUCCESS;
}

/* ---- modules ----------------------------------------------------------------------------------- */

static const struct acc_sim_api g_api;

struct tls_query {
  ElfW(Addr) base;
  size_t size;
};

static int find_tls(struct dl_phdr_info *info, size_t n, void *data) {
  (void)n;
  struct tls_query *q = data;
  if (info->dlpi_addr != q->base) return 0;
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_TLS) q->size = info->dlpi_phdr[i].p_memsz;
  return 1;
}

API CUresult cuModuleLoadData(CUmodule *m, const void *image) {
  CHECK_CTX();
  if (!m || !image) return CUDA_ERROR_INVALID_VALUE;
  const struct acc_sim_image *h = image;
  if (memcmp(h->magic, ACC_SIM_MAGIC, 8) != 0 || h->abi != ACC_SIM_ABI) {
    fprintf(stderr, "acc-sim: cuModuleLoadData: not an image of this simulator's NVRTC\n");
    return CUDA_ERROR_INVALID_IMAGE;
  }
  if (h->relocatable) {
    fprintf(stderr, "acc-sim: cuModuleLoadData: relocatable device code (-rdc=true) must be "
                    "linked first (cuLinkCreate)\n");
    return CUDA_ERROR_INVALID_IMAGE;
  }
  const char *tmp = getenv("TMPDIR");
  char path[4096];
  snprintf(path, sizeof path, "%s/acc-sim-kernel-XXXXXX.so", tmp && *tmp ? tmp : "/tmp");
  int fd = mkstemps(path, 3);
  if (fd < 0) {
    fprintf(stderr, "acc-sim: cuModuleLoadData: %s: %s\n", path, strerror(errno));
    return CUDA_ERROR_INVALID_IMAGE;
  }
  const char *bytes = (const char *)(h + 1);
  size_t left = h->so_bytes;
  while (left > 0) {
    ssize_t w = write(fd, bytes, left);
    if (w <= 0 && errno != EINTR) break;
    if (w > 0) bytes += w, left -= (size_t)w;
  }
  close(fd);
  void *handle = left == 0 ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
  const char *why = handle ? NULL : left ? "short write" : dlerror();
  if (!getenv("ACC_SIM_KEEP")) unlink(path);
  if (!handle) {
    fprintf(stderr, "acc-sim: cuModuleLoadData: %s\n", why);
    return CUDA_ERROR_INVALID_IMAGE;
  }
  int (*bind)(const struct acc_sim_api *) = (int (*)(const struct acc_sim_api *))dlsym(
      handle, "__acc_sim_bind");
  void *(*tls)(void) = (void *(*)(void))dlsym(handle, "__acc_sim_tls");
  if (!bind || !tls || bind(&g_api) != 0) {
    fprintf(stderr, "acc-sim: cuModuleLoadData: the kernel object was built for another ABI\n");
    dlclose(handle);
    return CUDA_ERROR_INVALID_IMAGE;
  }
  struct link_map *lm = NULL;
  struct tls_query q = {0, 0};
  if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) == 0 && lm) {
    q.base = lm->l_addr;
    dl_iterate_phdr(find_tls, &q);
  }
  struct sim_module *mod = calloc(1, sizeof *mod);
  if (!mod) return CUDA_ERROR_OUT_OF_MEMORY;
  *mod = (struct sim_module){MODULE_MAGIC, handle, q.size, tls};
  *m = mod;
  return CUDA_SUCCESS;
}

/* ---- linking relocatable device code ----------------------------------------------------- */
/* The driver's linker, as the runtime uses it: relocatable images (NVRTC's -rdc=true: objects)
 * added one by one, then linked by the host compiler into one kernel shared object, whose image
 * cuModuleLoadData takes. Undefined symbols are an error, as nvlink's unresolved externals are;
 * the compiler's message goes to the caller's CU_JIT_ERROR_LOG_BUFFER. */
typedef struct sim_link *CUlinkState;
enum { CU_JIT_ERROR_LOG_BUFFER = 5, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6 };
enum { CU_JIT_INPUT_CUBIN = 0, CU_JIT_INPUT_PTX = 1 };
#define LINK_MAGIC 0x4c494e4bu

struct sim_link {
  unsigned magic;
  char dir[4096];
  int parts;
  unsigned arch;
  char *log;
  size_t log_size;
  char *image;
};

static void link_log(struct sim_link *l, const char *text) {
  if (!l->log || l->log_size == 0) return;
  snprintf(l->log, l->log_size, "%s", text ? text : "");
}

API CUresult cuLinkCreate_v2(unsigned int n, int *options, void **values, CUlinkState *out) {
  CHECK_CTX();
  if (!out || (n && (!options || !values))) return CUDA_ERROR_INVALID_VALUE;
  struct sim_link *l = calloc(1, sizeof *l);
  if (!l) return CUDA_ERROR_OUT_OF_MEMORY;
  l->magic = LINK_MAGIC;
  for (unsigned int i = 0; i < n; i++) {
    if (options[i] == CU_JIT_ERROR_LOG_BUFFER) l->log = values[i];
    if (options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES) l->log_size = (size_t)(uintptr_t)values[i];
  }
  const char *tmp = getenv("TMPDIR");
  snprintf(l->dir, sizeof l->dir, "%s/acc-sim-link-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(l->dir)) {
    free(l);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  *out = l;
  return CUDA_SUCCESS;
}

API CUresult cuLinkAddData_v2(CUlinkState l, int type, void *data, size_t size, const char *name,
                              unsigned int n, int *options, void **values) {
  (void)name, (void)n, (void)options, (void)values;
  if (!l || l->magic != LINK_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
  if (!data || (type != CU_JIT_INPUT_CUBIN && type != CU_JIT_INPUT_PTX)) return CUDA_ERROR_INVALID_VALUE;
  const struct acc_sim_image *h = data;
  if (size < sizeof *h || memcmp(h->magic, ACC_SIM_MAGIC, 8) != 0 || h->abi != ACC_SIM_ABI ||
      size < sizeof *h + h->so_bytes) {
    link_log(l, "acc-sim: not an image of this simulator's NVRTC");
    return CUDA_ERROR_INVALID_IMAGE;
  }
  if (!h->relocatable) {
    link_log(l, "acc-sim: not relocatable device code (compile it with -rdc=true)");
    return CUDA_ERROR_INVALID_IMAGE;
  }
  char path[4200];
  snprintf(path, sizeof path, "%s/part%d.o", l->dir, l->parts);
  if (write_file(path, (const char *)(h + 1), h->so_bytes) != 0) return CUDA_ERROR_OUT_OF_MEMORY;
  if (l->parts++ == 0) l->arch = h->arch;
  return CUDA_SUCCESS;
}

API CUresult cuLinkComplete(CUlinkState l, void **image_out, size_t *size_out) {
  if (!l || l->magic != LINK_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
  if (!image_out || !size_out || l->parts == 0) return CUDA_ERROR_INVALID_VALUE;
  char so[4200], logp[4200], parts[64][4200];
  snprintf(so, sizeof so, "%s/linked.so", l->dir);
  snprintf(logp, sizeof logp, "%s/log", l->dir);
  char *argv[128];
  int argc = 0;
  char *cxx = add_compiler(argv, &argc, 32);
  const char *fixed[] = {"-shared", "-fPIC", "-Wl,-Bsymbolic", "-Wl,--no-undefined", "-o", so};
  for (size_t k = 0; k < sizeof fixed / sizeof fixed[0]; k++) argv[argc++] = (char *)fixed[k];
  for (int i = 0; i < l->parts && i < 64; i++) {
    snprintf(parts[i], sizeof parts[i], "%s/part%d.o", l->dir, i);
    argv[argc++] = parts[i];
  }
  argv[argc++] = "-lm";
  argv[argc] = NULL;
  int status = cxx ? run(argv, logp) : -1;
  free(cxx);
  char *log = read_file(logp, NULL);
  if (status != 0) {
    link_log(l, log && *log ? log : "acc-sim: the host compiler could not link the parts");
    free(log);
    return CUDA_ERROR_INVALID_IMAGE;
  }
  free(log);
  size_t so_len = 0;
  char *bytes = read_file(so, &so_len);
  if (!bytes) return CUDA_ERROR_OUT_OF_MEMORY;
  free(l->image);
  l->image = malloc(sizeof(struct acc_sim_image) + so_len);
  if (!l->image) {
    free(bytes);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  struct acc_sim_image h;
  memset(&h, 0, sizeof h);
  memcpy(h.magic, ACC_SIM_MAGIC, 8);
  h.abi = ACC_SIM_ABI;
  h.arch = l->arch;
  h.so_bytes = so_len;
  memcpy(l->image, &h, sizeof h);
  memcpy(l->image + sizeof h, bytes, so_len);
  free(bytes);
  *image_out = l->image;
  *size_out = sizeof h + so_len;
  return CUDA_SUCCESS;
}

API CUresult cuLinkDestroy(CUlinkState l) {
  if (!l || l->magic != LINK_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
  if (!getenv("ACC_SIM_KEEP")) remove_tree(l->dir);
  free(l->image);
  l->magic = 0;
  free(l);
  return CUDA_SUCCESS;
}

/* A module's `__device__` variable by name (shim.h gives them default visibility), with its
 * size from the symbol table; copies may then reach it as device memory. */
API CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule m, const char *name) {
  CHECK_CTX();
  if (!name) return CUDA_ERROR_INVALID_VALUE;
  if (!m || m->magic != MODULE_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
  void *p = dlsym(m->handle, name);
  if (!p) return CUDA_ERROR_NOT_FOUND;
  Dl_info info;
  const ElfW(Sym) *sym = NULL;
  size_t size = 0;
  if (dladdr1(p, &info, (void **)&sym, RTLD_DL_SYMENT) && sym) size = sym->st_size;
  pthread_mutex_lock(&g_lock);
  if (g_nglobals < sizeof g_globals / sizeof g_globals[0])
    g_globals[g_nglobals++] = (struct global_range){(uintptr_t)p, size};
  pthread_mutex_unlock(&g_lock);
  if (dptr) *dptr = (CUdeviceptr)(uintptr_t)p;
  if (bytes) *bytes = size;
  return CUDA_SUCCESS;
}

API CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) {
  CHECK_CTX();
  if (!f || !name) return CUDA_ERROR_INVALID_VALUE;
  if (!m || m->magic != MODULE_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
  char sym[256];
  if (snprintf(sym, sizeof sym, "__acc_sim_entry_%s", name) >= (int)sizeof sym)
    return CUDA_ERROR_NOT_FOUND;
  void (*entry)(void **) = (void (*)(void **))dlsym(m->handle, sym);
  if (!entry) return CUDA_ERROR_NOT_FOUND;
  struct sim_function *fn = calloc(1, sizeof *fn);
  if (!fn) return CUDA_ERROR_OUT_OF_MEMORY;
  fn->magic = FUNC_MAGIC;
  fn->module = m;
  fn->entry = entry;
  snprintf(fn->name, sizeof fn->name, "%s", name);
  *f = fn;
  return CUDA_SUCCESS;
}

API CUresult cuFuncGetAttribute(int *v, int attr, CUfunction f) {
  if (!v) return CUDA_ERROR_INVALID_VALUE;
  if (!f || f->magic != FUNC_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
  switch (attr) {
  case 0: *v = 1024; break;            /* MAX_THREADS_PER_BLOCK */
  case 4: *v = 32; break;              /* NUM_REGS */
  case 5: case 6: *v = cfg.cc; break;  /* PTX_VERSION, BINARY_VERSION */
  case 8: *v = 48 << 10; break;        /* MAX_DYNAMIC_SHARED_SIZE_BYTES */
  default:
    if (attr < 0 || attr > 20) return CUDA_ERROR_INVALID_VALUE;
    *v = 0;
  }
  return CUDA_SUCCESS;
}

/* As a GPU of compute capability 8.0 and later with few registers a thread: 2048 resident
 * threads and at most 32 blocks a multiprocessor. */
API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, CUfunction f, int block_size,
                                                         size_t shared_bytes) {
  CHECK_CTX();
  if (!n || block_size <= 0 || block_size > 1024) return CUDA_ERROR_INVALID_VALUE;
  if (!f || f->magic != FUNC_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
  if (shared_bytes) return CUDA_ERROR_NOT_SUPPORTED;
  int blocks = 2048 / block_size;
  *n = blocks < 1 ? 1 : blocks > 32 ? 32 : blocks;
  return CUDA_SUCCESS;
}

/* ---- kernel execution -------------------------------------------------------------------------- */

enum { F_RUNNABLE, F_BARRIER, F_WARP, F_DONE };

struct fiber {
  ucontext_t uc;
  struct acc_sim_thread t;
  int state;
  /* A barrier's predicate or a warp collective's value, and what the collective gives back. */
  int op, src, spun;
  unsigned int mask;
  unsigned long long value, result;
};

struct launch {
  struct sim_function *fn;
  void **params;
  unsigned int grid[3], block[3], nthreads, nblocks, workers;
  unsigned long long seed;
  unsigned int next_block;
  int failed;
  pthread_mutex_t mu;
};

/* What one OS thread needs to run blocks: its fibers and their stacks, kept between launches. */
struct worker {
  ucontext_t sched;
  struct fiber *fibers;
  unsigned int *order;
  unsigned int cap;
  char *stacks;
  size_t stacks_len;
  struct launch *launch;
  unsigned int block;
  struct fiber *cur;
  void *altstack;
  /* A fault in a fiber, recorded by the signal handler and reported by the scheduler (which
   * runs on an ordinary stack, where reporting is safe). */
  int fault_sig;
  void *fault_addr;
  struct acc_sim_thread fault_thread;
};

static void fail_launch(struct launch *L, CUresult code, const char *fmt, ...) {
  pthread_mutex_lock(&L->mu);
  if (!L->failed) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "acc-sim: kernel %s: %s\n", L->fn->name, msg);
    __atomic_store_n(&g_sticky, code, __ATOMIC_SEQ_CST);
    __atomic_store_n(&L->failed, 1, __ATOMIC_SEQ_CST);
  }
  pthread_mutex_unlock(&L->mu);
}

/* Threads that launched kernels may end (a test's thread, a queue's worker): their fibers'
 * stacks and signal stack go with them. */
static pthread_key_t g_worker_key;
static pthread_once_t g_worker_once = PTHREAD_ONCE_INIT;

static void free_worker(void *p) {
  struct worker *w = p;
  if (w->altstack) {
    stack_t off = {.ss_sp = NULL, .ss_size = 0, .ss_flags = SS_DISABLE};
    sigaltstack(&off, NULL);
    munmap(w->altstack, 64 << 10);
  }
  if (w->stacks) munmap(w->stacks, w->stacks_len);
  free(w->fibers);
  free(w->order);
  free(w);
  tl_worker = NULL;
}

static void make_worker_key(void) { pthread_key_create(&g_worker_key, free_worker); }

static struct worker *worker(void) {
  if (!tl_worker) {
    pthread_once(&g_worker_once, make_worker_key);
    tl_worker = calloc(1, sizeof(struct worker));
    if (tl_worker) pthread_setspecific(g_worker_key, tl_worker);
  }
  return tl_worker;
}

/* The fault handler needs a stack of its own: a fiber's stack may be what overflowed. */
static void ensure_altstack(struct worker *w) {
  stack_t cur;
  if (w->altstack || sigaltstack(NULL, &cur) != 0 || !(cur.ss_flags & SS_DISABLE)) return;
  size_t len = 64 << 10;
  void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return;
  stack_t ss = {.ss_sp = p, .ss_size = len, .ss_flags = 0};
  if (sigaltstack(&ss, NULL) == 0)
    w->altstack = p;
  else
    munmap(p, len);
}

static int ensure_fibers(struct worker *w, unsigned int n) {
  if (w->cap >= n) return 0;
  free(w->fibers);
  free(w->order);
  if (w->stacks) munmap(w->stacks, w->stacks_len);
  w->cap = 0;
  w->fibers = calloc(n, sizeof *w->fibers);
  w->order = calloc(n, sizeof *w->order);
  w->stacks_len = (size_t)n * (cfg.stack + g_page);
  w->stacks = mmap(NULL, w->stacks_len, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (!w->fibers || !w->order || w->stacks == MAP_FAILED) {
    w->stacks = NULL;
    return -1;
  }
  /* A guard page below each stack: an overflow faults instead of corrupting a neighbour. */
  for (unsigned int i = 0; i < n; i++)
    mprotect(w->stacks + (size_t)i * (cfg.stack + g_page), g_page, PROT_NONE);
  w->cap = n;
  return 0;
}

static unsigned long long mix(unsigned long long x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

static void shuffle(unsigned int *order, unsigned int n, unsigned long long *state) {
  for (unsigned int i = n; i > 1; i--) {
    *state = mix(*state);
    unsigned int j = (unsigned int)(*state % i);
    unsigned int t = order[i - 1];
    order[i - 1] = order[j];
    order[j] = t;
  }
}

static void fiber_main(void) {
  struct worker *w = tl_worker;
  struct fiber *f = w->cur;
  w->launch->fn->entry(w->launch->params);
  f->state = F_DONE;
  /* Returning resumes uc_link, the scheduler. */
}

/* Called on a fiber: back to the scheduler until it resumes this fiber. */
static void yield(void) {
  struct worker *w = tl_worker;
  swapcontext(&w->cur->uc, &w->sched);
}

static void poison_shared(struct sim_module *m) {
  if (!m->tls_size) return;
  (void)m->tls();
  void *p = NULL;
  if (dlinfo(m->handle, RTLD_DI_TLS_DATA, &p) == 0 && p) memset(p, 0xff, m->tls_size);
}

/* Releases what waits and can go on: the block barrier once every live thread has reached it,
 * and each warp collective whose lanes have all arrived. 1: something was released; 0:
 * nothing; -1: a collective can never complete (the launch has failed). */
static int release(struct launch *L, struct worker *w, unsigned int n, unsigned int live) {
  unsigned int at_barrier = 0, passed = 0;
  for (unsigned int i = 0; i < n; i++)
    if (w->fibers[i].state == F_BARRIER) at_barrier++, passed += w->fibers[i].value != 0;
  if (at_barrier && at_barrier == live) {
    for (unsigned int i = 0; i < n; i++)
      if (w->fibers[i].state == F_BARRIER) {
        w->fibers[i].result = passed;
        w->fibers[i].state = F_RUNNABLE;
      }
    return 1;
  }
  int released = 0;
  for (unsigned int i = 0; i < n; i++) {
    struct fiber *f = &w->fibers[i];
    if (f->state != F_WARP) continue;
    unsigned int warp = i / 32, mask = f->mask, complete = 1;
    unsigned long long ballot = 0;
    for (unsigned int lane = 0; lane < 32; lane++) {
      if (!(mask >> lane & 1)) continue;
      unsigned int j = warp * 32 + lane;
      const char *bad = NULL;
      if (j >= n)
        bad = "names a lane the block does not have";
      else if (w->fibers[j].state == F_DONE)
        bad = "names a lane that has exited";
      else if (w->fibers[j].state == F_WARP &&
               (w->fibers[j].mask != mask || w->fibers[j].op != f->op))
        bad = "differs from another lane's: the lanes wait at different warp collectives";
      if (bad) {
        fail_launch(L, CUDA_ERROR_LAUNCH_FAILED,
                    "block %u: warp %u: the mask 0x%08x of lane %u %s (lane %u); a GPU hangs or "
                    "gives undefined results",
                    w->block, warp, mask, i % 32, bad, lane);
        return -1;
      }
      if (w->fibers[j].state != F_WARP) complete = 0;
      ballot |= (unsigned long long)(w->fibers[j].value != 0) << lane;
    }
    if (!complete) continue;
    for (unsigned int lane = 0; lane < 32; lane++) {
      if (!(mask >> lane & 1)) continue;
      struct fiber *g = &w->fibers[warp * 32 + lane];
      if (g->op == ACC_SIM_WARP_BALLOT)
        g->result = ballot;
      else if (g->op == ACC_SIM_WARP_SHFL)
        g->result = g->src >= 0 && g->src < 32 && (mask >> g->src & 1)
                        ? w->fibers[warp * 32 + (unsigned int)g->src].value
                        : g->value;
      g->state = F_RUNNABLE;
    }
    released = 1;
  }
  return released;
}

/* Apart from run_block: getcontext "returns twice" for the compiler, which would then keep the
 * scheduler's variables out of registers. */
static __attribute__((noinline)) void start_fiber(struct worker *w, struct fiber *f, char *stack) {
  getcontext(&f->uc);
  f->uc.uc_stack.ss_sp = stack;
  f->uc.uc_stack.ss_size = cfg.stack;
  f->uc.uc_link = &w->sched;
  makecontext(&f->uc, fiber_main, 0);
}

static void report_fault(struct launch *L, struct worker *w) {
  const struct acc_sim_thread *t = &w->fault_thread;
  int fpe = w->fault_sig == SIGFPE;
  fail_launch(L, fpe ? CUDA_ERROR_LAUNCH_FAILED : CUDA_ERROR_ILLEGAL_ADDRESS,
              "%s at %p in block (%u,%u,%u), thread (%u,%u,%u)",
              fpe ? "an arithmetic exception (integer division by zero?)"
                  : "an illegal memory access",
              w->fault_addr, t->block_idx.x, t->block_idx.y, t->block_idx.z, t->thread_idx.x,
              t->thread_idx.y, t->thread_idx.z);
  w->fault_sig = 0;
}

static int g_active_launches;

static void run_block(struct launch *L, unsigned int b) {
  struct worker *w = worker();
  unsigned int n = L->nthreads;
  if (!w || ensure_fibers(w, n) != 0) {
    fail_launch(L, CUDA_ERROR_LAUNCH_FAILED, "no memory for %u fiber stacks", n);
    return;
  }
  ensure_altstack(w);
  poison_shared(L->fn->module);
  unsigned int gx = L->grid[0], gy = L->grid[1];
  struct acc_sim_dim bidx = {b % gx, (b / gx) % gy, b / (gx * gy)};
  for (unsigned int i = 0; i < n; i++) {
    struct fiber *f = &w->fibers[i];
    f->t.thread_idx = (struct acc_sim_dim){i % L->block[0], (i / L->block[0]) % L->block[1],
                                           i / (L->block[0] * L->block[1])};
    f->t.block_idx = bidx;
    f->t.block_dim = (struct acc_sim_dim){L->block[0], L->block[1], L->block[2]};
    f->t.grid_dim = (struct acc_sim_dim){L->grid[0], L->grid[1], L->grid[2]};
    f->state = F_RUNNABLE;
    f->value = f->result = 0;
    start_fiber(w, f, w->stacks + (size_t)i * (cfg.stack + g_page) + g_page);
    w->order[i] = i;
  }
  unsigned long long rng = mix(L->seed ^ mix(b));
  shuffle(w->order, n, &rng);
  w->launch = L;
  w->block = b;
  unsigned int live = n, stalled = 0;
  struct timespec stall_start = {0, 0};
  for (;;) {
    int progressed = 0, runnable = 0;
    for (unsigned int k = 0; k < n; k++) {
      struct fiber *f = &w->fibers[w->order[k]];
      if (f->state != F_RUNNABLE) continue;
      f->spun = 0;
      w->cur = f;
      swapcontext(&w->sched, &f->uc);
      w->cur = NULL;
      if (w->fault_sig) {
        report_fault(L, w);
        return;
      }
      if (__atomic_load_n(&L->failed, __ATOMIC_SEQ_CST)) return;
      if (f->state == F_DONE) live--;
      if (!f->spun) progressed = 1;
      runnable += f->state == F_RUNNABLE;
    }
    if (live == 0) return;
    int r = release(L, w, n, live);
    if (r < 0) return;
    if (r > 0) {
      /* A new phase: a new order, so no thread is always first after a barrier. */
      shuffle(w->order, n, &rng);
      stalled = 0;
      continue;
    }
    if (progressed) {
      stalled = 0;
      continue;
    }
    if (!runnable) {
      unsigned int bar = 0, warp = 0;
      for (unsigned int i = 0; i < n; i++)
        bar += w->fibers[i].state == F_BARRIER, warp += w->fibers[i].state == F_WARP;
      fail_launch(L, CUDA_ERROR_LAUNCH_FAILED,
                  "block %u deadlocks: %u threads wait at __syncthreads, %u at warp collectives, "
                  "%u have exited (a GPU hangs)",
                  b, bar, warp, n - live);
      return;
    }
    /* Only spinning threads: the lock they want is held elsewhere. When this block is all
     * that runs (one OS thread, no other launch), nobody else can release it; otherwise give
     * the holder time. */
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (stalled++ == 0) stall_start = now;
    int alone = L->workers == 1 && __atomic_load_n(&g_active_launches, __ATOMIC_SEQ_CST) == 1;
    if ((alone && stalled > 1000) || now.tv_sec - stall_start.tv_sec > 60) {
      fail_launch(L, CUDA_ERROR_LAUNCH_FAILED,
                  "block %u: %u threads spin on atomicCAS and nothing else runs (a GPU hangs)",
                  b, runnable);
      return;
    }
    if (L->workers > 1) sched_yield();
  }
}

static void run_blocks(struct launch *L) {
  for (;;) {
    if (__atomic_load_n(&L->failed, __ATOMIC_SEQ_CST)) return;
    unsigned int b = __atomic_fetch_add(&L->next_block, 1, __ATOMIC_SEQ_CST);
    if (b >= L->nblocks) return;
    run_block(L, b);
  }
}

/* Helper OS threads, kept for the process: each runs the blocks of one launch at a time. */
struct helper {
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  struct launch *job;
  int busy;
};
static pthread_mutex_t g_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct helper g_helpers[64];
static int g_nhelpers;

static void *helper_main(void *arg) {
  struct helper *h = arg;
  ensure_altstack(worker());
  pthread_mutex_lock(&h->mu);
  for (;;) {
    while (!h->job) pthread_cond_wait(&h->cv, &h->mu);
    struct launch *L = h->job;
    pthread_mutex_unlock(&h->mu);
    run_blocks(L);
    pthread_mutex_lock(&h->mu);
    h->job = NULL;
    pthread_cond_broadcast(&h->cv);
  }
  return NULL;
}

static void run_launch(struct launch *L) {
  struct helper *mine[64];
  int claimed = 0, want = (int)L->workers - 1;
  if (want > (int)L->nblocks - 1) want = (int)L->nblocks - 1;
  pthread_mutex_lock(&g_pool_lock);
  for (int i = 0; i < g_nhelpers && claimed < want; i++)
    if (!g_helpers[i].busy) g_helpers[i].busy = 1, mine[claimed++] = &g_helpers[i];
  while (claimed < want && g_nhelpers < 64) {
    struct helper *h = &g_helpers[g_nhelpers];
    pthread_mutex_init(&h->mu, NULL);
    pthread_cond_init(&h->cv, NULL);
    h->busy = 1;
    if (pthread_create(&h->thread, NULL, helper_main, h) != 0) break;
    pthread_detach(h->thread);
    g_nhelpers++;
    mine[claimed++] = h;
  }
  pthread_mutex_unlock(&g_pool_lock);
  L->workers = (unsigned int)claimed + 1;
  for (int i = 0; i < claimed; i++) {
    pthread_mutex_lock(&mine[i]->mu);
    mine[i]->job = L;
    pthread_cond_broadcast(&mine[i]->cv);
    pthread_mutex_unlock(&mine[i]->mu);
  }
  run_blocks(L);
  for (int i = 0; i < claimed; i++) {
    pthread_mutex_lock(&mine[i]->mu);
    while (mine[i]->job) pthread_cond_wait(&mine[i]->cv, &mine[i]->mu);
    pthread_mutex_unlock(&mine[i]->mu);
  }
  pthread_mutex_lock(&g_pool_lock);
  for (int i = 0; i < claimed; i++) mine[i]->busy = 0;
  pthread_mutex_unlock(&g_pool_lock);
}

static unsigned long long g_launches;

API CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,
                            unsigned int bx, unsigned int by, unsigned int bz,
                            unsigned int shared_bytes, CUstream s, void **params, void **extra) {
  CHECK_CTX();
  if (!f || f->magic != FUNC_MAGIC) return CUDA_ERROR_INVALID_HANDLE;
  CUresult r = stream_check(s);
  if (r) return r;
  if (!gx || !gy || !gz || !bx || !by || !bz || bx > 1024 || by > 1024 || bz > 64 ||
      (unsigned long long)bx * by * bz > 1024 || gx > 0x7fffffffu || gy > 65535 || gz > 65535)
    return CUDA_ERROR_INVALID_VALUE;
  if (extra) return CUDA_ERROR_NOT_SUPPORTED;
  if (shared_bytes) {
    fprintf(stderr, "acc-sim: dynamic shared memory is not simulated\n");
    return CUDA_ERROR_NOT_SUPPORTED;
  }
  unsigned long long blocks = (unsigned long long)gx * gy * gz;
  if (blocks > 0xffffffffull) return CUDA_ERROR_NOT_SUPPORTED;
  flush_stream(s, ~0ull);
  struct launch L = {
      .fn = f,
      .params = params,
      .grid = {gx, gy, gz},
      .block = {bx, by, bz},
      .nthreads = bx * by * bz,
      .nblocks = (unsigned int)blocks,
      .workers = (unsigned int)cfg.threads,
      .seed = mix(cfg.seed) ^ __atomic_fetch_add(&g_launches, 1, __ATOMIC_SEQ_CST),
  };
  pthread_mutex_init(&L.mu, NULL);
  __atomic_add_fetch(&g_active_launches, 1, __ATOMIC_SEQ_CST);
  run_launch(&L);
  __atomic_sub_fetch(&g_active_launches, 1, __ATOMIC_SEQ_CST);
  pthread_mutex_destroy(&L.mu);
  /* A GPU's printf output reaches stdout when the host synchronizes: before the launch's
   * error, if any, is reported. */
  fflush(stdout);
  /* As on a GPU, a failure shows at the next synchronization, and sticks. */
  return CUDA_SUCCESS;
}

/* ---- what kernels call ------------------------------------------------------------------------- */

static const struct acc_sim_thread *api_self(void) { return &tl_worker->cur->t; }

static int api_syncthreads(int pred) {
  struct fiber *f = tl_worker->cur;
  f->state = F_BARRIER;
  f->value = pred != 0;
  yield();
  return (int)f->result;
}

static void api_trap(const char *what) __attribute__((noreturn));

static unsigned int lane_of(const struct fiber *f) {
  const struct acc_sim_thread *t = &f->t;
  return ((t->thread_idx.z * t->block_dim.y + t->thread_idx.y) * t->block_dim.x +
          t->thread_idx.x) %
         32;
}

static unsigned long long api_warp(int op, unsigned int mask, unsigned long long value, int src) {
  struct fiber *f = tl_worker->cur;
  if (!(mask >> lane_of(f) & 1)) api_trap("a warp collective whose mask leaves out the caller");
  f->state = F_WARP;
  f->op = op;
  f->mask = mask;
  f->value = value;
  f->src = src;
  yield();
  return f->result;
}

static unsigned int api_active_mask(void) {
  struct worker *w = tl_worker;
  unsigned int i = (unsigned int)(w->cur - w->fibers), base = i - i % 32, mask = 0;
  for (unsigned int lane = 0; lane < 32 && base + lane < w->launch->nthreads; lane++)
    if (w->fibers[base + lane].state != F_DONE) mask |= 1u << lane;
  return mask;
}

static void api_spin(void) {
  tl_worker->cur->spun = 1;
  yield();
}

/* Ends the calling fiber's part in the launch and goes back to its scheduler. */
static void abandon_fiber(struct worker *w) __attribute__((noreturn));
static void abandon_fiber(struct worker *w) {
  w->cur->state = F_DONE;
  setcontext(&w->sched);
  abort();
}

static void api_trap(const char *what) {
  struct worker *w = tl_worker;
  const struct acc_sim_thread *t = &w->cur->t;
  fail_launch(w->launch, CUDA_ERROR_LAUNCH_FAILED, "%s in block (%u,%u,%u), thread (%u,%u,%u)",
              what, t->block_idx.x, t->block_idx.y, t->block_idx.z, t->thread_idx.x,
              t->thread_idx.y, t->thread_idx.z);
  abandon_fiber(w);
}

/* CUDA's vprintf: each argument of the buffer is aligned to its size (4 for int and smaller,
 * promoted; 8 for long, long long, double, pointers). */
typedef const char *text;
typedef const void *address;

static int api_vprintf(const char *fmt, const char *args) {
  size_t off = 0;
  int total = 0;
#define ARG(T) (off = (off + sizeof(T) - 1) & ~(sizeof(T) - 1), off += sizeof(T), \
                *(const T *)(args + off - sizeof(T)))
  flockfile(stdout);
  for (const char *p = fmt; *p;) {
    if (*p != '%' || p[1] == '%') {
      putc_unlocked(*p, stdout);
      total++;
      p += *p == '%' ? 2 : 1;
      continue;
    }
    char spec[64];
    size_t n = 0;
    spec[n++] = *p++;
    while (*p && strchr("-+ #0'", *p) && n < 40) spec[n++] = *p++;
    for (int part = 0; part < 2; part++) {
      if (part == 1) {
        if (*p != '.') break;
        spec[n++] = *p++;
      }
      if (*p == '*') {
        n += (size_t)snprintf(spec + n, sizeof spec - n, "%d", ARG(int));
        p++;
      } else {
        while (*p >= '0' && *p <= '9' && n < 50) spec[n++] = *p++;
      }
    }
    int wide = 0;
    while (*p && strchr("hlLqjzt", *p)) wide |= *p == 'l' || *p == 'L' || *p == 'q' ||
                                                 *p == 'j' || *p == 'z' || *p == 't',
                                         p++;
    char conv = *p ? *p++ : 0;
    if (!conv) break;
    switch (conv) {
    case 'd': case 'i':
      memcpy(spec + n, "ll", 2), spec[n + 2] = conv, spec[n + 3] = 0;
      total += fprintf(stdout, spec, wide ? ARG(long long) : (long long)ARG(int));
      break;
    case 'u': case 'o': case 'x': case 'X':
      memcpy(spec + n, "ll", 2), spec[n + 2] = conv, spec[n + 3] = 0;
      total += fprintf(stdout, spec,
                       wide ? ARG(unsigned long long) : (unsigned long long)ARG(unsigned int));
      break;
    case 'c':
      spec[n] = 'c', spec[n + 1] = 0;
      total += fprintf(stdout, spec, ARG(int));
      break;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
      spec[n] = conv, spec[n + 1] = 0;
      total += fprintf(stdout, spec, ARG(double));
      break;
    case 's': {
      const char *s = ARG(text);
      spec[n] = 's', spec[n + 1] = 0;
      total += fprintf(stdout, spec, s ? s : "(null)");
      break;
    }
    case 'p':
      spec[n] = 'p', spec[n + 1] = 0;
      total += fprintf(stdout, spec, ARG(address));
      break;
    default: /* %n and unknown conversions print nothing, as on a GPU */
      break;
    }
  }
#undef ARG
  funlockfile(stdout);
  return total;
}

static const struct acc_sim_api g_api = {
    ACC_SIM_ABI, api_self, api_syncthreads, api_warp, api_active_mask, api_spin, api_trap,
    api_vprintf,
};

/* ---- faults in kernels ------------------------------------------------------------------------- */

static struct sigaction g_old_segv, g_old_bus, g_old_fpe;

static void on_fault(int sig, siginfo_t *si, void *uc) {
  struct worker *w = tl_worker;
  if (w && w->cur && !w->fault_sig) {
    w->fault_sig = sig;
    w->fault_addr = si->si_addr;
    w->fault_thread = w->cur->t;
    abandon_fiber(w);
  }
  /* Not a kernel: whoever handled the signal before us decides. */
  struct sigaction *old = sig == SIGSEGV ? &g_old_segv : sig == SIGBUS ? &g_old_bus : &g_old_fpe;
  if (old->sa_flags & SA_SIGINFO) {
    old->sa_sigaction(sig, si, uc);
  } else if (old->sa_handler == SIG_DFL || old->sa_handler == SIG_IGN) {
    sigaction(sig, old, NULL); /* the faulting instruction runs again and gets the default */
  } else {
    old->sa_handler(sig);
  }
}

static void install_fault_handlers(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, &g_old_segv);
  sigaction(SIGBUS, &sa, &g_old_bus);
  sigaction(SIGFPE, &sa, &g_old_fpe);
}
