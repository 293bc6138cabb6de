/* acc2omp.c — the OpenACC 3.3 runtime library API over the standard OpenMP 5.x device API, for
 * programs that `acc cc --via=openmp` compiles through the host compiler's OpenMP (Clacc's
 * libacc2omp, on any OpenMP implementation instead of Clacc's extended LLVM one). The program
 * includes the same openacc.h as in acc's direct mode.
 *
 * acc cc compiles this file with the program's compiler and OpenMP flags and links the object
 * in (an object, not an archive member, so its constructor always runs). Macros it may define:
 *   ACC2OMP_VENDOR   the acc_device_t of the offload devices (acc_device_nvidia for
 *                    -foffload=nvptx-none / -fopenmp-targets=nvptx64, acc_device_radeon for
 *                    amdgcn/amdgpu); without it offload devices are acc_device_not_host only.
 *   ACC2OMP_HOLD     the compiler knows `ompx_hold` (the translation keeps structured
 *                    reference counts apart); said in acc_get_property_string's driver text.
 *
 * The device model. OpenACC's current device is OpenMP's default-device-var: acc_set_device_*
 * call omp_set_default_device, and the constructs acc translated (which name no device) run there.
 * The host is the initial device (acc_device_host, one device, number 0); the offload devices are
 * the OpenMP devices 0 .. omp_get_num_devices()-1 (acc_device_not_host, and ACC2OMP_VENDOR).
 * ACC_DEVICE_TYPE and ACC_DEVICE_NUM are read when the program starts; naming a type with no
 * device there is an error, as in acc's direct mode. A program that asks for a type with no
 * device through acc_set_device_type keeps the device it has (it still runs on a CPU-only
 * machine, as a GPU program compiled by acc's direct mode does).
 *
 * Where OpenMP cannot say what OpenACC says (each documented at the routine):
 *   - One reference count: OpenMP has one per mapping (two with Clang's `ompx_hold`, which the
 *     translation uses for structured regions when the compiler has it). acc_copyout and
 *     acc_delete decrement it; the _finalize forms drop the mapping whatever holds it (OpenMP's
 *     `delete`), after copying back for copyout: the same as Clacc's mapping of
 *     `exit data copyout(...) finalize` (omp target update from, then exit data map(delete)).
 *   - Asynchronous queues: the translation runs every construct synchronously (a conforming
 *     implementation of OpenACC's queues), so the _async routines complete before they return,
 *     acc_async_test* report completion and acc_wait* have nothing to wait for.
 *   - acc_hostptr: OpenMP has no reverse lookup; the library answers for memory it mapped itself
 *     (acc_copyin, acc_create, acc_map_data) and on the host, else NULL.
 *   - Attachment counts: acc_attach writes the device address of the pointer's target into the
 *     device copy of the pointer, acc_detach writes the host value back; neither is counted.
 *   - The profiling interface (acc_prof.h) is not available in this mode.
 */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "openacc.h"

#ifndef ACC2OMP_VENDOR
#define ACC2OMP_VENDOR acc_device_not_host
#endif

/* acc-default-async-var, per host thread: queue 0 at first, as in acc's runtime. */
static _Thread_local int default_async = 0;

/* Bytes acc_malloc handed out on the host, for acc_property_free_memory. */
static size_t host_allocated;

static _Noreturn void fail(const char *routine, const char *what) {
  fprintf(stderr, "acc: error: %s: %s\n", routine, what);
  exit(1);
}

static int offload_devices(void) { return omp_get_num_devices(); }

static int host_device(void) { return omp_get_initial_device(); }

static int current(void) { return omp_get_default_device(); }

static int on_host(int dev) { return dev == host_device() || dev < 0 || dev >= offload_devices(); }

/* Whether `t` names the offload devices (as opposed to the host). */
static int is_offload_type(acc_device_t t) {
  return t == acc_device_not_host || (t == ACC2OMP_VENDOR && t != acc_device_not_host);
}

/* ---- 3.2.1-3.2.12: device management ---- */

int acc_get_num_devices(acc_device_t t) {
  switch (t) {
  case acc_device_host:
    return 1;
  case acc_device_default:
    return offload_devices() > 0 ? offload_devices() : 1;
  case acc_device_current:
    return acc_get_num_devices(acc_get_device_type());
  default:
    return is_offload_type(t) ? offload_devices() : 0;
  }
}

