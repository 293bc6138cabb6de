/* acc_rt.h — the entry points compiler-generated code calls (acc runtime, libacc_runtime).
 *
 * The C front end's outlined code and the Rust macros call only these; a program written by
 * hand uses openacc.h instead. Every call names its source location, and every data item its
 * source text ("a[0:n]"), so that errors read
 *   acc: error: kernels.c:12: 'a[0:100]' (800 bytes at 0x...) is not present on device host-discrete 0
 * Errors print such a line on stderr and exit with status 1 (after calling the handler set with
 * acc_rt_set_error_handler, if any).
 *
 * Async arguments are as in OpenACC: a queue number >= 0, acc_async_noval (-1, the default
 * queue) or acc_async_sync (-2, run before returning).
 *
 * A compute construct lowers to
 *     acc_rt_region_begin(file, line, data, n, async);   // its data clauses, implicit ones too
 *     acc_rt_launch(&kernel, &config, args, nargs, reds, nreds);
 *     acc_rt_region_end(file, line, data, n, async);     // the same array
 * (acc cc emits the equivalent "compact forms" at the end of this file, which cost the host
 * compiler less: acc_rt_region_begin_v, acc_rt_launch_v, acc_rt_region_end_v)
 * a data construct to region_begin/region_end around its body, `enter data`/`exit data` to
 * acc_rt_enter_data/acc_rt_exit_data, `update` to acc_rt_update and `wait` to acc_rt_wait. An
 * `if` clause that is false skips the calls (the host version of the region runs instead).
 */
#ifndef ACC_RT_H
#define ACC_RT_H

/* <stddef.h> only: the program's own text comes after this header, and may declare names
 * <stdint.h> would (`typedef unsigned long long uint64_t;` in a file that never includes it). */
#include <stddef.h>
/* By quotes, from this header's own directory: a compiler whose own include directory comes
 * before acc's (a GCC whose specs or wrapper add it first, as one GPU machine's did) would
 * otherwise give the program GCC's openacc.h, which lacks OpenACC 3.3's names. */
#include "openacc.h"
#include "acc_prof.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- data clauses -------------------------------------------------------------------------
 * One descriptor per list item. `host` is the item's host start address and `bytes` its size
 * (a subarray: &a[lo], len * sizeof a[0]); for ATTACH/DETACH `host` is the address of the
 * pointer variable. Structured calls (region_begin/end) change the structured reference count,
 * enter/exit data the dynamic one; data is freed when both are zero (OpenACC 2.5+). A range
 * inside a present range is present; a range that partly overlaps one is an error.
 */
enum acc_rt_action {
  ACC_RT_COPY = 1,          /* copy: in on entry, out on the last exit */
  ACC_RT_COPYIN = 2,        /* copyin (enter data: copyin) */
  ACC_RT_COPYOUT = 3,       /* copyout (exit data: copyout) */
  ACC_RT_CREATE = 4,        /* create (enter data: create) */
  ACC_RT_NO_CREATE = 5,     /* no_create: counted if present, else nothing */
  ACC_RT_PRESENT = 6,       /* present: error if not present */
  ACC_RT_DEVICEPTR = 7,     /* deviceptr: nothing to do */
  ACC_RT_ATTACH = 8,        /* attach: on exit of a region it detaches */
  ACC_RT_DETACH = 9,        /* detach (exit data) */
  ACC_RT_DELETE = 10,       /* delete (exit data) */
  ACC_RT_UPDATE_SELF = 11,  /* update self/host */
  ACC_RT_UPDATE_DEVICE = 12 /* update device */
};

