//! Kernel launches (`acc_rt_launch`, `acc_rt_launch_v`): the kernel, configuration, argument
//! and reduction descriptors of `acc_rt.h`, translated into the runtime's [`Arg`]s,
//! [`Reduction`]s and [`Geometry`], then launched on the current device (its CUDA version on
//! an `nvidia` device, its host function elsewhere), with the construct's profiling events
//! when the file registered no site table.
//!
//! It owns no state; it only checks and translates descriptors and calls `runtime`.

use crate::error::{Error, ErrorKind, Result, Site, Text};
use crate::ffi::guard;
use crate::prof;
use crate::queue::QueueSel;
use crate::reduce;
use crate::runtime::{self, queue_sel, Arg, Chunk, Geometry, Reduction};
use std::ffi::{c_char, c_int, c_void, CStr};

/// `acc_rt_kernel`: what is launched.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AccRtKernel {
    pub name: *const c_char,
    pub file: *const c_char,
    pub line: i32,
    pub host_fn: Option<unsafe extern "C" fn(*const Chunk)>,
    pub cuda_source: *const c_char,
    pub cuda_entry: *const c_char,
    /// Nonzero: one gang iteration per CUDA block (`acc_rt.h`).
    pub cuda_lanes: i32,
}

/// `acc_rt_config`: how it is launched.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AccRtConfig {
    pub iterations: i64,
    pub num_gangs: i32,
    pub num_workers: i32,
    pub vector_length: i32,
    pub async_arg: i32,
}

/// `acc_rt_arg`: one kernel argument.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AccRtArg {
    pub kind: u32,
    pub host: *mut c_void,
    pub bytes: usize,
    pub text: *const c_char,
}

/// `acc_rt_reduction`: one reduction of a launch.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AccRtReduction {
    pub op: u32,
    pub ty: u32,
    pub var: *mut c_void,
    pub text: *const c_char,
    /// Elements reduced; 0 means 1 (a scalar), so older initializers stay valid.
    pub count: usize,
    /// For `ACC_RT_TYPE_CUSTOM`: the element size and the generated functions.
    pub size: usize,
    pub init: Option<unsafe extern "C" fn(*mut c_void, *const c_void)>,
    pub combine: Option<unsafe extern "C" fn(*mut c_void, *const c_void)>,
}

/// `ACC_RT_TYPE_CUSTOM`: a reduction the compiler generated functions for.
pub const ACC_RT_TYPE_CUSTOM: u32 = 14;

pub const ACC_RT_ARG_MAPPED: u32 = 1;
pub const ACC_RT_ARG_NO_CREATE: u32 = 2;
pub const ACC_RT_ARG_DEVICEPTR: u32 = 3;
pub const ACC_RT_ARG_VALUE: u32 = 4;
pub const ACC_RT_ARG_POINTER: u32 = 5;
pub const ACC_RT_ARG_PRIVATE: u32 = 6;
pub const ACC_RT_ARG_FIRSTPRIVATE: u32 = 7;