acc_device_t acc_get_device_type(void) {
  if (on_host(current()))
    return acc_device_host;
  return ACC2OMP_VENDOR;
}

void acc_set_device_num(int dev_num, acc_device_t t) {
  if (t == acc_device_current)
    t = acc_get_device_type();
  if (t == acc_device_default)
    t = offload_devices() > 0 ? acc_device_not_host : acc_device_host;
  if (t == acc_device_host) {
    omp_set_default_device(host_device());
    return;
  }
  if (!is_offload_type(t) || offload_devices() == 0)
    return; /* no device of that type: the program keeps the device it has */
  if (dev_num < 0)
    dev_num = 0;
  if (dev_num >= offload_devices())
    fail("acc_set_device_num", "no device of that number");
  omp_set_default_device(dev_num);
}

void acc_set_device_type(acc_device_t t) { acc_set_device_num(0, t); }

int acc_get_device_num(acc_device_t t) {
  if (t == acc_device_current || t == acc_get_device_type())
    return on_host(current()) ? 0 : current();
  return 0;
}

/* The host's memory: its physical pages. */
static size_t host_memory(void) {
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
  return pages > 0 && size > 0 ? (size_t)pages * (size_t)size : 0;
}

size_t acc_get_property(int dev_num, acc_device_t t, acc_device_property_t property) {
  (void)dev_num;
  int host = t == acc_device_host || (t == acc_device_current && on_host(current()));
  switch (property) {
  case acc_property_shared_memory_support:
    return host;
  /* On the host: its memory, less what acc_malloc holds. OpenMP has no query of an offload
   * device's memory: 0 there ("not available"). */
  case acc_property_memory:
    return host ? host_memory() : 0;
  case acc_property_free_memory: {
    size_t used;
#pragma omp atomic read
    used = host_allocated;
    return host && host_memory() > used ? host_memory() - used : 0;
  }
  default:
    return 0;
  }
}

const char *acc_get_property_string(int dev_num, acc_device_t t,
                                    acc_device_property_t property) {
  (void)dev_num;
  int host = t == acc_device_host || (t == acc_device_current && on_host(current()));
  switch (property) {
  case acc_property_name:
    return host ? "host (the OpenMP initial device)" : "an OpenMP offload device";
  case acc_property_vendor:
    return "acc (OpenACC over OpenMP)";
  case acc_property_driver:
#ifdef ACC2OMP_HOLD
    return "OpenMP, with ompx_hold";
#else
    return "OpenMP";
#endif
  case acc_property_description:
    return host ? "the host, through OpenMP's initial device"
                : "an offload device of the OpenMP implementation";
  default:
    return NULL;
  }
}

void acc_init(acc_device_t t) { acc_set_device_type(t); }
void acc_init_device(int dev_num, acc_device_t t) { acc_set_device_num(dev_num, t); }
void acc_shutdown(acc_device_t t) { (void)t; }
void acc_shutdown_device(int dev_num, acc_device_t t) {
  (void)dev_num;
  (void)t;
}

/* ACC_DEVICE_TYPE and ACC_DEVICE_NUM, before main: the constructs run on OpenMP's default
 * device, which no call of the program may have set yet. */
__attribute__((constructor)) static void acc2omp_start(void) {
  const char *type = getenv("ACC_DEVICE_TYPE");
  const char *num = getenv("ACC_DEVICE_NUM");
  int n = num && *num ? atoi(num) : 0;
  if (type && *type) {
    if (!strcmp(type, "host") || !strcmp(type, "HOST")) {
      omp_set_default_device(host_device());
      return;
    }
    int known = !strcmp(type, "not_host") || !strcmp(type, "NOT_HOST") ||
                (ACC2OMP_VENDOR == acc_device_nvidia && (!strcmp(type, "nvidia") || !strcmp(type, "NVIDIA"))) ||
                (ACC2OMP_VENDOR == acc_device_radeon && (!strcmp(type, "radeon") || !strcmp(type, "RADEON")));
    if (!known || offload_devices() == 0) {
      fprintf(stderr, "acc: error: ACC_DEVICE_TYPE=%s, but OpenMP has no such device here "
                      "(%d offload devices)\n", type, offload_devices());
      exit(1);
    }
  } else if (!(num && *num && offload_devices() > 0 && !on_host(current()))) {
    return;
  }
  /* A device type with devices, or only a number: the number must name one of them. */
  if (n < 0 || n >= offload_devices()) {
    fprintf(stderr, "acc: error: ACC_DEVICE_NUM=%d, but there are %d devices\n", n,
            offload_devices());
    exit(1);
  }
  omp_set_default_device(n);
}