enum acc_rt_flag {
  ACC_RT_ZERO = 1,       /* create/copyout(zero: ...): new device memory is zero-filled */
  ACC_RT_ALWAYS_IN = 2,  /* copy/copyin(always/alwaysin: ...): copy in even if present */
  ACC_RT_ALWAYS_OUT = 4, /* copy/copyout(always/alwaysout: ...): copy out on every exit */
  ACC_RT_ALWAYS = 6,
  ACC_RT_FINALIZE = 8,   /* exit data finalize: the dynamic count drops to zero */
  ACC_RT_IF_PRESENT = 16, /* update if_present: skip data that is not present; attach/detach:
                             do nothing when the pointer itself is not present (an implicit
                             attach of a member pointer whose struct is not mapped) */
  ACC_RT_ROWS = 32,       /* a jagged array section `a[lo:n][k:m]` (a points to pointers): this
                             item is the row pointers, and the next item gives each row's
                             bytes, and as its host address where each row's section starts
                             past the row pointer (k's bytes); the runtime maps each row's
                             section too and attaches the device's row pointers to the device's
                             rows (updates: the rows' sections) */
  ACC_RT_IMPLICIT = 64,   /* an implicit data attribute's item (profiling events say so) */
  ACC_RT_POINTER_TARGET = 128, /* present(p) of a bare pointer: when p itself is not present but
                                  its target is, p gets a device copy attached to the target for
                                  the construct (nvc's reading; the strict one can only fail) */
  ACC_RT_MEMBER_TARGET = 256, /* with POINTER_TARGET, present(s.x) of a struct's pointer member:
                                 when the member is not present but its target is, nothing is
                                 mapped (the struct's own copy, implicit or not, gets the member
                                 attached), and the exit finds nothing to release */
  ACC_RT_SECTION_OFFSET = 512 /* an ATTACH made by a section of the pointer (`s.x[10:20]`):
                                 `bytes` is where the section starts past the pointer's target,
                                 and the device pointer is the section's device address less
                                 that (the pointer's own target need not be present) */
};

typedef struct acc_rt_data {
  unsigned int action;  /* enum acc_rt_action */
  unsigned int flags;   /* enum acc_rt_flag bits */
  void *host;
  size_t bytes;
  const char *text; /* the item's source text, "a[0:n]" */
} acc_rt_data;

void acc_rt_region_begin(const char *file, int line, const acc_rt_data *data, size_t n,
                         int async);
void acc_rt_region_end(const char *file, int line, const acc_rt_data *data, size_t n,
                       int async); /* processes the items in reverse order */
void acc_rt_enter_data(const char *file, int line, const acc_rt_data *data, size_t n,
                       int async);
void acc_rt_exit_data(const char *file, int line, const acc_rt_data *data, size_t n,
                      int async);
void acc_rt_update(const char *file, int line, const acc_rt_data *data, size_t n, int async);

/* wait(q...) [async(a)]: n == 0 waits for all queues; async == acc_async_sync blocks, another
 * value makes queue `async` wait instead (wait_async). */
void acc_rt_wait(const char *file, int line, const int *queues, size_t n, int async);

/* host_data use_device(p): the device address of present data; with if_present != 0 the host
 * address when it is not present, otherwise an error. */
void *acc_rt_use_device(const char *file, int line, void *host, const char *text,
                        int if_present);

/* ---- kernels -------------------------------------------------------------------------------
 * A kernel runs `iterations` iterations of its outermost partitioned loop. On the CPU devices
 * the runtime splits 0..iterations into `count` contiguous chunks (num_gangs of them when given,
 * otherwise one per core) and calls the host function once per chunk, in parallel.
 *
 * Arguments follow cuLaunchKernel's layout: args[i] points at the value of argument i. For a
 * MAPPED argument that value is the device address of `host` (looked up in the present table —
 * an error names the argument if it is not present); for NO_CREATE it is the device address if
 * present, else `host`; DEVICEPTR passes `host` unchanged; VALUE passes a copy of the `bytes`
 * bytes at `host` (firstprivate scalars and structs). So a kernel reads
 *     double *a = *(double **)c->__acc_args[0];  int n = *(int *)c->__acc_args[1];
 *
 * Reductions: red[j] points at this chunk's private copy of reduction j (its `count` elements
 * for an array section, packed as C lays out an array), preset to the
 * operator's identity and 8-byte aligned; the chunk reduces its iterations into it. When all
 * chunks are done the runtime combines the private copies with the variable's original value
 * (its device copy if the variable is present, else the host variable) in chunk order. No
 * atomics, no locks: e.g.
 *     double s = *(double *)c->__acc_red[0];
 *     for (long long i = c->__acc_begin; i < c->__acc_end; i++) s += a[i];
 *     *(double *)c->__acc_red[0] = s;
 */
