//! `acc`: OpenACC for Rust users.
//!
//! This is the one crate a Rust program depends on. It re-exports the
//! `#[acc::parallel]` family of macros and the runtime's Rust API. It owns no
//! logic of its own: the mapping rules live in `acc-engine`, execution in
//! `acc-runtime`.
//!
//! ```
//! #[acc::parallel(copyin(x) copy(y))]
//! fn saxpy(a: f32, x: &[f32], y: &mut [f32]) {
//!     #[acc(loop gang vector)]
//!     for i in 0..y.len() {
//!         y[i] += a * x[i];
//!     }
//! }
//!
//! #[acc::parallel(loop gang vector reduction(+:sum))]
//! fn dot(x: &[f64], y: &[f64]) -> f64 {
//!     let mut sum = 0.0;
//!     for i in 0..x.len() {
//!         sum += x[i] * y[i];
//!     }
//!     sum
//! }
//!
//! let x = vec![1.0f32; 100];
//! let mut y = vec![2.0f32; 100];
//! saxpy(3.0, &x, &mut y);
//! assert!(y.iter().all(|&v| v == 5.0));
//! assert_eq!(dot(&[1.0, 2.0], &[3.0, 4.0]), 11.0);
//! ```
//!
//! The directive text is OpenACC's, parsed and checked by the same engine as
//! C's. The device is the one `ACC_DEVICE_TYPE` selects (`host`,
//! `host_discrete` or `nvidia`, or [`set_device_type`]). On the CPU devices
//! partitioned loops run in chunks on the runtime's executor; constructs that
//! path cannot run are compile errors. See `acc-macros` for what is supported.
//!
//! # The GPU path
//!
//! Each partitioned loop also gets a **CUDA form**: the macro translates the
//! loop body from a subset of Rust to CUDA C (compiled by NVRTC on the first
//! launch, cached on disk), and when the current device is `nvidia` the loop
//! runs there — one GPU thread per iteration of the (collapsed) nest, grid
//! strided, scalar reductions combined per block and then by the runtime.
//! Slices are mapped on the GPU by the data clauses as in C; inside the
//! function the slice names are the *host* slices (host code may call
//! `x.len()`), and the kernels use the device copies. Host code of a compute
//! function that touches slice elements (a `serial` loop, a sequential
//! `kernels` loop) runs as a one-thread kernel.
//!
//! The subset: slice parameters (`&[T]`, `&mut [T]`) and scalars of `f32 f64
//! i8..i64 isize u8..u64 usize bool`; literals, arithmetic, bitwise,
//! comparison and logical operators, compound assignment, `as`, indexing,
//! `x.len()`, `let` (typed, or inferred from use the way Rust infers it),
//! `if`/`else`, nested `for` over ranges, `while`, `loop`, `break`/`continue`,
//! the float methods `sqrt abs min max powi powf exp ln sin cos tan floor ceil
//! mul_add tanh sinh cosh asin acos atan atan2 hypot signum clamp round trunc
//! exp2 log2 log10 cbrt recip` (also as `f64::max(a, b)`), the `consts::`
//! constants, user types and arrays (below), and calls of `#[acc::routine]`
//! functions (below). Rust semantics are kept: integer
//! arithmetic wraps (release semantics; no overflow panics), division by zero
//! and out-of-bounds indexing print Rust's panic message and trap (the launch
//! fails and the program ends with the error), float-to-int `as` saturates,
//! float `+ - *` are never fused into FMAs. Transcendental functions are
//! CUDA's and may differ from the host's in the last bits.
//!
//! **User types.** `#[derive(acc::DeviceCopy)]` on a `#[repr(C)]` `Copy` struct of numbers,
//! fixed arrays of them and other such structs makes it device data: slices of it (and
//! `&Vec<T>` parameters, mapped as their slice) go in data clauses like any slice, and kernels
//! read and write its fields, build it with a struct literal, bind it with `let`, pass it to
//! and return it from routines, and call its method routines (`#[acc::routine]` on an inherent
//! method taking `self` or `&self`). Fixed arrays `[T; N]` are values too: elements of slices
//! (`&[[f64; 3]]`), kernel locals (`[0.0; 3]`, `[a, b, c]`), indexed with Rust's bounds check,
//! iterated with `for x in a.iter()` (and `.enumerate()`). A parameter of such a type by value
//! (`b: Box3`) reaches the kernel whole. The CUDA module declares each struct
//! with the same fields in the same order and checks its size and alignment against Rust's
//! (`static_assert`). What cannot move bit for bit is a compile error on the field: a `Vec`, a
//! reference or pointer, a `bool` (use `u8`), padding (reorder the fields), a struct without
//! `#[repr(C)]`.
//!
//! ```
//! #[derive(Clone, Copy, acc::DeviceCopy)]
//! #[repr(C)]
//! pub struct P {
//!     x: f32,
//!     y: f32,
//! }
//!
//! impl P {
//!     #[acc::routine(seq)]
//!     fn norm2(&self) -> f32 {
//!         self.x * self.x + self.y * self.y
//!     }
//! }
//!
//! #[acc::parallel(copy(pos))]
//! fn shrink(pos: &mut [P]) {
//!     #[acc(loop gang vector)]
//!     for i in 0..pos.len() {
//!         let p = pos[i];
//!         if p.norm2() > 1.0 {
//!             pos[i].x *= 0.5;
//!             pos[i].y *= 0.5;
//!         }
//!     }
//! }
//! let mut pos = vec![P { x: 2.0, y: 0.0 }, P { x: 0.5, y: 0.0 }];
//! shrink(&mut pos);
//! assert_eq!((pos[0].x, pos[1].x), (1.0, 0.5));
//! ```
//!
//! Loops over a slice's elements are the index loops they stand for, and are
//! partitioned and translated like them: `for (yi, xi) in
//! y.iter_mut().zip(x.iter()) { *yi += a * xi; }`, `for (i, p) in
//! pos.iter().enumerate()`, `for v in x.iter()` (each element is `s[i]`).
//!
//! **Generic kernels.** A compute function generic over one `T: acc::Float`
//! (`f32`, `f64`: the arithmetic operators, `sqrt`, `abs`, `min`, `max`, and
//! `T::zero()`, `T::one()`, which start a `+`, `*`, `max` or `min` reduction of
//! a `T`) gets one CUDA kernel per float type, and each launch runs the one of `T`:
//!
//! ```
//! #[acc::parallel(copyin(x) copy(y))]
//! fn axpy<T: acc::Float>(a: T, x: &[T], y: &mut [T]) {
//!     #[acc(loop gang vector)]
//!     for i in 0..y.len() {
//!         y[i] += a * x[i];
//!     }
//! }
//! let mut y = vec![1.0f32; 4];
//! axpy(2.0, &[1.0; 4], &mut y);
//! assert_eq!(y, [3.0; 4]);
//!
//! #[acc::parallel(loop gang vector reduction(+:sum))]
//! fn dot<T: acc::Float>(x: &[T], y: &[T]) -> T {
//!     let mut sum = T::zero();
//!     for i in 0..x.len() {
//!         sum += x[i] * y[i];
//!     }
//!     sum
//! }
//! assert_eq!(dot(&[1.0, 2.0], &[3.0, 4.0]), 11.0f64);
//! ```
//!
//! **Routines.** A free function marked `#[acc::routine(seq)]` (or `gang`,
//! `worker`, `vector`: on the GPU every routine runs sequentially in the
//! calling thread, as a `seq` one does) whose parameters are scalars and
//! slices of the subset's types and whose body is in the subset (with
//! `return`) becomes a CUDA `__device__` function, with the same Rust
//! semantics; kernels and other routines call it by name, through `use`
//! or by path, wherever it is defined, and it may recurse. Slices are passed
//! as a pointer and a length; a call that passes a `&mut` slice is a whole
//! statement, `let` value or assigned value (inside a larger expression C
//! would not keep Rust's order of evaluation), and inside a partitioned loop
//! a `&mut` parameter is the host path's `SliceMut` view, which a routine
//! cannot take yet. A type that only the routine's signature decides
//! (`let s = f(x);`, `gcd(i, 36)`) is the signature's, as in Rust. On the
//! CPU devices a routine is the function itself. It goes on free
//! functions: the macro declares a hidden `struct` of the function's name
//! next to it (kernels find the routine's CUDA form through it), so on an
//! associated function rustc says "struct is not supported in `impl`s", and
//! a type or module of the same name in that scope clashes with it; an
//! associated function naming `Self` without taking `self` is left as it is.
//! On an inherent method taking `self` or `&self` (not `&mut self`: return the
//! new value) the form is an associated item of the type instead, and a kernel
//! calls `v.m(..)` when it sees `v`'s type (a slice element, a literal, a typed
//! `let`; `let d: P = f(..);` names a routine's result). A kernel finds a
//! callee's form by its name in the type namespace, so a function it calls
//! that shares its name with a module or crate in scope (`mod geometry` and
//! `fn geometry`) makes rustc report "cannot find value `__acc_routine` in
//! module `__acc_callee`": rename one of them.
//!
//! ```
//! #[acc::routine(seq)]
//! fn clamp(v: f32, hi: f32) -> f32 {
//!     if v > hi {
//!         return hi;
//!     }
//!     v
//! }
//!
//! #[acc::parallel(copy(y))]
//! fn cap(hi: f32, y: &mut [f32]) {
//!     #[acc(loop gang vector)]
//!     for i in 0..y.len() {
//!         y[i] = clamp(y[i], hi);
//!     }
//! }
//! # let mut y = vec![1.0, 5.0];
//! # cap(2.0, &mut y);
//! # assert_eq!(y, [1.0, 2.0]);
//! ```
//!
//! **Rust outside the subset is a compile error** where it stands, as device
//! code outside what nvc supports is: a macro, a type outside the subset, a
//! call of a function that is not an `#[acc::routine]`, host code of a compute
//! function reading slice elements outside the forms above, or a routine whose
//! own body is outside the subset (reported on that body). The function's body
//! runs on the GPU too, so finding out there would be too late; it never runs
//! on the host instead. What only the assembled module can tell (a routine
//! whose signature changed under a caller compiled earlier) is an error on
//! entry on `nvidia`, naming the function, where and why, before any data
//! moves. The generated module is the hidden static `__ACC_CUDA_<NAME>`
//! (`__private::CudaModule`) next to the function; its `complete()` and
//! `reasons()` say whether it has a form and why not.
//!
//! # Soundness: partitioned loops that write slices
//!
//! A loop directive promises, as in OpenACC, that its iterations touch different elements; C
//! takes that on trust, safe Rust may not (two chunks writing one element would be a data
//! race). So inside a partitioned loop a `&mut [T]` parameter the loop only reads is shared by
//! the chunks as a `&[T]`, and one it writes is cut into **windows**: before the loop runs,
//! each chunk's window is estimated from the indices its first and last iterations use (with
//! the loops inside the body at their first and last values), the estimates are checked
//! disjoint — a loop whose chunks would write the same elements panics before any chunk runs
//! — and grown to fill the gaps between them, and every access through a window is checked
//! against it. An index outside the chunk's window panics, naming the slice, the element and
//! the loop, so a wrong estimate costs a panic, never a race.
//!
//! A written slice may therefore only be indexed (`y[e]`) or asked its length inside the loop,
//! and its index must be arithmetic (`+ - * / % << >>`, `min`, `max`, casts) on the loop's
//! indices, the body's immutable `let`s, loops over ranges, and values fixed before the loop;
//! anything else (`y[perm[i]]`, a counter the body changes) is a compile error on the index.
//! Loops whose iterations write different elements in a way the estimate cannot see — a
//! scatter through a permutation, a transpose — go in an `unsafe fn`: there the caller's
//! promise replaces the checks, and written slices are shared unchecked, as in C.
//!
//! ```
//! /// # Safety
//! /// `perm` is a permutation of `0..y.len()`.
//! #[acc::parallel(copyin(perm, x) copyout(y))]
//! unsafe fn scatter(perm: &[usize], x: &[f64], y: &mut [f64]) {
//!     #[acc(loop gang)]
//!     for i in 0..x.len() {
//!         y[perm[i]] = x[i];
//!     }
//! }
//! let mut y = vec![0.0; 3];
//! // SAFETY: [2, 0, 1] is a permutation of 0..3.
//! unsafe { scatter(&[2, 0, 1], &[1.0, 2.0, 3.0], &mut y) };
//! assert_eq!(y, [2.0, 3.0, 1.0]);
//! ```

