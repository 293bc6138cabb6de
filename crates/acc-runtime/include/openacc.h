/* openacc.h — the OpenACC 3.3 runtime library API of the acc runtime (libacc_runtime).
 *
 * Include this header and link libacc_runtime.a (with -lpthread -ldl -lm) or
 * libacc_runtime.so. `_OPENACC` is defined by the compiler (`acc cc` defines it as 202211,
 * OpenACC 3.3), not by this header; a program may include the header either way.
 *
 * Devices: acc_device_host (shared memory, multicore), acc_device_host_discrete (separate
 * memory on the CPU: every transfer really happens and new device memory is poisoned, so
 * missing data clauses show up without a GPU) and acc_device_nvidia (one per NVIDIA GPU, through
 * the CUDA driver, which is loaded at run time: the library links no CUDA library). Without
 * ACC_DEVICE_TYPE the default device is nvidia when a GPU is usable, else host; why there is no
 * GPU is acc_get_property_string(0, acc_device_nvidia, acc_property_description), and
 * ACC_VERBOSE=1 prints it on stderr. Select a device with
 * ACC_DEVICE_TYPE=host|host_discrete|nvidia and ACC_DEVICE_NUM=n (ACC_DEVICE_TYPE=nvidia without
 * a usable GPU is an error that says why); ACC_HOST_DISCRETE_DEVICES=n sets how many
 * host_discrete devices exist (default 1) and ACC_HOST_DISCRETE_MEMORY=bytes[K|M|G] their
 * memory. acc_device_not_host is nvidia when there is a GPU, else host_discrete.
 *
 * On nvidia, kernels are the CUDA versions acc cc generates, compiled by NVRTC (libnvrtc, also
 * loaded at run time) on first launch and cached in $ACC_CACHE_DIR/jit, $XDG_CACHE_HOME/acc/jit
 * or ~/.cache/acc/jit; ACC_NVRTC_OPTIONS adds NVRTC options. Each async queue is a CUDA stream
 * (acc_get_cuda_stream / acc_set_cuda_stream).
 *
 * Errors (data not present, partial overlaps, double unmap, freeing mapped memory, running out
 * of device memory, ...) print "acc: error: ..." on stderr and exit with status 1.
 */
#ifndef ACC_OPENACC_H
#define ACC_OPENACC_H
/* GCC's openacc.h's guard: where the host compiler's own include directory holds that header
 * and comes first, the program's later `#include <openacc.h>` finds it, and must not declare
 * the API again (acc cc's generated code has included this one first, through acc_rt.h). */
#ifndef _OPENACC_H
#define _OPENACC_H 1
#endif

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum acc_device_t {
  acc_device_current = -1, /* the current device (OpenACC 3.0) */
  acc_device_none = 0,
  acc_device_default = 1,
  acc_device_host = 2,
  acc_device_not_host = 4,
  acc_device_nvidia = 5,
  acc_device_radeon = 8,
  acc_device_host_discrete = 64 /* acc extension: discrete memory on the CPU */
} acc_device_t;

typedef enum acc_device_property_t {
  acc_property_memory = 1,
  acc_property_free_memory = 2,
  acc_property_shared_memory_support = 3,
  acc_property_name = 0x10001,
  acc_property_vendor = 0x10002,
  acc_property_driver = 0x10003,
  /* acc extension: a sentence about the device; for acc_device_nvidia in a process without a
   * usable GPU, why there is none ("no nvidia device: libcuda.so not found ..."). */
  acc_property_description = 0x10004
} acc_device_property_t;

/* acc_async_default names the default async queue (the initial value of acc-default-async-var,
 * queue 0 here): `set default_async(acc_async_default)` restores it, and as an async argument it
 * means what `async` without an argument means, as acc_async_noval does. */
enum { acc_async_noval = -1, acc_async_sync = -2, acc_async_default = acc_async_noval };

/* Host and device addresses, as the specification writes them. */
typedef void h_void;
typedef void d_void;

/* 3.2.1-3.2.12: device management */
int acc_get_num_devices(acc_device_t dev_type);
void acc_set_device_type(acc_device_t dev_type);
acc_device_t acc_get_device_type(void);
void acc_set_device_num(int dev_num, acc_device_t dev_type);
int acc_get_device_num(acc_device_t dev_type);
size_t acc_get_property(int dev_num, acc_device_t dev_type, acc_device_property_t property);
const char *acc_get_property_string(int dev_num, acc_device_t dev_type,
                                    acc_device_property_t property);
void acc_init(acc_device_t dev_type);
void acc_init_device(int dev_num, acc_device_t dev_type);
void acc_shutdown(acc_device_t dev_type);
void acc_shutdown_device(int dev_num, acc_device_t dev_type);

