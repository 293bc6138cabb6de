//! A launch's reductions: where each result goes (the variable or its present device copy),
//! the private copies' initial values, and combining the chunks' or blocks' copies into the
//! variable in order (`original op part0 op part1 ...`).
//!
//! Looks present data up (`deviceptr`) but never changes the table.

use super::DeviceState;
use crate::device::{DevAddr, Device};
use crate::error::{Error, ErrorKind, Result, Site};
use crate::reduce;
use std::ffi::c_void;

/// One reduction of a kernel launch.
#[derive(Clone, Copy, Debug)]
pub struct Reduction<'a> {
    pub op: reduce::Op,
    pub ty: reduce::Type,
    pub var: usize,
    /// Elements reduced (an array section reduces element by element).
    pub count: usize,
    /// For a type the runtime does not know (a struct, `long double`): the
    /// element size and the compiler-generated functions; `op` and `ty` are
    /// then unused.
    pub custom: Option<CustomReduction>,
    /// Whether a CUDA kernel sets this reduction's slots to the identity itself (a scalar of a
    /// builtin type, `count` 0 in `acc_rt.h`), so that the launch need not preset them.
    pub kernel_sets_slots: bool,
    pub site: Site<'a>,
}

/// A reduction the compiler generated code for.
#[derive(Clone, Copy, Debug)]
pub struct CustomReduction {
    pub size: usize,
    /// Sets a private copy to the operator's identity; the second argument
    /// is the variable's original value (idempotent operators start from
    /// it, which needs no knowledge of the type's limits).
    pub init: unsafe extern "C" fn(*mut c_void, *const c_void),
    /// `acc = acc op part`.
    pub combine: unsafe extern "C" fn(*mut c_void, *const c_void),
}

/// Where a reduction's result goes: the host variable, or its device copy when present.
#[derive(Clone, Copy)]
enum RedTarget {
    Host(usize),
    Device(DevAddr),
}

/// A launch's reductions: operator, type and element count, custom functions, element size,
/// and where each result goes.
pub(super) struct Reds {
    pub(super) ops: Vec<(reduce::Op, reduce::Type, usize)>,
    pub(super) customs: Vec<Option<CustomReduction>>,
    pub(super) sizes: Vec<usize>,
    targets: Vec<RedTarget>,
    /// Per reduction: whether a CUDA launch must preset its slots (see
    /// [`Reduction::kernel_sets_slots`]).
    pub(super) cuda_preset: Vec<bool>,
}

impl Reds {
    pub(super) fn len(&self) -> usize {
        self.ops.len()
    }

    /// The bytes of one private copy of reduction `j`.
    pub(super) fn bytes(&self, j: usize) -> usize {
        self.ops[j].2 * self.sizes[j]
    }

    /// The variables' original values, which custom initialisers start from (empty for the
    /// built-in types).
    ///
    /// # Safety
    /// Every reduction variable holds `count` valid elements.
    pub(super) unsafe fn originals(&self, device: &dyn Device) -> Vec<Vec<u64>> {
        (0..self.len())
            .map(|j| {
                if self.customs[j].is_none() {
                    return Vec::new();
                }
                let bytes = self.bytes(j);
                let mut v = vec![0u64; bytes.div_ceil(8)];
                let p = v.as_mut_ptr().cast::<u8>();
                match self.targets[j] {
                    // SAFETY: the caller guarantees `count` elements at the variable; `v` has
                    // room for them.
                    RedTarget::Host(var) => unsafe {
                        std::ptr::copy_nonoverlapping(var as *const u8, p, bytes)
                    },
                    // SAFETY: `dev` is the variable's device copy, present for the launch.
                    RedTarget::Device(dev) => unsafe { device.copy_to_host(p, dev, bytes) },
                }
                v
            })
            .collect()
    }