pub use acc_runtime as runtime;

// The Rust front end: `#[acc::parallel]`, `#[acc::kernels]`, `#[acc::serial]`, `#[acc::data]`,
// `#[acc::routine]` and the `#[acc(loop ...)]` attribute they read (see acc-macros).
pub use acc_macros::{acc, data, kernels, parallel, routine, serial, DeviceCopy};
// The runtime's safe Rust API: device selection, the structured data region `acc::data(...)`
// (a function; `#[acc::data]` is the attribute form) with its clauses, and the mirrored buffer.
pub use acc_runtime::rust::{
    copy, copyin, copyout, create, data, device_num, device_type, is_present, mapped_count,
    no_create, num_devices, present, set_device_num, set_device_type, DeviceCopy, DeviceType,
    Float, Mirror,
};

/// What the macros' expansions call; not an API.
#[doc(hidden)]
pub mod __private {
    pub use acc_runtime::rust::*;
}

/// A symbol the C that acc-build generates refers to: rustc links a
/// dependency only if the crate's Rust code names it, so when nothing names
/// `acc` the link fails, and this name among the undefined symbols says
/// what to do.
#[doc(hidden)]
#[no_mangle]
#[allow(non_upper_case_globals)]
pub static acc_runtime_not_linked__write__use_acc_as_underscore__in_the_crate: u8 = 0;