/* ---- 3.2.13-3.2.19: asynchronous queues (all work is synchronous: see the top) ---- */

int acc_async_test(int wait_arg) { (void)wait_arg; return 1; }
int acc_async_test_device(int wait_arg, int dev_num) { (void)wait_arg; (void)dev_num; return 1; }
int acc_async_test_all(void) { return 1; }
int acc_async_test_all_device(int dev_num) { (void)dev_num; return 1; }
void acc_wait(int wait_arg) { (void)wait_arg; }
void acc_wait_device(int wait_arg, int dev_num) { (void)wait_arg; (void)dev_num; }
void acc_wait_async(int wait_arg, int async_arg) { (void)wait_arg; (void)async_arg; }
void acc_wait_device_async(int wait_arg, int async_arg, int dev_num) {
  (void)wait_arg;
  (void)async_arg;
  (void)dev_num;
}
void acc_wait_all(void) {}
void acc_wait_all_device(int dev_num) { (void)dev_num; }
void acc_wait_all_async(int async_arg) { (void)async_arg; }
void acc_wait_all_device_async(int async_arg, int dev_num) { (void)async_arg; (void)dev_num; }
int acc_wait_any(int count, int wait_arg[]) {
  for (int i = 0; i < count; i++)
    if (wait_arg[i] != acc_async_sync)
      return i;
  return -1;
}
int acc_wait_any_device(int count, int wait_arg[], int dev_num) {
  (void)dev_num;
  return acc_wait_any(count, wait_arg);
}
int acc_get_default_async(void) { return default_async; }
void acc_set_default_async(int async_arg) {
  if (async_arg == acc_async_noval)
    async_arg = 0;
  if (async_arg < 0) {
    fprintf(stderr, "acc: error: acc_set_default_async: %d is not an async value: use a queue "
                    "number >= 0, acc_async_noval or acc_async_sync\n", async_arg);
    exit(1);
  }
  default_async = async_arg;
}
void *acc_get_cuda_stream(int async_arg) { (void)async_arg; return NULL; }
int acc_set_cuda_stream(int async_arg, void *stream) { (void)async_arg; (void)stream; return 0; }
void acc_async_wait(int wait_arg) { acc_wait(wait_arg); }
void acc_async_wait_all(void) { acc_wait_all(); }

/* ---- 3.2.20: acc_on_device (also compiled for the offload devices) ---- */

#pragma omp declare target
int acc_on_device(acc_device_t t) {
  if (omp_is_initial_device())
    return t == acc_device_host;
  return t == acc_device_not_host || t == ACC2OMP_VENDOR;
}
#pragma omp end declare target

/* ---- 3.2.21-3.2.36: data ---- */

/* What this library mapped itself, for acc_hostptr (OpenMP has no reverse lookup). */
struct known {
  char *host, *dev;
  size_t bytes;
  int device;
};
static struct known *known_maps;
static size_t known_len, known_cap;

static void remember(void *host, void *dev, size_t bytes, int device) {
  if (!dev)
    return;
#pragma omp critical(acc2omp_known)
  {
    size_t i;
    for (i = 0; i < known_len; i++)
      if (known_maps[i].host == (char *)host && known_maps[i].device == device)
        break;
    if (i == known_len) {
      if (known_len == known_cap) {
        size_t cap = known_cap ? 2 * known_cap : 16;
        struct known *grown = realloc(known_maps, cap * sizeof *grown);
        if (grown) {
          known_maps = grown;
          known_cap = cap;
        }
      }
      if (known_len < known_cap)
        known_len++;
      else
        i = (size_t)-1;
    }
    if (i != (size_t)-1)
      known_maps[i] = (struct known){(char *)host, (char *)dev, bytes, device};
  }
}