/// A kernel launch.
#[no_mangle]
pub unsafe extern "C" fn acc_rt_launch(
    kernel: *const AccRtKernel,
    config: *const AccRtConfig,
    args: *const AccRtArg,
    nargs: usize,
    reds: *const AccRtReduction,
    nreds: usize,
) {
    guard("acc_rt_launch", || {
        // SAFETY: generated code passes valid descriptors that live across the call.
        let (k, cfg) = unsafe { (&*kernel, &*config) };
        // SAFETY: the descriptor's strings are null or NUL-terminated literals.
        let site = Site {
            routine: "acc_rt_launch",
            ..unsafe { Site::c(k.file, k.line, k.name) }
        };
        // Generated code passes a `num_gangs`, `num_workers` or `vector_length` the program
        // gave as -1 when it is not positive (0 is "not given").
        for (what, v) in [
            ("num_gangs", cfg.num_gangs),
            ("num_workers", cfg.num_workers),
            ("vector_length", cfg.vector_length),
        ] {
            if v < 0 {
                return Err(Error::new(
                    ErrorKind::InvalidArgument,
                    &site,
                    format!(
                        "the value of `{what}` is not positive (OpenACC 3.3 2.5.10-2.5.12 ask \
                         for a positive integer)"
                    ),
                ));
            }
        }
        let d = runtime::current(&site)?;
        let q = queue_sel(cfg.async_arg, &site)?;
        if !prof::active() {
            // SAFETY: forwarded from the caller.
            return unsafe { launch_on(d, k, cfg, args, nargs, reds, nreds, q, &site) };
        }
        // A compute construct whose file registered no site table (code not from acc cc)
        // has its construct events here, around the launch.
        let at = d.prof_origin(q, &site);
        let construct = Some(prof::construct_of_kernel(
            // SAFETY: the kernel's name is null or a NUL-terminated literal.
            (!k.name.is_null()).then(|| unsafe { CStr::from_ptr(k.name) }),
        ))
        .filter(|_| prof::site_construct(&site).is_none());
        if let Some(c) = construct {
            prof::other(prof::Event::ComputeConstructStart, &at, Some(c));
        }
        // SAFETY: forwarded from the caller.
        let done = unsafe { launch_on(d, k, cfg, args, nargs, reds, nreds, q, &site) };
        if let Some(c) = construct {
            prof::other(prof::Event::ComputeConstructEnd, &at, Some(c));
        }
        done
    })
}

/// The launch itself, between the profiling events of [`acc_rt_launch`]: the descriptors
/// translated, then the kernel's CUDA version launched on an `nvidia` device, its host function
/// elsewhere.
///
/// # Safety
/// As for [`acc_rt_launch`].
#[allow(clippy::too_many_arguments)]
unsafe fn launch_on(
    d: &'static runtime::DeviceState,
    k: &AccRtKernel,
    cfg: &AccRtConfig,
    args: *const AccRtArg,
    nargs: usize,
    reds: *const AccRtReduction,
    nreds: usize,
    q: QueueSel,
    site: &Site<'_>,
) -> Result<()> {
    let site = *site;
    // SAFETY: forwarded from the caller.
    let a = unsafe { kernel_args(args, nargs, &site) }?;
    // SAFETY: forwarded from the caller.
    let rs = unsafe { kernel_reductions(reds, nreds, &site) }?;
    let geom = Geometry {
        iterations: cfg.iterations,
        num_gangs: cfg.num_gangs,
        num_workers: cfg.num_workers,
        vector_length: cfg.vector_length,
    };
    if d.device.cuda().is_some() {
        // SAFETY: forwarded from the caller.
        return unsafe { launch_cuda_version(d, k, geom, &a, &rs, q, &site) };
    }
    let Some(f) = k.host_fn else {
        // SAFETY: generated code passes a NUL-terminated literal that lives for the program.
        let name = unsafe { Text::C(k.name).lossy() };
        return Err(Error::new(
            ErrorKind::NoDevice,
            &site,
            format!(
                "kernel '{name}' has no host function for device {}",
                d.label
            ),
        ));
    };
    let check = crate::check::begin_launch(d, &a, &site);
    // SAFETY: generated code's kernel follows the chunk layout of acc_rt.h, and its value
    // arguments and reduction variables are valid as the header requires.
    let done = unsafe { d.launch(f, geom, &a, &rs, q, &site) };
    crate::check::end(check);
    done
}

