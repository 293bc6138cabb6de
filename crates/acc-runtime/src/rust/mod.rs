//! The safe Rust API of the runtime: what `#[acc::parallel]` expands to and what Rust programs
//! call directly (device selection, the mirrored buffer [`Mirror`]).
//!
//! It is a thin layer over [`crate::runtime`]: data clauses become structured enter/exit actions
//! on the current device's present table, a partitioned loop becomes a launch on the device's
//! executor. Errors end the process through [`crate::error::fatal`], as they do for C.
//!
//! **Why the device views are sound.** On `host_discrete` a kernel works on the device copy of
//! a slice: a `&[T]`/`&mut [T]` built from the device address the present table returned. The
//! device memory is CPU memory owned by the present-table entry, and the entry lives while the
//! guard ([`MapRef`]/[`MapMut`]) holds its structured reference count. The view borrows the
//! guard, and the guard borrows the host slice (mutably for a `&mut` view), so the host-to-device
//! mapping being one-to-one means Rust's borrow of the host slice carries over to its device
//! copy: no other view of the same device memory can exist while a `&mut` view does. Element
//! types are [`DeviceCopy`]: every bit pattern is a valid value, since new device memory is
//! poisoned.
//!
//! Layout: this module holds [`DeviceCopy`], device selection ([`set_device_type`], the
//! current device) and [`Loc`]; `region` profiling regions; `map` the guards of data clauses
//! and [`Mirror`]; `clauses` the builders of `acc::data`; `launch` host launches and loop
//! helpers; `reductions` the reduction operators; `owned` launches over owned windows; `cuda`
//! the CUDA form of kernels, with `routines` for `#[acc::routine]` functions.

use crate::device::DeviceKind;
use crate::error::{fatal, Site, Text};
use crate::runtime::{self, DeviceState};

mod clauses;
mod cuda;
mod launch;
mod map;
mod reductions;
mod region;

pub use clauses::{
    copy, copyin, copyout, create, data, no_create, present, Clause, Clauses, SliceRef, Views,
};
pub use cuda::{cuda_form, gpu, launch_cuda, CudaModule, Gpu, KArg, KRed, KernelValue, OpCode};
use launch::{blocks, chunks_of, run_chunks};
pub use launch::{
    bounds, bounds_inclusive, firstprivate, launch, nth, Firstprivate, LoopIndex, SliceMut,
};
pub use map::{DataClause, MapMut, MapRef, Mirror};
pub use reductions::{combine, identity, op, Reduce};
pub use region::{Region, RegionExit};

mod owned;
pub use owned::{
    est, est_div, est_rem, est_shl, est_shr, launch_owned, widen, EstimateValue, Extent, Owned,
    Owners, Window, NO_INDEX,
};

/// Element types that may live in device memory: plain numbers, for which every bit pattern is
/// a valid value (new device memory is poisoned) and a byte copy is a copy, arrays of them, and
/// `#[repr(C)]` structs of them (`#[derive(acc::DeviceCopy)]`).
///
/// # Safety
/// Every bit pattern of `size_of::<Self>()` bytes is a valid `Self`, and `Self` has no padding
/// and no pointers. [`DeviceCopy::__acc_c_type`], when it gives a name, declares a C type with
/// the same layout.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be mapped to a device: it is not `DeviceCopy`",
    label = "not a number, an array of them or a `#[derive(acc::DeviceCopy)]` struct",
    note = "device data is numbers, arrays of them and `#[repr(C)] #[derive(Clone, Copy, \
            acc::DeviceCopy)]` structs of them"
)]
pub unsafe trait DeviceCopy: Copy + Send + Sync + 'static {
    /// The C type of `Self` in a CUDA module, declaring it (and what it needs) in `out`;
    /// empty when it has none.
    #[doc(hidden)]
    fn __acc_c_type(out: &mut CTypes) -> String {
        let _ = out;
        String::new()
    }
}

macro_rules! device_copy {
    ($($t:ty => $c:literal)*) => { $(
        // SAFETY: a primitive number: no padding, every bit pattern valid; `$c` is its C type.
        unsafe impl DeviceCopy for $t {
            fn __acc_c_type(_: &mut CTypes) -> String {
                $c.to_string()
            }
        }
    )* };
}
device_copy!(i8 => "signed char" i16 => "short" i32 => "int" i64 => "long long"
    isize => "long long" u8 => "unsigned char" u16 => "unsigned short" u32 => "unsigned int"
    u64 => "unsigned long long" usize => "unsigned long long" f32 => "float" f64 => "double");
// SAFETY: no C type (the CUDA form has no 128-bit integers); otherwise as above.
unsafe impl DeviceCopy for i128 {}
// SAFETY: as for `i128`.
unsafe impl DeviceCopy for u128 {}
// SAFETY: an array of such values has no padding and every bit pattern is valid; the C type is
// `struct { T v[N]; }`, whose layout is the array's.
unsafe impl<T: DeviceCopy, const N: usize> DeviceCopy for [T; N] {
    fn __acc_c_type(out: &mut CTypes) -> String {
        let t = T::__acc_c_type(out);
        if t.is_empty() {
            return t;
        }
        format!("__acc_arr<{t}, {N}ULL>")
    }
}

