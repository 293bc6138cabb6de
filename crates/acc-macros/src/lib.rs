//! acc-macros: the Rust front end (`#[acc::parallel]` and friends).
//!
//! The attribute's tokens are printed as OpenACC directive text and parsed and checked by
//! acc-engine ([`text`]), so every clause means what it means in C and every clause error is
//! the engine's message, placed under the token the user wrote. The function is then laid out
//! as the engine's facts ([`facts`]: its variables, constructs and references), and the
//! engine decides what it decides for C: data attributes (explicit, implicit `copy` of used
//! slices, `default(none)`/`default(present)`), which loops are partitioned (Clacc's reading,
//! with the dependence test for `kernels`), and the cross-construct checks. [`expand`] reads
//! the function with syn and expands it for the **host path**: data clauses become structured
//! mappings on the current device (`ACC_DEVICE_TYPE`: `host` or `host_discrete`), each
//! partitioned `for` loop a launch of chunks on the runtime's executor, reductions per-chunk
//! partials combined in chunk order.
//!
//! [`cuda`] gives the same function a **CUDA form** for the `nvidia` device: each partitioned
//! loop (each launch) is translated from a subset of Rust to CUDA C and handed to acc-engine's
//! emitter (`acc_engine::cuda`), and so is each top-level statement of host code that touches
//! slice elements (a `serial` loop, a `kernels` loop left sequential), as a one-thread kernel.
//! The function's module is a hidden static next to it, `__ACC_CUDA_<NAME>`
//! (`acc_runtime::rust::CudaModule`: the CUDA source and entries, or why there is none, with
//! the file and line of the loop and the Rust text that is outside the subset). The expansion
//! asks the runtime on entry (`cuda_form`: on a GPU a function whose assembled module has no
//! CUDA form is a run-time error naming the function, where and why) and, per launch, runs
//! the CUDA kernel when the current device is a GPU (`launch_cuda`) and the host closure
//! otherwise, so `host` and `host_discrete` run exactly what they ran before. Rust outside the
//! CUDA subset is a compile error on the offending expression (`compile_error!`, and a
//! constant that fails to evaluate for a call of a function that is not a routine), never a
//! silent host run. The subset and the Rust semantics kept (wrapping integer arithmetic,
//! saturating float-to-int casts, bounds checks that trap) are documented in [`cuda`].
//!
//! **Routines.** `#[acc::routine]` (the `routine` module) translates a free function's body the
//! same way, into the parts of a CUDA `__device__` function. A macro sees one item, so a caller cannot read the
//! routine: next to `fn foo` the routine's expansion declares a hidden `struct foo {}` (types
//! and functions live in different namespaces, and `use m::foo` imports both) whose
//! `foo::__acc_routine()` returns the `CudaRoutine`. A caller's C text calls `foo` through an
//! alias of the path it wrote, and its module lists each call as a `RoutineCall` that finds the
//! routine by that path (`use m::foo as __acc_callee;` beside a glob import of a fallback,
//! which the explicit import shadows, so that a function that is not a routine resolves to
//! "not a routine" instead of failing to compile), with the types the translation assumed.
//! The runtime assembles each module once: every routine reached, prototypes first, `#define`s
//! binding the aliases, and the signatures compared with the assumed types (see
//! `acc_runtime::rust::routines`).
//!
//! What the host path supports:
//!
//! - **Constructs** on free functions: `parallel`, `kernels`, `serial`, the combined
//!   `parallel loop`/`kernels loop`/`serial loop` (applied to the body's one top-level `for`),
//!   `data` (a structured region over what its clauses name: kernels called inside find
//!   those slices present) and `routine` (checked; the function runs as is, and gets a CUDA
//!   form: above).
//! - **Parameters**: `&[T]` and `&mut [T]` slices (also `&Vec<T>`/`&mut Vec<T>`, mapped as
//!   their slice) of device data (`acc_runtime::rust::DeviceCopy`: numbers, fixed arrays of them
//!   and `#[derive(acc::DeviceCopy)]` structs) and `Copy` scalars. Data clauses `copy`, `copyin`, `copyout`, `create`, `present`,
//!   `no_create` name whole slice parameters; a compute construct maps the unnamed slices it
//!   uses `copy` (a `&[T]` is never written back), or `present` under `default(present)`, and
//!   scalars are firstprivate — the engine's implicit data attributes, so `default(none)`
//!   asks for every variable, scalars too. Inside the function each slice is its device copy,
//!   so a missing `copyout` gives the stale host answer on `host_discrete`, as in C.
//! - **Loops** (`#[acc(loop ...)]` on `for i in a..b` / `a..=b`): in `parallel` every loop
//!   without `seq` or `auto` is partitioned; in `kernels` a loop with `independent` is, and
//!   any other loop — with a directive or, at the top of the body, without one — when the
//!   engine's dependence test proves its iterations independent; in `serial` none is.
//!   `collapse(n)` and `tile(...)` flatten a rectangular nest; `reduction(op:var)` for
//!   `+ * max min & | ^ && ||` on integer and float scalars (and `bool` for `&&`, `||`);
//!   `private(var)` is a copy per iteration, compute-level `private`/`firstprivate` a copy
//!   per chunk. A partitioned loop's iterations are split into contiguous chunks (one per
//!   gang: `num_gangs`, or the executor's width); loops nested in it run sequentially inside
//!   the chunk.
//! - **Iterator loops** over slice parameters (the `iters` module, before anything else reads
//!   the function): `for x in s.iter()`, `s.iter_mut()`, `&s`, with `.enumerate()`, and
//!   `a.iter_mut().zip(b.iter())` are the index loops `for i in 0..s.len()` they stand for, the
//!   element (`x` and `*x`) read and written as `s[i]`; so they are partitioned, windowed and
//!   translated like any loop over a range.
//! - **Generics**: a function generic over one `T: acc::Float` (`expand::clauses::float_params`)
//!   has its kernels translated once with `T` as a C name (`__acc_gen_T`) and emitted once per
//!   float type, each in its namespace with `typedef float __acc_gen_T;` (or `double`); a
//!   launch picks the entry by `<T as Float>::__acc_pick`. Other generics have no CUDA form.
//! - Code outside partitioned loops runs once, on the calling thread.
//!
//! Not supported yet (each a compile error): subarrays in clauses, `async`, `wait`, `if`,
//! `self`, `device_type`, `deviceptr`, `attach`, `reduction` on a compute construct without
//! its loop, methods as compute functions, non-slice references, `return`/`?`/`break` inside a
//! partitioned loop, partitioned loops over anything but a range.
//!
//! **User types** (the `device_copy` module): `#[derive(acc::DeviceCopy)]` on a `#[repr(C)]`
//! `Copy` struct whose fields are numbers, fixed arrays of them or other such structs implements
//! `DeviceCopy` (its safety contract: every bit pattern valid, no padding, no pointers), so
//! slices of it are mapped like any slice. What cannot be moved bit for bit is refused on the
//! field or the struct: no `repr(C)`, `packed`/`align`, generics, references, pointers, `Vec`
//! and other owners, `bool`/`char` (not every bit pattern is valid), padding (a compile-time
//! assertion of the sizes). The derived impl also gives the struct's C declaration
//! (`DeviceCopy::__acc_c_type`) for the CUDA form (see [`cuda`]).
//!
//! Inside a partitioned loop a `&mut [T]` parameter the loop only reads is shared by the
//! chunks; one it writes is cut into per-chunk windows ([`owned`]: the macro estimates which
//! elements each chunk indexes, the runtime's `launch_owned` checks the estimates disjoint and
//! every access against them), so a safe function cannot race. In an `unsafe fn` the caller's
//! promise replaces the checks and written slices are shared unchecked, as in C.