/// A launch's argument descriptors as the runtime's [`Arg`]s.
///
/// # Safety
/// `args` points at `nargs` descriptors (or `nargs` is 0); private sections' descriptors
/// point at their two words.
unsafe fn kernel_args<'a>(
    args: *const AccRtArg,
    nargs: usize,
    site: &Site<'a>,
) -> Result<Vec<Arg<'a>>> {
    let site = *site;
    let raw_args = if args.is_null() || nargs == 0 {
        &[][..]
    } else {
        // SAFETY: generated code passes `nargs` argument descriptors.
        unsafe { std::slice::from_raw_parts(args, nargs) }
    };
    let mut a = Vec::with_capacity(raw_args.len());
    for r in raw_args {
        let asite = site.with_var(Text::C(r.text));
        a.push(match r.kind {
            ACC_RT_ARG_MAPPED => Arg::Mapped {
                host: r.host as usize,
                bytes: r.bytes,
                site: asite,
            },
            ACC_RT_ARG_NO_CREATE => Arg::MappedOrHost {
                host: r.host as usize,
                bytes: r.bytes,
            },
            ACC_RT_ARG_DEVICEPTR => Arg::DevicePtr(r.host as usize),
            ACC_RT_ARG_POINTER => Arg::Pointer {
                host: r.host as usize,
                // SAFETY: generated code passes a NUL-terminated text or null.
                site: site.with_var(Text::C(r.text)),
            },
            ACC_RT_ARG_VALUE => Arg::Value {
                ptr: r.host as usize,
                bytes: r.bytes,
            },
            ACC_RT_ARG_PRIVATE | ACC_RT_ARG_FIRSTPRIVATE if !r.host.is_null() => {
                let section = r.host as *const usize;
                // SAFETY: for these kinds generated code passes the address of two words:
                // the section's host address and its size in bytes.
                let (host, bytes) = unsafe { (*section, *section.add(1)) };
                Arg::PrivateSection {
                    host,
                    bytes,
                    first: r.kind == ACC_RT_ARG_FIRSTPRIVATE,
                }
            }
            other => {
                return Err(Error::new(
                    ErrorKind::InvalidArgument,
                    &asite,
                    format!("unknown kernel argument kind {other}"),
                ))
            }
        });
    }
    Ok(a)
}

/// A launch's reduction descriptors as the runtime's [`Reduction`]s.
///
/// # Safety
/// `reds` points at `nreds` descriptors (or `nreds` is 0).
unsafe fn kernel_reductions<'a>(
    reds: *const AccRtReduction,
    nreds: usize,
    site: &Site<'a>,
) -> Result<Vec<Reduction<'a>>> {
    let site = *site;
    let raw_reds = if reds.is_null() || nreds == 0 {
        &[][..]
    } else {
        // SAFETY: generated code passes `nreds` reduction descriptors.
        unsafe { std::slice::from_raw_parts(reds, nreds) }
    };
    let mut rs = Vec::with_capacity(raw_reds.len());
    for r in raw_reds {
        let rsite = site.with_var(Text::C(r.text));
        if r.ty == ACC_RT_TYPE_CUSTOM {
            let (Some(init), Some(combine)) = (r.init, r.combine) else {
                return Err(Error::new(
                    ErrorKind::InvalidArgument,
                    &rsite,
                    "a custom reduction needs its init and combine functions".to_string(),
                ));
            };
            if r.size == 0 {
                return Err(Error::new(
                    ErrorKind::InvalidArgument,
                    &rsite,
                    "a custom reduction needs its element size".to_string(),
                ));
            }
            rs.push(Reduction {
                op: reduce::Op::Add,
                ty: reduce::Type::U8,
                var: r.var as usize,
                count: r.count.max(1),
                kernel_sets_slots: false,
                custom: Some(crate::runtime::CustomReduction {
                    size: r.size,
                    init,
                    combine,
                }),
                site: rsite,
            });
            continue;
        }
        let (Some(op), Some(ty)) = (reduce::Op::from_code(r.op), reduce::Type::from_code(r.ty))
        else {
            return Err(Error::new(
                ErrorKind::InvalidArgument,
                &rsite,
                format!("unknown reduction operator {} or type {}", r.op, r.ty),
            ));
        };
        rs.push(Reduction {
            op,
            ty,
            var: r.var as usize,
            count: r.count.max(1),
            custom: None,
            kernel_sets_slots: r.count == 0,
            site: rsite,
        });
    }
    Ok(rs)
}

