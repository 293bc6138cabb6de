//! The CUDA form of Rust kernels: the [`CudaModule`] a macro emits, registering it
//! ([`cuda_form`]), the [`Gpu`] handle, and [`launch_cuda`] with its kernel arguments
//! ([`KArg`]) and reductions ([`KRed`]); routines' sources are assembled in `routines`.
//!
//! It launches through `runtime::DeviceState::launch_cuda`: a slice argument is passed as
//! `runtime::Arg::Mapped`, so it must be present (mapped by a guard) when the launch is made.

use super::{current, is_gpu, op, routines, Assembled, DeviceCopy, Loc, RoutineCall};
use crate::error::{fatal, Site, Text};
use crate::queue::QueueSel;
use crate::runtime::{self, DeviceState};
use std::marker::PhantomData;

/// The CUDA form of one `#[acc::parallel]`/`kernels`/`serial` function, which the macro emits
/// next to it as a hidden static `__ACC_CUDA_<NAME>`: one CUDA module with a kernel per
/// partitioned loop, following `acc_rt.h`'s launch convention, or why the function has none.
#[derive(Debug)]
pub struct CudaModule {
    /// The Rust function.
    pub function: &'static str,
    /// The CUDA C module without the routines its kernels call (empty when `missing` is not).
    pub source: &'static str,
    /// The kernels' entry names, one per partitioned loop, in source order.
    pub entries: &'static [&'static str],
    /// Why there is no CUDA form: where (file, line) and the reason, per construct.
    pub missing: &'static [(&'static str, u32, &'static str)],
    /// The kernels' calls of `#[acc::routine]` functions, one per call.
    pub calls: &'static [RoutineCall],
    /// The user types the kernels name (`#[derive(DeviceCopy)]` structs, arrays).
    pub types: &'static [super::CudaType],
    /// Where in `source` the kernels start: the routines go before them.
    pub kernels_at: usize,
    /// The source with the routines, or why there is none: computed on first use.
    pub assembled: Assembled,
}

impl CudaModule {
    /// Whether every launch of the function has a CUDA form, routines included.
    pub fn complete(&'static self) -> bool {
        routines::assemble(self).is_ok()
    }

