/* acc_prof.h — the OpenACC 3.3 Profiling Interface (chapter 5) of the acc runtime.
 *
 * A profiling library registers callbacks for events; the runtime calls them with where the
 * event comes from (acc_prof_info), what it is about (acc_event_info) and, on a GPU, the
 * device API's handles (acc_api_info). A library is found two ways:
 *  - linked into the program: a function `acc_register_library` defined in it (acc cc's
 *    generated code finds it through a weak reference and the runtime calls it once);
 *  - ACC_PROFLIB: one or more shared libraries, separated by `;`, opened at runtime start in
 *    that order, each of which must define `acc_register_library`.
 * The program may also call acc_prof_register and acc_prof_unregister itself, at any time.
 *
 * Several callbacks may be registered for one event: start events (and those without a pair)
 * call them in the order registered, end events in the reverse order, so nested tools see
 * properly nested events (OpenACC 3.3, section 5.4.1 "Multiple Callbacks").
 *
 * Struct sizes and field order are the specification's; every struct carries `valid_bytes`,
 * the bytes up to and including its last field this runtime fills in.
 */
#ifndef ACC_ACC_PROF_H
#define ACC_ACC_PROF_H
#ifndef _ACC_PROF_H
#define _ACC_PROF_H 1
#endif

#include "openacc.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum acc_event_t {
  acc_ev_none = 0,
  acc_ev_device_init_start = 1,
  acc_ev_device_init_end = 2,
  acc_ev_device_shutdown_start = 3,
  acc_ev_device_shutdown_end = 4,
  acc_ev_runtime_shutdown = 5,
  acc_ev_create = 6,
  acc_ev_delete = 7,
  acc_ev_alloc = 8,
  acc_ev_free = 9,
  acc_ev_enter_data_start = 10,
  acc_ev_enter_data_end = 11,
  acc_ev_exit_data_start = 12,
  acc_ev_exit_data_end = 13,
  acc_ev_update_start = 14,
  acc_ev_update_end = 15,
  acc_ev_compute_construct_start = 16,
  acc_ev_compute_construct_end = 17,
  acc_ev_enqueue_launch_start = 18,
  acc_ev_enqueue_launch_end = 19,
  acc_ev_enqueue_upload_start = 20,
  acc_ev_enqueue_upload_end = 21,
  acc_ev_enqueue_download_start = 22,
  acc_ev_enqueue_download_end = 23,
  acc_ev_wait_start = 24,
  acc_ev_wait_end = 25,
  acc_ev_last = 26
} acc_event_t;

/* Where and on what an event happens: the same for every event kind. `version` is the
 * _OPENACC value of the specification implemented (202211, OpenACC 3.3). */
typedef struct acc_prof_info {
  acc_event_t event_type;
  int valid_bytes;
  int version;
  acc_device_t device_type;
  int device_number;
  int thread_id;
  long async;
  long async_queue;
  const char *src_file;
  const char *func_name;
  int line_no, end_line_no;
  int func_line_no, func_end_line_no;
} acc_prof_info;

typedef enum acc_construct_t {
  acc_construct_parallel = 0,
  acc_construct_kernels = 1,
  acc_construct_loop = 2,
  acc_construct_data = 3,
  acc_construct_enter_data = 4,
  acc_construct_exit_data = 5,
  acc_construct_host_data = 6,
  acc_construct_atomic = 7,
  acc_construct_declare = 8,
  acc_construct_init = 9,
  acc_construct_shutdown = 10,
  acc_construct_set = 11,
  acc_construct_update = 12,
  acc_construct_routine = 13,
  acc_construct_wait = 14,
  acc_construct_runtime_api = 15,
  acc_construct_serial = 16
} acc_construct_t;

/* create, delete, alloc, free, enter/exit data, update, upload and download events. */
typedef struct acc_data_event_info {
  acc_event_t event_type;
  int valid_bytes;
  acc_construct_t parent_construct;
  int implicit;
  void *tool_info;
  const char *var_name;
  size_t bytes;
  const void *host_ptr;
  const void *device_ptr;
} acc_data_event_info;

/* compute construct and launch events. */
typedef struct acc_launch_event_info {
  acc_event_t event_type;
  int valid_bytes;
  acc_construct_t parent_construct;
  int implicit;
  void *tool_info;
  const char *kernel_name;
  size_t num_gangs, num_workers, vector_length;
} acc_launch_event_info;

/* every other event. */
typedef struct acc_other_event_info {
  acc_event_t event_type;
  int valid_bytes;
  acc_construct_t parent_construct;
  int implicit;
  void *tool_info;
} acc_other_event_info;

typedef union acc_event_info {
  acc_event_t event_type;
  acc_data_event_info data_event;
  acc_launch_event_info launch_event;
  acc_other_event_info other_event;
} acc_event_info;

typedef enum acc_device_api {
  acc_device_api_none = 0,
  acc_device_api_cuda = 1,
  acc_device_api_opencl = 2,
  acc_device_api_coi = 3,
  acc_device_api_other = 4
} acc_device_api;

/* The device API under the event: on nvidia the CUDA device, context and stream. */
typedef struct acc_api_info {
  acc_device_api device_api;
  int valid_bytes;
  acc_device_t device_type;
  int vendor;
  const void *device_handle;
  const void *context_handle;
  const void *async_handle;
} acc_api_info;

typedef void (*acc_prof_callback)(acc_prof_info *, acc_event_info *, acc_api_info *);

/* acc_reg adds a callback; acc_toggle turns a registered callback (or, with a null callback,
 * every callback of the event; with acc_ev_none, of every event) off (unregister) or back on
 * (register) for all threads, acc_toggle_per_thread for the calling thread only. */
typedef enum acc_register_t { acc_reg = 0, acc_toggle = 1, acc_toggle_per_thread = 2 } acc_register_t;

typedef void (*acc_prof_reg)(acc_event_t, acc_prof_callback, acc_register_t);
void acc_prof_register(acc_event_t event, acc_prof_callback cb, acc_register_t info);
void acc_prof_unregister(acc_event_t event, acc_prof_callback cb, acc_register_t info);

typedef void (*acc_query_fn)(void);
typedef acc_query_fn (*acc_prof_lookup_func)(const char *);
/* The runtime's routine of that name among "acc_prof_register", "acc_prof_unregister" and
 * "acc_prof_lookup", or NULL: this runtime defines no inquiry functions beyond them. */
acc_query_fn acc_prof_lookup(const char *name);

/* Defined by a profiling library, called by the runtime. */
void acc_register_library(acc_prof_reg reg, acc_prof_reg unreg, acc_prof_lookup_func lookup);

#ifdef __cplusplus
}
#endif
#endif