/// Launches the CUDA version of kernel `k` on `d`, an `nvidia` device.
///
/// # Safety
/// As for [`acc_rt_launch`].
unsafe fn launch_cuda_version(
    d: &'static runtime::DeviceState,
    k: &AccRtKernel,
    geom: Geometry,
    args: &[Arg<'_>],
    reds: &[Reduction<'_>],
    q: QueueSel,
    site: &Site<'_>,
) -> Result<()> {
    if k.cuda_source.is_null() || k.cuda_entry.is_null() {
        // SAFETY: generated code passes a NUL-terminated literal that lives for the program.
        let name = unsafe { Text::C(k.name).lossy() };
        return Err(Error::new(
            ErrorKind::NoDevice,
            site,
            format!(
                "kernel '{name}' was compiled without a CUDA version, so it cannot run \
                 on device {} (`acc cc --info` says why; a compiler other than acc cc \
                 makes none); run it with ACC_DEVICE_TYPE=host",
                d.label
            ),
        ));
    }
    let ck = runtime::CudaKernel {
        name: Text::C(k.name),
        file: Text::C(k.file),
        line: k.line.max(0) as u32,
        source: Text::C(k.cuda_source),
        entry: Text::C(k.cuda_entry),
        key: (k.cuda_source as usize, k.cuda_entry as usize),
        lanes: crate::device::cuda::Lanes::from_code(k.cuda_lanes),
    };
    // SAFETY: generated code's CUDA kernel follows the parameter convention of
    // acc_rt.h, and its value arguments and reduction variables are valid as the
    // header requires; its texts are literals that live for the program.
    unsafe { d.launch_cuda(&ck, geom, args, reds, q, site) }
}

/// `acc_rt_arg_info`: the constant part of a kernel argument.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AccRtArgInfo {
    pub kind: u32,
    pub bytes: usize,
    pub text: *const c_char,
}

/// `acc_rt_reduction_info`: the constant part of a reduction.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AccRtReductionInfo {
    pub op: u32,
    pub ty: u32,
    pub text: *const c_char,
    pub size: usize,
    pub init: Option<unsafe extern "C" fn(*mut c_void, *const c_void)>,
    pub combine: Option<unsafe extern "C" fn(*mut c_void, *const c_void)>,
}

/// [`acc_rt_launch`] with the configuration by value and the arguments and reductions split
/// into constant and variable parts: argument `i` is `arg_info[i]` at `arg_vals[i]`;
/// reduction `j` is `red_info[j]` with the variable at `red_vals[2j]` and the element count in
/// `red_vals[2j + 1]`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn acc_rt_launch_v(
    kernel: *const AccRtKernel,
    iterations: i64,
    num_gangs: i32,
    num_workers: i32,
    vector_length: i32,
    async_arg: c_int,
    arg_info: *const AccRtArgInfo,
    arg_vals: *const *mut c_void,
    nargs: usize,
    red_info: *const AccRtReductionInfo,
    red_vals: *const *mut c_void,
    nreds: usize,
) {
    let args: Vec<AccRtArg> = if nargs == 0 || arg_info.is_null() || arg_vals.is_null() {
        Vec::new()
    } else {
        // SAFETY: generated code passes `nargs` infos and values.
        let (info, vals) = unsafe {
            (
                std::slice::from_raw_parts(arg_info, nargs),
                std::slice::from_raw_parts(arg_vals, nargs),
            )
        };
        info.iter()
            .zip(vals)
            .map(|(a, &v)| AccRtArg {
                kind: a.kind,
                host: v,
                bytes: a.bytes,
                text: a.text,
            })
            .collect()
    };
    let reds: Vec<AccRtReduction> = if nreds == 0 || red_info.is_null() || red_vals.is_null() {
        Vec::new()
    } else {
        // SAFETY: generated code passes `nreds` infos and `2 nreds` values.
        let (info, vals) = unsafe {
            (
                std::slice::from_raw_parts(red_info, nreds),
                std::slice::from_raw_parts(red_vals, 2 * nreds),
            )
        };
        info.iter()
            .enumerate()
            .map(|(j, r)| AccRtReduction {
                op: r.op,
                ty: r.ty,
                var: vals[2 * j],
                text: r.text,
                count: vals[2 * j + 1] as usize,
                size: r.size,
                init: r.init,
                combine: r.combine,
            })
            .collect()
    };
    let config = AccRtConfig {
        iterations,
        num_gangs,
        num_workers,
        vector_length,
        async_arg,
    };
    // SAFETY: the descriptors are complete; the kernel is the caller's.
    unsafe {
        acc_rt_launch(
            kernel,
            &config,
            args.as_ptr(),
            args.len(),
            reds.as_ptr(),
            reds.len(),
        )
    }
}