/* The members' names are reserved ones: generated code names them inside the program's own
 * code, where a macro of the program (`#define count 10`) would otherwise replace them. */
typedef struct acc_rt_chunk {
  void *const *__acc_args;        /* __acc_args[i] points at argument i's value */
  void *const *__acc_red;         /* __acc_red[j] points at this chunk's private reduction j */
  long long __acc_begin, __acc_end; /* this chunk's iterations [begin, end) */
  long long __acc_index;            /* this chunk's number, 0..count-1 (the gang) */
  long long __acc_count;            /* the number of chunks */
} acc_rt_chunk;

typedef void (*acc_rt_host_fn)(const acc_rt_chunk *chunk);

typedef struct acc_rt_kernel {
  const char *name; /* for messages and profiling */
  const char *file;
  int line;
  acc_rt_host_fn host_fn;  /* the kernel compiled for the CPU devices */
  const char *cuda_source; /* the kernel for the nvidia device: CUDA C (see below), or NULL */
  const char *cuda_entry;  /* the extern "C" __global__ function in cuda_source to launch */
  int cuda_lanes;          /* 1: one gang iteration per block (its worker and vector loops are
                              spread over the block's threads); 2: as 1, worker loops over
                              threadIdx.y and their vector loops over threadIdx.x; 3: blocks of
                              one thread (every thread a gang): see "Launch shape" below */
} acc_rt_kernel;

/* ---- kernels on the nvidia device ----------------------------------------------------------
 * On an nvidia device acc_rt_launch runs cuda_source/cuda_entry instead of host_fn (a kernel
 * whose cuda_source is NULL is an error there: "... was compiled without a CUDA version").
 *
 * cuda_source is a complete CUDA C++ translation unit that includes no headers (it is compiled
 * by NVRTC alone, for the device's architecture, on the kernel's first launch, and cached on
 * disk; a first line `// nvrtc-options: OPT...` adds NVRTC options, such as `--fmad=false`
 * that `acc cc -ffp-contract=off` asks for, before those of $ACC_NVRTC_OPTIONS); cuda_entry
 * names an `extern "C" __global__` function in it. Both must be string
 * literals (the runtime keys its loaded kernels by their addresses). The entry's parameters are
 *
 *   entry(P0, P1, ..., P(nargs-1), void *const *__acc_red, long long __acc_iterations)
 *
 * - Pi is argument i's value as the CPU devices' chunk sees it through args[i]: for MAPPED,
 *   NO_CREATE, POINTER and DEVICEPTR arguments an address (declared as a pointer type, 8
 *   bytes: the device address of present data); for VALUE the `bytes` bytes at `host`, declared
 *   with the value's own C type of that size (e.g. `int n`, `double x`, a struct by value).
 *   (The runtime passes cuLaunchKernel a pointer to each value.)
 * - __acc_red: a device array of nreds + 1 pointers. __acc_red[j] points at reduction j's SLOTS,
 *   one per block: slot b is at (char *)__acc_red[j] + b * count * esize, where count is the
 *   reduction's element count (>= 1) and esize the builtin type's size (ACC_RT_TYPE_CUSTOM:
 *   `size`). Before the launch every slot holds the private copy's initial value the CPU path
 *   gives a chunk (the operator's identity; for custom reductions init(copy, original)),
 *   except for a reduction of count 0: its kernel sets each block's slot to the identity
 *   before reading it (so a launch uploads nothing for it). Each
 *   block reads its slot (gridDim.x slots, indexed by blockIdx.x) as its starting value,
 *   reduces its iterations into it (e.g. a shared-memory tree over the block's threads) and
 *   writes the result back into its slot. After the kernel the runtime combines the slots as
 *   it combines chunks: original value op slot0 op slot1 ... in order, into the device copy
 *   when the variable is present, else into the host variable. With an async queue this
 *   happens in order on the queue, complete when the queue is waited for. Slots of reduction j
 *   start 256-byte aligned. __acc_red[nreds] points at the device's lock word for `atomic`
 *   constructs (an unsigned int, 0 when free), one for every kernel of every module, so
 *   atomics of kernels from different files exclude each other.
 * - __acc_iterations: config->iterations (ACC_RT_ANY_GANGS: "as many gangs as you like").
 *
 * Launch shape: block = (vector_length > 0 ? vector_length : 128,
 *                        num_workers > 0 ? num_workers : 1, 1), clamped so x * y <= 1024
 *         (and <= the kernel's own limit, cuFuncGetAttribute(MAX_THREADS_PER_BLOCK));
 * grid = (num_gangs > 0 ? num_gangs
 *         : iterations == ACC_RT_ANY_GANGS ? 4 * the device's multiprocessors
 *         : min(ceil(iterations / (x * y)), W)), at least 1, on x only, where W is one full
 *         wave: the blocks of x * y threads the device keeps resident at once
 *         (cuOccupancyMaxActiveBlocksPerMultiprocessor for the kernel) times its multiprocessors;
 * with cuda_lanes, a block runs one iteration at a time: min(iterations, W).
 * With cuda_lanes == 2 the block defaults to (32, 128 / x) and, with y > 1, x is a power of two
 * of at most 32 (the largest not above vector_length), so that each row of threads lies within
 * one warp and synchronises without the rest of the block. With cuda_lanes == 3 the block is
 * (1, 1, 1), each thread a gang (num_workers and vector_length are not used).
 * Other kernels must be correct for every shape (grid-stride loops over the iterations); the
 * shape only affects speed. A launch with 0 iterations launches nothing. */

