/* sim_api.h — the interface between the simulated driver (libcuda.c), which schedules a
 * kernel's threads, and the kernels it runs (compiled with shim.h by the fake NVRTC).
 *
 * A kernel shared object knows nothing of the driver's symbols: cuModuleLoadData hands it this
 * table through its exported `__acc_sim_bind`, so the object links against nothing but libc,
 * libm and libstdc++, and two loaded modules never share state by accident. Bump
 * ACC_SIM_ABI whenever the table or the image header changes: a stale image (from a disk
 * cache) is then refused instead of misread. */
#ifndef ACC_SIM_API_H
#define ACC_SIM_API_H

#define ACC_SIM_ABI 2

/* The header of an image the fake NVRTC produces (its "PTX" and "CUBIN" alike), followed by
 * the bytes of the kernel shared object, or with `relocatable` (NVRTC's -rdc=true) of an
 * object file that cuLinkComplete links with others into a shared object. cuModuleLoadData
 * receives no size, so the image describes itself. */
#define ACC_SIM_MAGIC "ACCSIM-\x01"
struct acc_sim_image {
  char magic[8];
  unsigned int abi;
  unsigned int arch;
  unsigned long long so_bytes;
  unsigned int relocatable;
  unsigned int reserved;
};

struct acc_sim_dim {
  unsigned int x, y, z;
};

/* What a kernel thread reads as threadIdx, blockIdx, blockDim and gridDim. */
struct acc_sim_thread {
  struct acc_sim_dim thread_idx, block_idx, block_dim, grid_dim;
};

/* Warp collectives (acc_sim_api.warp's `op`). */
enum { ACC_SIM_WARP_SYNC = 0, ACC_SIM_WARP_SHFL = 1, ACC_SIM_WARP_BALLOT = 2 };

struct acc_sim_api {
  int abi;
  /* The calling kernel thread. */
  const struct acc_sim_thread *(*self)(void);
  /* __syncthreads and its counting form: waits for every thread of the block; returns how
   * many threads passed a nonzero `pred` (exited threads count as arrived, with 0). */
  int (*syncthreads)(int pred);
  /* A warp collective over the lanes of `mask` (which must include the caller): every lane
   * waits for the others; SHFL returns lane `src`'s `value` (the caller's own when `src` is
   * negative), BALLOT the mask of lanes whose `value` is nonzero, SYNC nothing. */
  unsigned long long (*warp)(int op, unsigned int mask, unsigned long long value, int src);
  /* The lanes of the caller's warp that have not exited. */
  unsigned int (*active_mask)(void);
  /* A failed compare-and-swap: let the other threads run (a spin lock's holder may be one). */
  void (*spin)(void);
  /* Ends the launch with CUDA_ERROR_LAUNCH_FAILED; `what` says why. Does not return. */
  void (*trap)(const char *what);
  /* CUDA's device vprintf: `args` packs the arguments, each aligned to its size. */
  int (*vprintf)(const char *format, const char *args);
};

#endif