static void forget_if_unmapped(void *host, int device) {
  if (omp_target_is_present(host, device))
    return;
#pragma omp critical(acc2omp_known)
  for (size_t i = 0; i < known_len; i++)
    if (known_maps[i].host == (char *)host && known_maps[i].device == device)
      known_maps[i] = known_maps[--known_len];
}

/* On the host, acc_malloc's blocks carry their size ahead of the address returned, for the
 * free-memory count. */
#define HOST_HEADER 16

d_void *acc_malloc(size_t bytes) {
  if (bytes == 0)
    return NULL;
  if (!on_host(current()))
    return omp_target_alloc(bytes, current());
  char *block = malloc(bytes + HOST_HEADER);
  if (!block)
    return NULL;
  memcpy(block, &bytes, sizeof bytes);
#pragma omp atomic update
  host_allocated += bytes;
  return block + HOST_HEADER;
}

void acc_free(d_void *data_dev) {
  if (!data_dev)
    return;
  if (!on_host(current())) {
    omp_target_free(data_dev, current());
    return;
  }
  char *block = (char *)data_dev - HOST_HEADER;
  size_t bytes;
  memcpy(&bytes, block, sizeof bytes);
#pragma omp atomic update
  host_allocated -= bytes;
  free(block);
}

int acc_is_present(h_void *data_arg, size_t bytes) {
  int dev = current();
  if (!data_arg)
    return 0;
  if (on_host(dev))
    return 1;
  const char *c = data_arg;
  return omp_target_is_present(c, dev) && (bytes == 0 || omp_target_is_present(c + bytes - 1, dev));
}

d_void *acc_deviceptr(h_void *data_arg) {
  int dev = current();
  if (!data_arg)
    return NULL;
  if (on_host(dev))
    return data_arg;
  if (!omp_target_is_present(data_arg, dev))
    return NULL;
  char *c = data_arg;
  void *found = NULL;
  /* The device address of a mapped host address: use_device_ptr translates it. */
#pragma omp target data use_device_ptr(c) device(dev)
  found = c;
  return found;
}

h_void *acc_hostptr(d_void *data_dev) {
  int dev = current();
  if (!data_dev || on_host(dev))
    return data_dev;
  h_void *found = NULL;
#pragma omp critical(acc2omp_known)
  for (size_t i = 0; i < known_len && !found; i++) {
    struct known *k = &known_maps[i];
    if (k->device == dev && (char *)data_dev >= k->dev && (char *)data_dev < k->dev + k->bytes)
      found = k->host + ((char *)data_dev - k->dev);
  }
  return found;
}

d_void *acc_copyin(h_void *data_arg, size_t bytes) {
  int dev = current();
  if (!data_arg || bytes == 0)
    return NULL;
  if (on_host(dev))
    return data_arg;
  char *c = data_arg;
  (void)c; /* used only by the directive: GCC without offloading says unused */
#pragma omp target enter data map(to : c[0 : bytes]) device(dev)
  void *d = acc_deviceptr(data_arg);
  remember(data_arg, d, bytes, dev);
  return d;
}

d_void *acc_create(h_void *data_arg, size_t bytes) {
  int dev = current();
  if (!data_arg || bytes == 0)
    return NULL;
  if (on_host(dev))
    return data_arg;
  char *c = data_arg;
  (void)c; /* used only by the directive: GCC without offloading says unused */
#pragma omp target enter data map(alloc : c[0 : bytes]) device(dev)
  void *d = acc_deviceptr(data_arg);
  remember(data_arg, d, bytes, dev);
  return d;
}

void acc_copyin_async(h_void *data_arg, size_t bytes, int async_arg) {
  (void)async_arg;
  acc_copyin(data_arg, bytes);
}
void acc_create_async(h_void *data_arg, size_t bytes, int async_arg) {
  (void)async_arg;
  acc_create(data_arg, bytes);
}
d_void *acc_present_or_copyin(h_void *data_arg, size_t bytes) { return acc_copyin(data_arg, bytes); }
d_void *acc_pcopyin(h_void *data_arg, size_t bytes) { return acc_copyin(data_arg, bytes); }
d_void *acc_present_or_create(h_void *data_arg, size_t bytes) { return acc_create(data_arg, bytes); }
d_void *acc_pcreate(h_void *data_arg, size_t bytes) { return acc_create(data_arg, bytes); }