/* config->iterations of a launch that lets the runtime choose the gangs (INT64_MAX). */
#define ACC_RT_ANY_GANGS 0x7fffffffffffffffLL

typedef struct acc_rt_config {
  long long iterations;
  int num_gangs;     /* 0: the runtime chooses */
  int num_workers;   /* hints for GPUs; the CPU devices ignore them */
  int vector_length;
  int async;         /* queue, acc_async_noval or acc_async_sync */
} acc_rt_config;

enum acc_rt_arg_kind {
  ACC_RT_ARG_MAPPED = 1,
  ACC_RT_ARG_NO_CREATE = 2,
  ACC_RT_ARG_DEVICEPTR = 3,
  ACC_RT_ARG_VALUE = 4,
  ACC_RT_ARG_POINTER = 5, /* a pointer variable's value: the device address of its target when
                             present, else unchanged (a warning on a discrete device) */
  /* A section in private or firstprivate (`private(c[0:n])`): `host` points at two size_t, the
   * section's host address and its size in bytes B. The kernel receives the address P of the
   * launch's storage for it: gangs + 1 copies of B bytes (16-byte aligned), gang g's at
   * P + (g + 1) * B, where g is the chunk's index on the CPU devices and blockIdx.x on nvidia
   * (acc cc gives a kernel with private sections blocks that are gangs: cuda_lanes 1, 2 or 3,
   * or one thread of each block running the region). For FIRSTPRIVATE the copy at P holds the section's bytes as they
   * were at the launch; each gang copies it into its own before using it. */
  ACC_RT_ARG_PRIVATE = 6,
  ACC_RT_ARG_FIRSTPRIVATE = 7
};