    /// Sets one private copy of reduction `j` to its initial value: the operator's identity,
    /// or `init(copy, original)` element by element for a custom reduction.
    ///
    /// # Safety
    /// `copy` has `self.bytes(j)` bytes; `originals` came from [`originals`](Self::originals).
    pub(super) unsafe fn init_copy(&self, j: usize, copy: &mut [u8], originals: &[Vec<u64>]) {
        let (op, ty, count) = self.ops[j];
        match self.customs[j] {
            Some(cr) => {
                let orig = originals[j].as_ptr().cast::<u8>();
                for k in 0..count {
                    // SAFETY: element `k` of the copy and of the original value lie within
                    // their buffers; the functions take one element each.
                    unsafe {
                        (cr.init)(
                            copy.as_mut_ptr().add(k * cr.size).cast(),
                            orig.add(k * cr.size).cast(),
                        )
                    };
                }
            }
            None => reduce::init_elems(op, ty, copy),
        }
    }

    /// Combines private copies into reduction `j`'s variable (its device copy when present),
    /// in order: `original op part0 op part1 ...`.
    ///
    /// # Safety
    /// Each part points at `self.bytes(j)` bytes holding a private copy; the variable holds
    /// `count` valid elements.
    pub(super) unsafe fn combine(
        &self,
        device: &dyn Device,
        j: usize,
        parts: impl Iterator<Item = *const u8>,
    ) {
        let (op, ty, count) = self.ops[j];
        let bytes = self.bytes(j);
        if let Some(cr) = self.customs[j] {
            let mut tmp = vec![0u64; bytes.div_ceil(8)];
            let acc = tmp.as_mut_ptr().cast::<u8>();
            // SAFETY: as for the built-in types below; `combine` takes one element of the
            // accumulated value and one of a part.
            unsafe {
                match self.targets[j] {
                    RedTarget::Host(var) => {
                        std::ptr::copy_nonoverlapping(var as *const u8, acc, bytes)
                    }
                    RedTarget::Device(dev) => device.copy_to_host(acc, dev, bytes),
                }
                for part in parts {
                    for k in 0..count {
                        (cr.combine)(acc.add(k * cr.size).cast(), part.add(k * cr.size).cast());
                    }
                }
                match self.targets[j] {
                    RedTarget::Host(var) => {
                        std::ptr::copy_nonoverlapping(acc, var as *mut u8, bytes)
                    }
                    RedTarget::Device(dev) => device.copy_to_device(dev, acc, bytes),
                }
            }
            return;
        }
        match self.targets[j] {
            // SAFETY: the caller guarantees `count` elements at the variable and the parts.
            RedTarget::Host(var) => unsafe {
                reduce::combine_elems(op, ty, var as *mut c_void, count, parts)
            },
            RedTarget::Device(dev) => {
                let mut tmp = vec![0u64; bytes.div_ceil(8)];
                let p = tmp.as_mut_ptr().cast::<u8>();
                // SAFETY: `dev` is the device copy of the variable (present when the launch
                // was made, and kept so by the construct around it); `tmp` has room for its
                // `count` elements.
                unsafe {
                    device.copy_to_host(p, dev, bytes);
                    reduce::combine_elems(op, ty, p.cast(), count, parts);
                    device.copy_to_device(dev, p, bytes);
                }
            }
        }
    }
}

impl DeviceState {
    /// Checks a launch's reductions and finds where each result goes.
    pub(super) fn plan_reductions(&self, reds: &[Reduction<'_>]) -> Result<Reds> {
        let mut targets = Vec::with_capacity(reds.len());
        for r in reds {
            if r.custom.is_none() && !reduce::valid(r.op, r.ty) {
                return Err(Error::new(
                    ErrorKind::InvalidArgument,
                    &r.site,
                    format!(
                        "reduction operator {:?} is not defined for {:?}",
                        r.op, r.ty
                    ),
                ));
            }
            let dev = if self.shared() {
                0
            } else {
                self.deviceptr(r.var)
            };
            targets.push(if dev != 0 {
                RedTarget::Device(dev)
            } else {
                RedTarget::Host(r.var)
            });
        }
        let ops: Vec<(reduce::Op, reduce::Type, usize)> =
            reds.iter().map(|r| (r.op, r.ty, r.count.max(1))).collect();
        let customs: Vec<Option<CustomReduction>> = reds.iter().map(|r| r.custom).collect();
        let sizes: Vec<usize> = (0..reds.len())
            .map(|j| customs[j].map_or(ops[j].1.size(), |c| c.size))
            .collect();
        Ok(Reds {
            ops,
            customs,
            sizes,
            targets,
            cuda_preset: reds.iter().map(|r| !r.kernel_sets_slots).collect(),
        })
    }
}