pub(crate) mod cuda;
mod device_copy;
mod expand;
pub(crate) mod facts;
mod iters;
mod owned;
mod routine;
#[cfg(test)]
mod snapshots;
mod text;
mod uneven;

use proc_macro::TokenStream;

/// `#[acc::parallel(clauses)]` on a function: an OpenACC `parallel` construct whose region is
/// the function body; `#[acc::parallel(loop …)]` is the combined `parallel loop`, applied to the
/// body's one top-level `for` loop.
#[proc_macro_attribute]
pub fn parallel(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::construct(expand::Construct::Parallel, attr.into(), item.into()).into()
}

/// `#[acc::kernels(clauses)]`: a `kernels` construct; loops marked `independent` are
/// partitioned, and other loops when acc-engine's dependence test proves them independent.
#[proc_macro_attribute]
pub fn kernels(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::construct(expand::Construct::Kernels, attr.into(), item.into()).into()
}

/// `#[acc::serial(clauses)]`: a `serial` construct; its loops run sequentially.
#[proc_macro_attribute]
pub fn serial(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::construct(expand::Construct::Serial, attr.into(), item.into()).into()
}

/// `#[acc::data(clauses)]`: a structured data region over the function body; kernels called
/// inside find the slices present.
#[proc_macro_attribute]
pub fn data(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::construct(expand::Construct::Data, attr.into(), item.into()).into()
}

/// `#[acc::routine(seq)]`: a function called from compute regions. On the host path it is
/// the function itself; the directive is checked. On a GPU it is a `__device__` function that
/// runs sequentially in the calling thread whatever its level (`gang`, `worker` and `vector`
/// are accepted); a free function whose signature and body are in the CUDA subset has one.
/// Next to the function the macro declares a hidden struct of the same name, which kernels'
/// expansions find the routine's CUDA form through. On an inherent method taking `self` or
/// `&self` (of a `#[derive(acc::DeviceCopy)]` type) the form is an associated const
/// `__ACC_METHOD_<name>` instead, found by callers through the receiver's type; an associated
/// function without `self` is left as it is.
#[proc_macro_attribute]
pub fn routine(attr: TokenStream, item: TokenStream) -> TokenStream {
    routine::expand(attr.into(), item.into()).into()
}

/// `#[acc(loop …)]` is read by the enclosing `#[acc::parallel]`, `#[acc::kernels]` or
/// `#[acc::serial]`; anywhere else it is an error.
#[proc_macro_attribute]
pub fn acc(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::stray(attr.into(), item.into()).into()
}

/// `#[derive(acc::DeviceCopy)]` on a `#[repr(C)]` `Copy` struct whose fields are numbers, fixed
/// arrays of them or other such structs: slices of it are device data (data clauses map them),
/// and kernels' CUDA form declares it as a C struct of the same layout (checked by
/// `static_assert`s of Rust's size and alignment). References, pointers, `Vec`, `bool`, a
/// missing `repr(C)` and padding are compile errors on the field or the struct.
#[proc_macro_derive(DeviceCopy)]
pub fn derive_device_copy(item: TokenStream) -> TokenStream {
    device_copy::derive(item.into()).into()
}