typedef struct acc_rt_arg {
  unsigned int kind;    /* enum acc_rt_arg_kind */
  void *host;       /* host address (MAPPED, NO_CREATE), device address (DEVICEPTR), the
                       address of the value (VALUE), or of the section's address and size
                       (PRIVATE, FIRSTPRIVATE) */
  size_t bytes;     /* MAPPED/NO_CREATE: bytes that must be present (0: the address only);
                       VALUE: the value's size */
  const char *text; /* source text, for messages */
} acc_rt_arg;

enum acc_rt_red_op {
  ACC_RT_RED_ADD = 1, ACC_RT_RED_MUL = 2, ACC_RT_RED_MAX = 3, ACC_RT_RED_MIN = 4,
  ACC_RT_RED_BITAND = 5, ACC_RT_RED_BITOR = 6, ACC_RT_RED_BITXOR = 7,
  ACC_RT_RED_AND = 8, ACC_RT_RED_OR = 9
};

enum acc_rt_red_type {
  ACC_RT_TYPE_I8 = 1, ACC_RT_TYPE_I16 = 2, ACC_RT_TYPE_I32 = 3, ACC_RT_TYPE_I64 = 4,
  ACC_RT_TYPE_U8 = 5, ACC_RT_TYPE_U16 = 6, ACC_RT_TYPE_U32 = 7, ACC_RT_TYPE_U64 = 8,
  ACC_RT_TYPE_F32 = 9, ACC_RT_TYPE_F64 = 10, ACC_RT_TYPE_BOOL = 11,
  ACC_RT_TYPE_C32 = 12, ACC_RT_TYPE_C64 = 13, /* float/double _Complex: + and * only */
  ACC_RT_TYPE_CUSTOM = 14 /* structs, long double: `size`, `init` and `combine` below */
};

typedef struct acc_rt_reduction {
  unsigned int op;      /* enum acc_rt_red_op */
  unsigned int type;    /* enum acc_rt_red_type (bitwise operators: integer types only) */
  void *var;        /* the reduction variable's host address (an array section: its start) */
  const char *text; /* its source text */
  size_t count;     /* elements reduced, each on its own; 0 means 1: a scalar of a builtin
                       type, whose CUDA kernel sets its own slots (see below) */
  /* ACC_RT_TYPE_CUSTOM only: an element's size; init(copy, original) sets a private copy to
   * the identity (or to the original value, for idempotent operators); combine(acc, part)
   * computes acc = acc op part. */
  size_t size;
  void (*init)(void *copy, const void *original);
  void (*combine)(void *acc, const void *part);
} acc_rt_reduction;

/* Launches a kernel on the current device; with config->async a queue, it runs in order on
 * that queue and its reductions are complete when the queue is waited for. */
void acc_rt_launch(const acc_rt_kernel *kernel, const acc_rt_config *config,
                   const acc_rt_arg *args, size_t nargs, const acc_rt_reduction *reds,
                   size_t nreds);

/* ---- compact forms ---------------------------------------------------------------------------
 * What acc cc generates: the same calls with each descriptor split into a constant part (a
 * static table) and a variable part (one pointer-sized value per address, size or count), and
 * the launch configuration by value. The host compiler then stores a few pointers per construct
 * instead of building arrays of structs, which costs it far less to optimize.
 *   data item i:  info[i], address vals[2i], byte count (size_t)vals[2i + 1]
 *   argument i:   arg_info[i], address arg_vals[i]
 *   reduction j:  red_info[j], variable red_vals[2j], element count (size_t)red_vals[2j + 1] */
typedef struct acc_rt_data_info {
  unsigned int action; /* enum acc_rt_action */
  unsigned int flags;  /* enum acc_rt_flag bits */
  const char *text;
} acc_rt_data_info;

typedef struct acc_rt_arg_info {
  unsigned int kind; /* enum acc_rt_arg_kind */
  size_t bytes;  /* as acc_rt_arg.bytes */
  const char *text;
} acc_rt_arg_info;