void acc_copyout(h_void *data_arg, size_t bytes) {
  int dev = current();
  if (!data_arg || bytes == 0 || on_host(dev))
    return;
  char *c = data_arg;
  (void)c; /* used only by the directive */
#pragma omp target exit data map(from : c[0 : bytes]) device(dev)
  forget_if_unmapped(data_arg, dev);
}

void acc_copyout_finalize(h_void *data_arg, size_t bytes) {
  int dev = current();
  if (!data_arg || bytes == 0 || on_host(dev) || !acc_is_present(data_arg, bytes))
    return;
  char *c = data_arg;
  (void)c; /* used only by the directive */
#pragma omp target update from(c[0 : bytes]) device(dev)
#pragma omp target exit data map(delete : c[0 : bytes]) device(dev)
  forget_if_unmapped(data_arg, dev);
}

void acc_delete(h_void *data_arg, size_t bytes) {
  int dev = current();
  if (!data_arg || bytes == 0 || on_host(dev))
    return;
  char *c = data_arg;
  (void)c; /* used only by the directive */
#pragma omp target exit data map(release : c[0 : bytes]) device(dev)
  forget_if_unmapped(data_arg, dev);
}

void acc_delete_finalize(h_void *data_arg, size_t bytes) {
  int dev = current();
  if (!data_arg || bytes == 0 || on_host(dev))
    return;
  char *c = data_arg;
  (void)c; /* used only by the directive */
#pragma omp target exit data map(delete : c[0 : bytes]) device(dev)
  forget_if_unmapped(data_arg, dev);
}

void acc_copyout_async(h_void *data_arg, size_t bytes, int async_arg) {
  (void)async_arg;
  acc_copyout(data_arg, bytes);
}
void acc_copyout_finalize_async(h_void *data_arg, size_t bytes, int async_arg) {
  (void)async_arg;
  acc_copyout_finalize(data_arg, bytes);
}
void acc_delete_async(h_void *data_arg, size_t bytes, int async_arg) {
  (void)async_arg;
  acc_delete(data_arg, bytes);
}
void acc_delete_finalize_async(h_void *data_arg, size_t bytes, int async_arg) {
  (void)async_arg;
  acc_delete_finalize(data_arg, bytes);
}

/* OpenACC makes an update of data that is not present an error; OpenMP ignores it. */
static int present_for_update(const char *routine, h_void *data_arg, size_t bytes) {
  if (!data_arg || bytes == 0 || on_host(current()))
    return 0;
  if (!acc_is_present(data_arg, bytes)) {
    fprintf(stderr, "acc: error: %s: %zu bytes at %p are not present on the device\n", routine,
            bytes, data_arg);
    exit(1);
  }
  return 1;
}

void acc_update_device(h_void *data_arg, size_t bytes) {
  int dev = current();
  if (!present_for_update("acc_update_device", data_arg, bytes))
    return;
  char *c = data_arg;
  (void)c; /* used only by the directive */
#pragma omp target update to(c[0 : bytes]) device(dev)
}

void acc_update_self(h_void *data_arg, size_t bytes) {
  int dev = current();
  if (!present_for_update("acc_update_self", data_arg, bytes))
    return;
  char *c = data_arg;
  (void)c; /* used only by the directive */
#pragma omp target update from(c[0 : bytes]) device(dev)
}

void acc_update_device_async(h_void *data_arg, size_t bytes, int async_arg) {
  (void)async_arg;
  acc_update_device(data_arg, bytes);
}
void acc_update_self_async(h_void *data_arg, size_t bytes, int async_arg) {
  (void)async_arg;
  acc_update_self(data_arg, bytes);
}

void acc_map_data(h_void *data_arg, d_void *data_dev, size_t bytes) {
  int dev = current();
  if (!data_arg || !data_dev || bytes == 0 || on_host(dev))
    return;
  if (acc_is_present(data_arg, 1))
    fail("acc_map_data", "the host memory is already present on the device");
  if (omp_target_associate_ptr(data_arg, data_dev, bytes, 0, dev) != 0)
    fail("acc_map_data", "OpenMP refused to associate the two addresses");
  remember(data_arg, data_dev, bytes, dev);
}