    /// The reasons, one per line, as errors print them.
    pub fn reasons(&'static self) -> String {
        self.problems()
            .iter()
            .map(|(file, line, why)| format!("{file}:{line}: {why}"))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The CUDA C module the runtime compiles: `source` with the routines the kernels call
    /// (`None` without a CUDA form).
    pub fn cuda_source(&'static self) -> Option<&'static str> {
        routines::assemble(self).as_deref().ok()
    }

    fn problems(&'static self) -> &'static [routines::Problem] {
        match routines::assemble(self) {
            Ok(_) => &[],
            Err(p) => p,
        }
    }
}

/// Called on entry to a compute function: on a GPU, a function without a CUDA form is an error
/// (naming the function, where and why), never a silent run on the host with stale data.
pub fn cuda_form(m: &'static CudaModule) {
    if m.complete() {
        return;
    }
    let site = Site::routine("acc");
    let d = current(&site);
    if !is_gpu(d) {
        return;
    }
    let (file, line, _) = m.problems()[0];
    let at = Site {
        file: Text::Str(file),
        line,
        var: Text::None,
        routine: "",
    };
    fatal(&crate::error::Error::new(
        crate::error::ErrorKind::NoDevice,
        &at,
        format!(
            "the Rust function `{}` has no CUDA form, so it cannot run on device {}: {}",
            m.function,
            d.label,
            m.reasons()
        ),
    ))
}

/// The current device when it is a GPU: partitioned loops then launch their CUDA form.
#[derive(Clone, Copy)]
pub struct Gpu(&'static DeviceState);

/// The current device, if it is a GPU.
#[inline]
pub fn gpu() -> Option<Gpu> {
    let d = current(&Site::routine("acc"));
    is_gpu(d).then_some(Gpu(d))
}

/// Scalar types a CUDA kernel receives by value or reduces, with the names the CUDA
/// translation checks its inferred types against.
pub trait KernelValue: Copy + 'static {
    const NAME: &'static str;
    const TYPE: crate::reduce::Type;
}

macro_rules! kernel_value {
    ($($t:ty => $ty:ident),*) => { $(
        impl KernelValue for $t {
            const NAME: &'static str = stringify!($t);
            const TYPE: crate::reduce::Type = crate::reduce::Type::$ty;
        }
    )* };
}
kernel_value!(i8 => I8, i16 => I16, i32 => I32, i64 => I64, isize => I64, u8 => U8, u16 => U16,
    u32 => U32, u64 => U64, usize => U64, f32 => F32, f64 => F64, bool => Bool);

/// One argument of a CUDA launch (see `acc_rt.h`).
pub enum KArg<'a> {
    /// A slice: its device copy's address (it must be present).
    Slice {
        host: usize,
        bytes: usize,
        _borrow: PhantomData<&'a [u8]>,
    },
    /// A value's bytes.
    Value { bytes: [u8; 8], len: usize },
    /// A larger value, in place.
    Bytes {
        ptr: usize,
        len: usize,
        _borrow: PhantomData<&'a [u8]>,
    },
    /// The translation assumed another type than the value has.
    Mismatch {
        want: &'static str,
        got: &'static str,
    },
}

impl<'a> KArg<'a> {
    pub fn slice<T: DeviceCopy>(s: &'a [T]) -> Self {
        KArg::Slice {
            host: s.as_ptr() as usize,
            bytes: size_of_val(s),
            _borrow: PhantomData,
        }
    }

    /// `v` by value; `want` is the Rust type the translation assumed.
    pub fn value<T: KernelValue>(v: &T, want: &'static str) -> Self {
        if T::NAME != want {
            return KArg::Mismatch { want, got: T::NAME };
        }
        Self::signature(v)
    }

    /// `v`, a user type (`#[derive(DeviceCopy)]` struct, array), by value: its bytes, which
    /// the kernel reads as the C struct of the same layout.
    pub fn bytes<T: DeviceCopy>(v: &'a T) -> Self {
        KArg::Bytes {
            ptr: v as *const T as usize,
            len: size_of::<T>(),
            _borrow: PhantomData,
        }
    }

    /// `v` by value, where the kernel takes the type from a routine's signature: rustc checked
    /// that `v` has it.
    pub fn signature<T: KernelValue>(v: &T) -> Self {
        let mut bytes = [0u8; 8];
        let len = size_of::<T>();
        // SAFETY: `T` is a primitive number or `bool` of at most 8 bytes, copied as bytes.
        unsafe {
            std::ptr::copy_nonoverlapping(v as *const T as *const u8, bytes.as_mut_ptr(), len)
        };
        KArg::Value { bytes, len }
    }
}

/// One reduction of a CUDA launch: the variable (holding its original value; the result is
/// combined into it), the operator and the type.
pub struct KRed<'a> {
    var: usize,
    op: crate::reduce::Op,
    ty: crate::reduce::Type,
    mismatch: Option<(&'static str, &'static str)>,
    _borrow: PhantomData<&'a mut u8>,
}

/// The runtime's code for a reduction operator marker.
pub trait OpCode {
    const OP: crate::reduce::Op;
}
macro_rules! op_code {
    ($($m:ident => $o:ident),*) => { $( impl OpCode for op::$m { const OP: crate::reduce::Op = crate::reduce::Op::$o; } )* };
}
op_code!(Add => Add, Mul => Mul, Max => Max, Min => Min, BitAnd => BitAnd, BitOr => BitOr,
    BitXor => BitXor, LogAnd => And, LogOr => Or);

impl<'a> KRed<'a> {
    pub fn new<Op: OpCode, T: KernelValue>(var: &'a mut T, want: &'static str) -> Self {
        KRed {
            var: var as *mut T as usize,
            op: Op::OP,
            ty: T::TYPE,
            mismatch: (T::NAME != want).then_some((want, T::NAME)),
            _borrow: PhantomData,
        }
    }