/* 3.2.13-3.2.19: asynchronous queues */
int acc_async_test(int wait_arg);
int acc_async_test_device(int wait_arg, int dev_num);
int acc_async_test_all(void);
int acc_async_test_all_device(int dev_num);
void acc_wait(int wait_arg);
void acc_wait_device(int wait_arg, int dev_num);
void acc_wait_async(int wait_arg, int async_arg);
void acc_wait_device_async(int wait_arg, int async_arg, int dev_num);
void acc_wait_all(void);
void acc_wait_all_device(int dev_num);
void acc_wait_all_async(int async_arg);
void acc_wait_all_device_async(int async_arg, int dev_num);
int acc_wait_any(int count, int wait_arg[]);
int acc_wait_any_device(int count, int wait_arg[], int dev_num);
int acc_get_default_async(void);
void acc_set_default_async(int async_arg);
/* CUDA interoperability: the CUDA stream (CUstream / cudaStream_t) of an async queue of the
 * current device, NULL when it is not an nvidia device; acc_set_cuda_stream makes a queue use
 * the program's stream (of the device's primary context) and returns 1, or 0 when it cannot. */
void *acc_get_cuda_stream(int async_arg);
int acc_set_cuda_stream(int async_arg, void *stream);
/* OpenACC 1.0 names */
void acc_async_wait(int wait_arg);
void acc_async_wait_all(void);

/* 3.2.20: acc_on_device; true inside kernels running on the named device */
int acc_on_device(acc_device_t dev_type);

/* 3.2.21-3.2.36: data */
d_void *acc_malloc(size_t bytes);
void acc_free(d_void *data_dev);

d_void *acc_copyin(h_void *data_arg, size_t bytes);
void acc_copyin_async(h_void *data_arg, size_t bytes, int async_arg);
d_void *acc_create(h_void *data_arg, size_t bytes);
void acc_create_async(h_void *data_arg, size_t bytes, int async_arg);
void acc_copyout(h_void *data_arg, size_t bytes);
void acc_copyout_async(h_void *data_arg, size_t bytes, int async_arg);
void acc_copyout_finalize(h_void *data_arg, size_t bytes);
void acc_copyout_finalize_async(h_void *data_arg, size_t bytes, int async_arg);
void acc_delete(h_void *data_arg, size_t bytes);
void acc_delete_async(h_void *data_arg, size_t bytes, int async_arg);
void acc_delete_finalize(h_void *data_arg, size_t bytes);
void acc_delete_finalize_async(h_void *data_arg, size_t bytes, int async_arg);

/* Deprecated names (OpenACC 2.x): the same as acc_copyin and acc_create. */
d_void *acc_present_or_copyin(h_void *data_arg, size_t bytes);
d_void *acc_pcopyin(h_void *data_arg, size_t bytes);
d_void *acc_present_or_create(h_void *data_arg, size_t bytes);
d_void *acc_pcreate(h_void *data_arg, size_t bytes);

void acc_update_device(h_void *data_arg, size_t bytes);
void acc_update_device_async(h_void *data_arg, size_t bytes, int async_arg);
void acc_update_self(h_void *data_arg, size_t bytes);
void acc_update_self_async(h_void *data_arg, size_t bytes, int async_arg);

void acc_map_data(h_void *data_arg, d_void *data_dev, size_t bytes);
void acc_unmap_data(h_void *data_arg);
d_void *acc_deviceptr(h_void *data_arg);
h_void *acc_hostptr(d_void *data_dev);
int acc_is_present(h_void *data_arg, size_t bytes);

void acc_memcpy_to_device(d_void *data_dev_dest, h_void *data_host_src, size_t bytes);
void acc_memcpy_to_device_async(d_void *data_dev_dest, h_void *data_host_src, size_t bytes,
                                int async_arg);
void acc_memcpy_from_device(h_void *data_host_dest, d_void *data_dev_src, size_t bytes);
void acc_memcpy_from_device_async(h_void *data_host_dest, d_void *data_dev_src, size_t bytes,
                                  int async_arg);
void acc_memcpy_device(d_void *data_dev_dest, d_void *data_dev_src, size_t bytes);
void acc_memcpy_device_async(d_void *data_dev_dest, d_void *data_dev_src, size_t bytes,
                             int async_arg);
void acc_memcpy_d2d(h_void *data_arg_dest, h_void *data_arg_src, size_t bytes,
                    int dev_num_dest, int dev_num_src);
void acc_memcpy_d2d_async(h_void *data_arg_dest, h_void *data_arg_src, size_t bytes,
                          int dev_num_dest, int dev_num_src, int async_arg_src);

void acc_attach(h_void **ptr_addr);
void acc_attach_async(h_void **ptr_addr, int async_arg);
void acc_detach(h_void **ptr_addr);
void acc_detach_async(h_void **ptr_addr, int async_arg);
void acc_detach_finalize(h_void **ptr_addr);
void acc_detach_finalize_async(h_void **ptr_addr, int async_arg);

#ifdef __cplusplus
}
#endif

#endif /* ACC_OPENACC_H */