/// The float types a generic compute function is written over (`fn axpy<T: acc::Float>(..)`):
/// `f32` and `f64`. Its CUDA form has a kernel per type, and a launch runs the one of `Self`.
/// A variable of the type can be a `+`, `*`, `max` or `min` reduction's, starting from
/// [`Float::zero`] or [`Float::one`].
pub trait Float:
    DeviceCopy
    + KernelValue
    + PartialOrd
    + Reduce<op::Add>
    + Reduce<op::Mul>
    + Reduce<op::Max>
    + Reduce<op::Min>
    + core::ops::Add<Output = Self>
    + core::ops::Sub<Output = Self>
    + core::ops::Mul<Output = Self>
    + core::ops::Div<Output = Self>
    + core::ops::Neg<Output = Self>
    + core::ops::AddAssign
    + core::ops::SubAssign
    + core::ops::MulAssign
    + core::ops::DivAssign
{
    /// The kernel of a generic function for `Self`, from its instantiations.
    #[doc(hidden)]
    fn __acc_pick(f32: &'static str, f64: &'static str) -> &'static str;
    /// `0.0`.
    fn zero() -> Self;
    /// `1.0`.
    fn one() -> Self;
    /// The square root.
    fn sqrt(self) -> Self;
    /// `|self|`.
    fn abs(self) -> Self;
    /// The smaller of two values (the other one when one is NaN).
    fn min(self, other: Self) -> Self;
    /// The larger of two values (the other one when one is NaN).
    fn max(self, other: Self) -> Self;
}

macro_rules! float {
    ($($t:ident $pick:literal)*) => { $(
        impl Float for $t {
            #[inline]
            fn __acc_pick(f32: &'static str, f64: &'static str) -> &'static str {
                [f32, f64][$pick]
            }
            #[inline]
            fn zero() -> Self {
                0.0
            }
            #[inline]
            fn one() -> Self {
                1.0
            }
            #[inline]
            fn sqrt(self) -> Self {
                $t::sqrt(self)
            }
            #[inline]
            fn abs(self) -> Self {
                $t::abs(self)
            }
            #[inline]
            fn min(self, other: Self) -> Self {
                $t::min(self, other)
            }
            #[inline]
            fn max(self, other: Self) -> Self {
                $t::max(self, other)
            }
        }
    )* };
}
float!(f32 0 f64 1);

/// The device types a Rust program can select (`ACC_DEVICE_TYPE` chooses the initial one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceType {
    /// The host, sharing memory with the program.
    Host,
    /// Separate memory on the CPU: every transfer really happens.
    HostDiscrete,
    /// An NVIDIA GPU: kernels run their CUDA form (see [`CudaModule`]).
    Nvidia,
}

/// Makes `ty` (device 0 of it) the calling thread's current device.
pub fn set_device_type(ty: DeviceType) {
    let kind = kind_of(ty);
    let site = Site::routine("acc::set_device_type");
    if let Err(e) = runtime::set_current(kind, 0, &site) {
        fatal(&e)
    }
}

fn kind_of(ty: DeviceType) -> DeviceKind {
    match ty {
        DeviceType::Host => DeviceKind::Host,
        DeviceType::HostDiscrete => DeviceKind::HostDiscrete,
        DeviceType::Nvidia => DeviceKind::Nvidia,
    }
}

/// How many devices of type `ty` this process has (`acc_get_num_devices`): 1 for `Host`,
/// `ACC_HOST_DISCRETE_DEVICES` (default 1) for `HostDiscrete`, the GPUs for `Nvidia`.
pub fn num_devices(ty: DeviceType) -> usize {
    match runtime::runtime() {
        Ok(rt) => rt.count(kind_of(ty)),
        Err(e) => fatal(&e),
    }
}

/// Makes device `num` of the current device type the calling thread's current device
/// (`acc_set_device_num`): an MPI rank picks `local_rank % num_devices(ty)`. Every data
/// clause, mirror and kernel the thread runs after it, and the async queues they use, are that
/// device's.
pub fn set_device_num(num: usize) {
    let site = Site::routine("acc::set_device_num");
    let kind = current(&site).kind();
    if let Err(e) = runtime::set_current(kind, num, &site) {
        fatal(&e)
    }
}

/// The number of the calling thread's current device among the devices of its type.
pub fn device_num() -> usize {
    current(&Site::routine("acc::device_num")).device.number()
}

/// The calling thread's current device type.
pub fn device_type() -> DeviceType {
    match current(&Site::routine("acc::device_type")).kind() {
        DeviceKind::HostDiscrete => DeviceType::HostDiscrete,
        DeviceKind::Nvidia => DeviceType::Nvidia,
        _ => DeviceType::Host,
    }
}

/// How many data mappings the current device holds (0 on a shared-memory device), for tests.
pub fn mapped_count() -> usize {
    current(&Site::routine("acc::mapped_count")).mapped_count()
}

/// Whether `data` is present on the current device (always, on a shared-memory device).
pub fn is_present<T>(data: &[T]) -> bool {
    current(&Site::routine("acc::is_present")).is_present(data.as_ptr() as usize, size_of_val(data))
}

/// The device Rust kernels and data clauses use: the calling thread's current device.
fn current(site: &Site<'_>) -> &'static DeviceState {
    runtime::current(site).unwrap_or_else(|e| fatal(&e))
}

/// Whether the device is a GPU, whose memory the host cannot read: there a view of mapped
/// data is the host slice, and kernels run their CUDA form.
fn is_gpu(d: &DeviceState) -> bool {
    d.device.cuda().is_some()
}

/// Where generated code comes from, for error messages and profiling events.
#[derive(Clone, Copy, Debug)]
pub struct Loc {
    pub file: &'static str,
    pub line: u32,
}

impl Loc {
    fn site(self, var: &'static str) -> Site<'static> {
        Site {
            file: Text::Str(self.file),
            line: self.line,
            var: if var.is_empty() {
                Text::None
            } else {
                Text::Str(var)
            },
            routine: "",
        }
    }
}

mod routines;
pub use routines::{not_a_routine, Assembled, CudaRoutine, NotARoutine, RoutineCall};
mod types;
pub use types::{CTypes, CudaType};
