//! The CUDA C emitter: offload plans made into `extern "C" __global__`
//! kernels that the runtime compiles with NVRTC (see `acc_rt.h` for the
//! launch convention both sides keep).
//!
//! A front end lowers each compute construct once, to a kernel body written
//! against a small vocabulary (`__ACC_FIRST(t)`, `__ACC_END(t)`,
//! `__ACC_STEP` for the outermost gang loop, `acc_rt_atomic_begin/end`
//! around atomics, `__acc_args[i]` for argument values and `__acc_slot[j]`
//! for reduction copies), and hands the pieces to [`emit_module`]. The host
//! build defines that vocabulary one way (contiguous chunks, a process-wide
//! lock); this module defines it for the GPU:
//!
//! - **Partitioning** ([`Mode`]). Where a gang loop contains worker or
//!   vector loops and the front end found the code around them safe to run
//!   on every thread of a block, gangs are blocks ([`Mode::Lanes`]): each
//!   block runs one gang iteration at a time (grid-stride over
//!   `blockIdx.x`), and the outermost worker/vector loop inside is spread
//!   over its threads (`threadIdx.y * blockDim.x + threadIdx.x`, worker and
//!   vector lanes as one range), with its reductions combined across the
//!   block and a barrier after it. A worker loop that itself contains
//!   vector loops is spread over the block's rows instead, its vector loops
//!   over the lanes of a row ([`Mode::Rows`]: worker → `threadIdx.y`,
//!   vector → `threadIdx.x`, as nvc maps them), so the innermost loop,
//!   usually the one walking memory contiguously, is the one neighbouring
//!   threads share. Otherwise every thread
//!   of the grid is one chunk ([`Mode::Threads`]): the gang loop's
//!   iterations are dealt out cyclically over all `gridDim.x * blockDim.x *
//!   blockDim.y` threads (a grid-stride loop, so any launch shape is correct
//!   and neighbouring threads touch neighbouring elements), and worker and
//!   vector loops inside a gang iteration run in order on that thread, as
//!   they do inside a host chunk — always exact. Gang-redundant statements
//!   that must run once per gang (`__ACC_REDUNDANT_BEGIN/END`) run on each
//!   block's first thread; where such code shares a statement with a gang
//!   loop (a sequential loop around both), the front end has the runtime
//!   launch blocks of one thread instead (`cuda_lanes == 3`), so every
//!   thread is a gang. A `parallel` with `num_gangs(n)` and no gang
//!   loop runs its region once per block ([`Mode::Blocks`]); other code that
//!   is not inside a gang loop runs on one thread ([`Mode::Single`]). The
//!   body is the same text on every device: the host defines the same
//!   vocabulary as contiguous chunks and in-order loops.
//! - **Reductions.** Scalars: each thread starts its private copy from its
//!   block's slot, which the block's first thread sets to the operator's
//!   identity as the kernel starts (so a launch uploads nothing for them:
//!   the runtime presets only array and custom slots), the block combines its threads' copies in a fixed order
//!   (each warp with shuffles, then the warps' results on one thread), and
//!   thread 0 stores the result into the block's slot; the runtime combines
//!   the slots across blocks (the second pass). Arrays and structs
//!   (whose private copy does not fit a thread): each block is one chunk,
//!   run by its first thread straight into the block's slot. No atomics, so
//!   results do not depend on timing. Complex values are the prelude's
//!   `__acc_complex` (C's layout; acc-c rewrites the type names, as C++ has
//!   no `_Complex`), `double _Complex` reductions one chunk per block (16
//!   bytes do not fit a shuffle). C's `long double` (x86-64's 80-bit format)
//!   is the prelude's `__acc_f80` (acc-c rewrites the type name): the host's
//!   bytes, with arithmetic and conversions that round as the x87 does, so a
//!   device copy and its results match the host's bit for bit (CUDA's own
//!   `long double` is a `double`); its reductions run one chunk per block.
//! - **Atomics.** Every form of `atomic update` and `atomic capture` that
//!   OpenACC lists (`x op= e`, `x++`, `x = x op e`, `x = e op x`, and
//!   `v = <that>` or a `{v = x; ...}` block, an exchange among them) is a
//!   compare-and-swap loop on the one location (`__ACC_ATOMIC`,
//!   `__ACC_CAPTURE` and their `_R` forms for `x = e op x`: C's arithmetic
//!   on the value read, 4- and 8-byte values), so updates of different
//!   locations never wait for each other; `atomic read` and `write` of such
//!   values are one access of the whole value. Values of other sizes, and
//!   statements the front end does not read as one of those forms (a macro
//!   standing for the statement: the lock does not exclude compare-and-swap
//!   updates of the same location elsewhere), take the device's one lock
//!   word (the runtime passes it after the reduction slots, so kernels of every module share it; independent thread
//!   scheduling, sm_70 and later, makes a per-thread spin lock safe), as the
//!   host build takes one process-wide lock.
//!
//! Every kernel C's front end lowers has a CUDA form. A file whose support
//! code has none (a routine reading a file-scope variable that no `declare`
//! gives a device copy) gets no module: acc-c says why (`acc cc --info`) and
//! the runtime refuses its kernels on a GPU with that pointer.
//!
//! A `routine` a kernel calls may be defined in another file. Each file that defines
//! routines also gets a routine library ([`emit_library`]: its support code without
//! kernels); the runtime compiles a module that calls routines it does not define, and the
//! libraries that define them, as relocatable device code and links them, as nvc's
//! `-gpu=rdc` does at link time.
//!
//! Layout: `model` holds the kernel description a front end fills in
//! ([`CudaKernel`], [`Mode`], ...), `emit` turns it into text
//! ([`emit_module`], [`emit_kernel`]), and `prelude` holds the fixed C++
//! text every module starts with ([`PRELUDE`], [`PRELUDE_F80`],
//! [`PRELUDE_F80_COMPLEX`]) and the reduction functors it defines.

mod emit;
mod model;
mod prelude;
mod prelude_f80;
#[cfg(test)]
mod tests;

pub use emit::{emit_kernel, emit_library, emit_module};
pub use model::{CudaKernel, CudaParam, CudaReduction, Mode};
pub use prelude::{functor, macro_names as prelude_macro_names, PRELUDE};
pub use prelude_f80::{PRELUDE_F80, PRELUDE_F80_COMPLEX};
