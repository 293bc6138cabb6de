//! A module linked with the routine libraries of other files that its kernels call
//! (`crate::device_code`): every part compiled by NVRTC as relocatable device code
//! (`-rdc=true`, each cached on disk like any image), then linked by the driver
//! (`cuLinkCreate` … `cuLinkComplete`) into the image the module is loaded from.
//!
//! It must not decide what to link: `device_code::link_plan` does.

use super::{describe, CudaDevice};
use crate::device_code::Library;
use crate::jit;
use cudarc::driver::result as cu;
use cudarc::driver::sys as cusys;
use std::ffi::{c_void, CString};

/// The NVRTC option of a part of a linked module.
const RELOCATABLE: &str = "-rdc=true";

impl CudaDevice {
    /// The image of `k`'s module linked with `libraries`, for `target`. The error is a complete
    /// message: the kernel, the files, and NVRTC's or the linker's log.
    pub(super) fn linked_image(
        &self,
        k: &jit::KernelSource<'_>,
        target: jit::Target,
        libraries: &[Library],
    ) -> Result<Vec<u8>, String> {
        let mut parts = vec![(
            jit::image_with(k, target, &[RELOCATABLE])?,
            k.file.to_string(),
        )];
        for lib in libraries {
            let routines = jit::KernelSource {
                name: "routine library",
                file: &lib.file,
                line: 0,
                source: lib.source,
            };
            parts.push((
                jit::image_with(&routines, target, &[RELOCATABLE])?,
                lib.file.clone(),
            ));
        }
        self.bind();
        let files: Vec<String> = parts[1..].iter().map(|(_, f)| f.clone()).collect();
        // SAFETY: the parts are NVRTC's images for `target`, of this device's architecture.
        unsafe { link(&mut parts, target) }.map_err(|why| {
            format!(
                "{}kernel '{}': linking its module with the routines of {} failed: {why}",
                k.location(),
                k.name,
                files.join(", ")
            )
        })
    }

    /// Points the linked `library`'s pointers to its file-scope variables at their device
    /// copies (`device_address` of each host address: present, as a `declare` made them), in
    /// the loaded `module`.
    pub(super) fn bind_library_globals(
        &self,
        module: cusys::CUmodule,
        library: &Library,
        device_address: &dyn Fn(usize) -> Option<u64>,
    ) -> Result<(), String> {
        for (symbol, host) in &library.globals {
            let name = symbol.trim_start_matches("__acc_lg_");
            let name = name.split_once('_').map_or(name, |(_, n)| n);
            let Some(dev) = device_address(*host) else {
                return Err(format!(
                    "the routines of {} use `{name}`, which is not present on device {} (its \
                     `declare` directive makes it present when the program starts)",
                    library.file,
                    self.label()
                ));
            };
            let cname = CString::new(symbol.as_str()).map_err(|_| "a name contains NUL")?;
            // SAFETY: `module` was just loaded into the current context.
            let (at, bytes) = unsafe { cu::module::get_global(module, cname) }.map_err(|e| {
                format!(
                    "the routine library of {} lacks {symbol}: {}",
                    library.file,
                    describe(e)
                )
            })?;
            if bytes != std::mem::size_of::<u64>() {
                return Err(format!(
                    "{symbol} of {} is {bytes} bytes, not a pointer",
                    library.file
                ));
            }
            // SAFETY: `at` is the 8-byte pointer variable of the loaded module.
            unsafe { cu::memcpy_htod_sync(at, &[dev]) }
                .map_err(|e| format!("setting {symbol}: {}", describe(e)))?;
        }
        Ok(())
    }
}

/// Links `parts` (images and the names of their files) with the driver's linker into one
/// CUBIN. The context is current.
///
/// # Safety
/// Each part is a relocatable CUBIN, or PTX, as `target` says.
unsafe fn link(parts: &mut [(Vec<u8>, String)], target: jit::Target) -> Result<Vec<u8>, String> {
    use cusys::CUjit_option::{CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    let mut log = vec![0u8; 16 * 1024];
    let mut options = [CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES];
    let mut values = [log.as_mut_ptr().cast::<c_void>(), log.len() as *mut c_void];
    let mut state: cusys::CUlinkState = std::ptr::null_mut();
    let read_log = |log: &[u8]| {
        let end = log.iter().position(|&b| b == 0).unwrap_or(log.len());
        String::from_utf8_lossy(&log[..end]).trim_end().to_string()
    };
    // SAFETY: two options with their values; `log` outlives the state (destroyed below).
    unsafe { cusys::cuLinkCreate_v2(2, options.as_mut_ptr(), values.as_mut_ptr(), &mut state) }
        .result()
        .map_err(|e| format!("cuLinkCreate: {}", describe(e)))?;
    let input = match target.output {
        jit::Output::Cubin => cusys::CUjitInputType::CU_JIT_INPUT_CUBIN,
        jit::Output::Ptx => cusys::CUjitInputType::CU_JIT_INPUT_PTX,
    };
    let mut linked = Ok(Vec::new());
    for (image, file) in parts.iter_mut() {
        if input == cusys::CUjitInputType::CU_JIT_INPUT_PTX && image.last() != Some(&0) {
            image.push(0);
        }
        let name = CString::new(file.replace('\0', "")).unwrap_or_default();
        // SAFETY: `state` is live; `image` is `len` readable bytes the linker copies.
        let added = unsafe {
            cusys::cuLinkAddData_v2(
                state,
                input,
                image.as_mut_ptr().cast(),
                image.len(),
                name.as_ptr(),
                0,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            )
        };
        if let Err(e) = added.result() {
            linked = Err(format!("{file}: {}: {}", describe(e), read_log(&log)));
            break;
        }
    }
    if linked.is_ok() {
        let (mut cubin, mut size): (*mut c_void, usize) = (std::ptr::null_mut(), 0);
        // SAFETY: `state` is live and holds every part.
        linked = match unsafe { cusys::cuLinkComplete(state, &mut cubin, &mut size) }.result() {
            Ok(()) if !cubin.is_null() => {
                // SAFETY: the linker's output is `size` bytes, owned by `state` until destroyed.
                let image = unsafe { std::slice::from_raw_parts(cubin.cast::<u8>(), size) };
                Ok(image.to_vec())
            }
            Ok(()) => Err("the linker produced no image".to_string()),
            Err(e) => Err(format!("{}: {}", describe(e), read_log(&log))),
        };
    }
    // SAFETY: `state` was created above and is destroyed once.
    let _ = unsafe { cusys::cuLinkDestroy(state) };
    drop(log);
    linked
}