    /// A reduction whose type the kernel takes from a routine's signature: rustc checked that
    /// `var` has it.
    pub fn signature<Op: OpCode, T: KernelValue>(var: &'a mut T) -> Self {
        Self::new::<Op, T>(var, T::NAME)
    }
}

/// Launches kernel `entry` of `module` on the GPU over `n` iterations and waits for it; the
/// reductions' results are combined into their variables.
#[allow(clippy::too_many_arguments)]
pub fn launch_cuda(
    gpu: Gpu,
    module: &'static CudaModule,
    entry: &'static str,
    loc: Loc,
    n: i64,
    num_gangs: Option<u32>,
    args: &[KArg<'_>],
    reds: &mut [KRed<'_>],
) {
    let site = loc.site("");
    let mismatch = args
        .iter()
        .filter_map(|a| match a {
            KArg::Mismatch { want, got } => Some((*want, *got)),
            _ => None,
        })
        .chain(reds.iter().filter_map(|r| r.mismatch))
        .next();
    if let Some((want, got)) = mismatch {
        fatal(&crate::error::Error::new(
            crate::error::ErrorKind::NoDevice,
            &site,
            format!(
                "the CUDA form of the Rust function `{}` assumed a value of type `{want}`, but \
                 it is `{got}`; annotate the variable's type (`let v: {got} = ...`) so the \
                 translation agrees",
                module.function
            ),
        ))
    }
    let rt_args: Vec<runtime::Arg<'_>> = args
        .iter()
        .map(|a| match a {
            KArg::Slice { host, bytes, .. } if *bytes > 0 => runtime::Arg::Mapped {
                host: *host,
                bytes: *bytes,
                site,
            },
            KArg::Slice { .. } => runtime::Arg::DevicePtr(0),
            KArg::Value { bytes, len } => runtime::Arg::Value {
                ptr: bytes.as_ptr() as usize,
                bytes: *len,
            },
            KArg::Bytes { ptr, len, .. } => runtime::Arg::Value {
                ptr: *ptr,
                bytes: *len,
            },
            KArg::Mismatch { .. } => unreachable!("reported above"),
        })
        .collect();
    let rt_reds: Vec<runtime::Reduction<'_>> = reds
        .iter()
        .map(|r| runtime::Reduction {
            op: r.op,
            ty: r.ty,
            var: r.var,
            count: 1,
            custom: None,
            // acc-macros' CUDA kernels set every scalar reduction's slots themselves.
            kernel_sets_slots: true,
            site,
        })
        .collect();
    // Generated code checked `cuda_form` on entry. The source lives as long as the program, so
    // its address identifies it in the loaded-kernel cache.
    let Some(source) = module.cuda_source() else {
        fatal(&crate::error::Error::new(
            crate::error::ErrorKind::NoDevice,
            &site,
            format!(
                "the Rust function `{}` has no CUDA form: {}",
                module.function,
                module.reasons()
            ),
        ))
    };
    let k = runtime::CudaKernel {
        name: crate::error::Text::Str(entry),
        file: crate::error::Text::Str(loc.file),
        line: loc.line,
        source: crate::error::Text::Str(source),
        entry: crate::error::Text::Str(entry),
        key: (source.as_ptr() as usize, entry.as_ptr() as usize),
        lanes: crate::device::cuda::Lanes::None,
    };
    let geom = runtime::Geometry {
        iterations: n.max(0),
        num_gangs: num_gangs.map_or(0, |g| g.min(i32::MAX as u32) as i32),
        num_workers: 0,
        vector_length: 0,
    };
    // SAFETY: the module was generated by acc-macros for this launch: the kernel's parameters
    // are `args` in order (slices as device addresses of present data, values of the types
    // checked above) and its reductions `reds`, whose variables are live and borrowed
    // mutably for this synchronous launch.
    let r = unsafe {
        gpu.0
            .launch_cuda(&k, geom, &rt_args, &rt_reds, QueueSel::Sync, &site)
    };
    if let Err(e) = r {
        fatal(&e)
    }
}