typedef struct acc_rt_reduction_info {
  unsigned int op;   /* enum acc_rt_red_op */
  unsigned int type; /* enum acc_rt_red_type */
  const char *text;
  size_t size;   /* ACC_RT_TYPE_CUSTOM: as acc_rt_reduction */
  void (*init)(void *copy, const void *original);
  void (*combine)(void *acc, const void *part);
} acc_rt_reduction_info;

void acc_rt_region_begin_v(const char *file, int line, const acc_rt_data_info *info,
                           void *const *vals, size_t n, int async);
void acc_rt_region_end_v(const char *file, int line, const acc_rt_data_info *info,
                         void *const *vals, size_t n, int async);
void acc_rt_launch_v(const acc_rt_kernel *kernel, long long iterations, int num_gangs,
                     int num_workers, int vector_length, int async,
                     const acc_rt_arg_info *arg_info, void *const *arg_vals, size_t nargs,
                     const acc_rt_reduction_info *red_info, void *const *red_vals, size_t nreds);

/* ---- miscellany ---------------------------------------------------------------------------- */

/* The error path calls handler(message, user) before it exits with status 1. */
void acc_rt_set_error_handler(void (*handler)(const char *message, void *user), void *user);

/* `atomic` constructs in host kernels: the statement runs between these two calls, under one
 * process-wide lock. */
void acc_rt_atomic_begin(void);
void acc_rt_atomic_end(void);

/* Where a `routine` function finds the file-scope variable at host: inside a kernel chunk on a
 * device with separate memory, its device copy (when present); elsewhere, host itself. acc cc
 * writes a routine's uses of `declare`d globals through it, so a routine on host_discrete sees
 * what it would see on a GPU. */
void *acc_rt_global(void *host);

/* Nonzero when the current device shares the host's memory (data calls are then no-ops). */
int acc_rt_shared_memory(void);

/* Where a file's constructs are, for profiling events (acc_prof.h): generated calls pass a
 * file and a line, and events report the construct's last line, kind (acc_construct_t) and
 * function from this table, which each file's generated code registers as the program starts. */
typedef struct acc_rt_site {
  int line, end_line; /* the directive's line, the construct's last */
  int construct;      /* acc_construct_t */
  const char *func;   /* the function around it, or NULL */
  int func_line, func_end_line;
} acc_rt_site;
void acc_rt_register_sites(const char *file, const acc_rt_site *sites, size_t n);

/* A file's device code, registered by its generated code as the program starts, so that a
 * kernel may call a `routine` another file defines: `module` is the file's CUDA module (or
 * NULL), `library` its routine library (its routines without kernels, or NULL), `provides` and
 * `needs` the routines it defines for other files and calls without defining, each a list of
 * names separated by spaces, and `no_library` why a file that provides routines has no library
 * (or NULL). On a GPU the runtime compiles a module that needs routines, and the libraries that
 * provide them, as relocatable device code and links them. */
void acc_rt_register_device_code(const char *file, const char *module, const char *library,
                                 const char *provides, const char *needs,
                                 const char *no_library);
/* A `declare`d file-scope variable of `file` that its routines use: its routine library reaches
 * it through the pointer `symbol`, which the runtime sets to the device copy when it links the
 * library into another file's module. Called by the `declare` directive's constructor. */
void acc_rt_register_library_global(const char *file, const char *symbol, void *host);

/* A profiling library linked into the program defines acc_register_library (acc_prof.h): each
 * translation unit of generated code hands it to the runtime as the program starts, through a
 * weak reference that is null when the program defines none; the runtime calls it once. */
void acc_rt_prof_linked(void (*register_library)(acc_prof_reg, acc_prof_reg, acc_prof_lookup_func));
#if defined(__GNUC__) && !defined(__CUDACC__)
extern void acc_register_library(acc_prof_reg, acc_prof_reg, acc_prof_lookup_func)
    __attribute__((weak));
__attribute__((constructor, unused)) static void __acc_rt_find_profiling_library(void) {
  acc_rt_prof_linked(acc_register_library);
}
#endif

#ifdef __cplusplus
}
#endif

#endif /* ACC_RT_H */
