/* One shared buffer for every reduction of a kernel (one after the other): 8 KiB, not 8 KiB per
 * type, which a kernel with many reductions would overrun. */
static __device__ unsigned long long *__acc_shared_words(void) {
  __shared__ unsigned long long words[1024];
  return words;
}
/* A value of up to 8 bytes from the lane `delta` above (within sections of `width` lanes), or
 * with `delta` < 0 from the section's first lane, within the lanes of `mask`. */
template <class T> __device__ T __acc_shfl(T v, int delta, unsigned mask, int width = 32) {
  unsigned long long bits = 0;
  memcpy(&bits, &v, sizeof(T));
  unsigned lo, hi;
  if (delta < 0) {
    lo = __shfl_sync(mask, (unsigned)bits, 0, width);
    hi = __shfl_sync(mask, (unsigned)(bits >> 32), 0, width);
  } else {
    lo = __shfl_down_sync(mask, (unsigned)bits, delta, width);
    hi = __shfl_down_sync(mask, (unsigned)(bits >> 32), delta, width);
  }
  bits = ((unsigned long long)hi << 32) | lo;
  T r;
  memcpy(&r, &bits, sizeof(T));
  return r;
}
/* Combines one value per thread of the block, in a fixed order; every thread gets the result.
 * T is a builtin scalar, at most 8 bytes. Each warp combines its lanes with shuffles (a tree:
 * lane t takes t + s for s = 1, 2, 4, ...), then the first thread combines the warps' results
 * in order: no atomics, so results do not depend on timing. */
template <class T, class Op> __device__ T __acc_block_reduce(T v, Op op) {
  static_assert(sizeof(T) <= sizeof(unsigned long long), "a scalar reduction");
  T *const buf = (T *)__acc_shared_words();
  const unsigned t = threadIdx.y * blockDim.x + threadIdx.x, n = blockDim.x * blockDim.y;
  const unsigned lane = t % 32, warp = t / 32, warps = (n + 31) / 32;
  const unsigned width = n - warp * 32 < 32 ? n - warp * 32 : 32;
  const unsigned mask = width == 32 ? 0xffffffffu : (1u << width) - 1;
  for (unsigned s = 1; s < 32; s <<= 1) {
    const T other = __acc_shfl(v, (int)s, mask);
    if (lane % (2 * s) == 0 && lane + s < width) v = op(v, other);
  }
  if (lane == 0) buf[warp] = v;
  __syncthreads();
  if (t == 0) {
    T r = buf[0];
    for (unsigned w = 1; w < warps; w++) r = op(r, buf[w]);
    buf[0] = r;
  }
  __syncthreads();
  T r = buf[0];
  __syncthreads();
  return r;
}
/* A row of a `Rows` kernel: the threads of one threadIdx.y. The runtime launches such kernels
 * with one row (the row is the block) or with rows inside a warp (blockDim.x divides 32). */
static __device__ unsigned __acc_row_mask(void) {
  const unsigned n = blockDim.x;
  return n >= 32 ? 0xffffffffu : ((1u << n) - 1) << (threadIdx.y * n % 32);
}
static __device__ void __acc_row_sync(void) {
  if (blockDim.y == 1) {
    __syncthreads();
  } else {
    __syncwarp(__acc_row_mask());
  }
}
/* Combines one value per thread of the row, in a fixed order (a shuffle tree); every thread
 * of the row gets the result. */
template <class T, class Op> __device__ T __acc_row_reduce(T v, Op op) {
  if (blockDim.y == 1) return __acc_block_reduce<T>(v, op);
  const unsigned n = blockDim.x, x = threadIdx.x, mask = __acc_row_mask();
  for (unsigned s = 1; s < n; s <<= 1) {
    const T other = __acc_shfl(v, (int)s, mask, (int)n);
    if (x % (2 * s) == 0 && x + s < n) v = op(v, other);
  }
  return __acc_shfl(v, -1, mask, (int)n);
}