void acc_unmap_data(h_void *data_arg) {
  int dev = current();
  if (!data_arg || on_host(dev))
    return;
  if (omp_target_disassociate_ptr(data_arg, dev) != 0)
    fail("acc_unmap_data", "the host memory was not mapped with acc_map_data");
  forget_if_unmapped(data_arg, dev);
}

static int memcpy_device(const char *routine, void *dst, const void *src, size_t bytes,
                         int dst_dev, int src_dev) {
  if (bytes == 0)
    return 0;
  if (!dst || !src)
    fail(routine, "a null address");
  return omp_target_memcpy(dst, src, bytes, 0, 0, dst_dev, src_dev);
}

static int device_or_host(int dev) { return on_host(dev) ? host_device() : dev; }

void acc_memcpy_to_device(d_void *dst, h_void *src, size_t bytes) {
  memcpy_device("acc_memcpy_to_device", dst, src, bytes, device_or_host(current()), host_device());
}
void acc_memcpy_from_device(h_void *dst, d_void *src, size_t bytes) {
  memcpy_device("acc_memcpy_from_device", dst, src, bytes, host_device(), device_or_host(current()));
}
void acc_memcpy_device(d_void *dst, d_void *src, size_t bytes) {
  int dev = device_or_host(current());
  memcpy_device("acc_memcpy_device", dst, src, bytes, dev, dev);
}
void acc_memcpy_to_device_async(d_void *dst, h_void *src, size_t bytes, int async_arg) {
  (void)async_arg;
  acc_memcpy_to_device(dst, src, bytes);
}
void acc_memcpy_from_device_async(h_void *dst, d_void *src, size_t bytes, int async_arg) {
  (void)async_arg;
  acc_memcpy_from_device(dst, src, bytes);
}
void acc_memcpy_device_async(d_void *dst, d_void *src, size_t bytes, int async_arg) {
  (void)async_arg;
  acc_memcpy_device(dst, src, bytes);
}

/* Device numbers of the current device type; the data are host addresses present on each. */
void acc_memcpy_d2d(h_void *dst, h_void *src, size_t bytes, int dev_dst, int dev_src) {
  if (bytes == 0)
    return;
  int saved = current();
  int host = on_host(saved);
  int to = host ? host_device() : dev_dst, from = host ? host_device() : dev_src;
  if (!host) {
    omp_set_default_device(to);
    void *d = acc_deviceptr(dst);
    omp_set_default_device(from);
    void *s = acc_deviceptr(src);
    omp_set_default_device(saved);
    if (!d || !s)
      fail("acc_memcpy_d2d", "the data are not present on both devices");
    dst = d;
    src = s;
  }
  memcpy_device("acc_memcpy_d2d", dst, src, bytes, to, from);
}
void acc_memcpy_d2d_async(h_void *dst, h_void *src, size_t bytes, int dev_dst, int dev_src,
                          int async_arg) {
  (void)async_arg;
  acc_memcpy_d2d(dst, src, bytes, dev_dst, dev_src);
}

void acc_attach(h_void **ptr_addr) {
  int dev = current();
  if (!ptr_addr || on_host(dev))
    return;
  void *pointer_on_device = acc_deviceptr(ptr_addr);
  void *target_on_device = acc_deviceptr(*ptr_addr);
  if (!pointer_on_device || !target_on_device)
    return;
  omp_target_memcpy(pointer_on_device, &target_on_device, sizeof(void *), 0, 0, dev, host_device());
}

void acc_detach(h_void **ptr_addr) {
  int dev = current();
  if (!ptr_addr || on_host(dev))
    return;
  void *pointer_on_device = acc_deviceptr(ptr_addr);
  if (pointer_on_device)
    omp_target_memcpy(pointer_on_device, ptr_addr, sizeof(void *), 0, 0, dev, host_device());
}

void acc_attach_async(h_void **ptr_addr, int async_arg) {
  (void)async_arg;
  acc_attach(ptr_addr);
}
void acc_detach_async(h_void **ptr_addr, int async_arg) {
  (void)async_arg;
  acc_detach(ptr_addr);
}
void acc_detach_finalize(h_void **ptr_addr) { acc_detach(ptr_addr); }
void acc_detach_finalize_async(h_void **ptr_addr, int async_arg) {
  (void)async_arg;
  acc_detach(ptr_addr);
}
