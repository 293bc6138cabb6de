//! The CUDA modules `acc cc` generates for the conformance corpus, the
//! translation corpus and the Jacobi example compile with NVRTC to PTX for
//! `sm_80` and `sm_90` (no GPU needed; libnvrtc from PyPI's
//! `nvidia-cuda-nvrtc-cu12`, which `.ci/run` installs). A missing libnvrtc
//! skips these tests, except under `ACC_REQUIRE_TOOLS` (CI), where it
//! fails them.
//!
//! Where `ptxas` is on the path (PyPI's `nvidia-cuda-nvcc-cu12`, also
//! installed by `.ci/run`), the PTX is assembled for the same targets.
//!
//! Kernels without a CUDA form are listed by `acc cc --info` ("no CUDA
//! version: why"); the test pins that list, so a kernel that loses its CUDA
//! version is a failure, not a silent fallback.

use std::path::Path;
use std::process::Command;

mod support;
use support::{have, have_cc, programs, WITHOUT_CUDA};

fn nvrtc() -> bool {
    match acc_runtime::jit::nvrtc_available() {
        Ok(()) => true,
        Err(why) => {
            assert!(
                std::env::var_os("ACC_REQUIRE_TOOLS").is_none(),
                "libnvrtc is required (ACC_REQUIRE_TOOLS is set): {why}"
            );
            eprintln!("skipped: {why}");
            false
        }
    }
}

#[test]
fn every_generated_cuda_module_compiles_with_nvrtc() {
    if !have_cc() || !nvrtc() {
        return;
    }
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cuda");
    std::fs::create_dir_all(&out_dir).unwrap();
    // ptxas (PyPI's nvidia-cuda-nvcc-cu12) assembles the PTX, as the
    // driver would on a GPU.
    let ptxas = have("ptxas");
    let mut failures = Vec::new();
    let mut modules = 0;
    for src in programs() {
        let stem = src.file_stem().unwrap().to_string_lossy().to_string();
        let object = out_dir.join(format!("{stem}.o"));
        let cu = out_dir.join(format!("{stem}.acc.cu"));
        let _ = std::fs::remove_file(&cu);
        let build = Command::new(env!("CARGO_BIN_EXE_acc"))
            .args(["cc", "-c", "--keep", "--info", "-o"])
            .arg(&object)
            .arg(&src)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&build.stderr).to_string();
        if !build.status.success() {
            failures.push(format!("{stem}: acc cc failed:\n{stderr}"));
            continue;
        }
        let no_cuda: Vec<&str> = stderr
            .lines()
            .filter(|l| l.contains("no CUDA version"))
            .collect();
        match WITHOUT_CUDA.iter().find(|(s, _)| *s == stem) {
            Some((_, why)) => {
                if no_cuda.is_empty() || !no_cuda.iter().all(|l| l.contains(why)) {
                    failures.push(format!(
                        "{stem}: expected kernels without CUDA because of {why:?}, --info says {no_cuda:?}"
                    ));
                }
            }
            None => {
                if !no_cuda.is_empty() {
                    failures.push(format!("{stem}: kernels without CUDA: {no_cuda:?}"));
                }
            }
        }
        let Ok(module) = std::fs::read_to_string(&cu) else {
            continue;
        };
        modules += 1;
        for arch in ["sm_80", "sm_90"] {
            match acc_runtime::jit::compile_cuda(&module, &stem, arch) {
                Ok(ptx) => {
                    let ptx = String::from_utf8_lossy(&ptx);
                    if !ptx.contains(".entry __acc_kernel") {
                        failures.push(format!("{stem}: {arch}: PTX without kernels"));
                    }
                    if ptxas {
                        let ptx_file = out_dir.join(format!("{stem}.{arch}.ptx"));
                        std::fs::write(&ptx_file, ptx.as_bytes()).unwrap();
                        let asm = Command::new("ptxas")
                            .arg(format!("-arch={arch}"))
                            .arg(&ptx_file)
                            .arg("-o")
                            .arg(ptx_file.with_extension("cubin"))
                            .output()
                            .unwrap();
                        if !asm.status.success() {
                            failures.push(format!(
                                "{stem}: {arch}: ptxas: {}",
                                String::from_utf8_lossy(&asm.stderr)
                            ));
                        }
                    }
                }
                Err(log) => failures.push(format!("{stem}: {arch}: {}:\n{log}", cu.display())),
            }
        }
    }
    assert!(modules >= 50, "only {modules} CUDA modules were generated");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The device code of a program whose kernels call routines of other files
/// (`tests/data/routines-across-files`): each file's kernel module and routine library
/// compile with NVRTC as relocatable device code, as the runtime compiles them to link
/// them, and ptxas assembles each as a relocatable object (`-c`), the callee left to the
/// link. The simulator links and runs them (`cuda_sim.rs`).
#[test]
fn the_parts_of_modules_linked_across_files_compile_as_relocatable_device_code() {
    if !have_cc() || !nvrtc() {
        return;
    }
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/routines-across-files");
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cuda-rdc");
    let _ = std::fs::remove_dir_all(&out_dir);
    std::fs::create_dir_all(&out_dir).unwrap();
    let ptxas = have("ptxas");
    let mut parts = Vec::new();
    for stem in ["main", "scale", "twice"] {
        let object = out_dir.join(format!("{stem}.o"));
        let build = Command::new(env!("CARGO_BIN_EXE_acc"))
            .args(["cc", "-c", "--keep", "-o"])
            .arg(&object)
            .arg(data.join(format!("{stem}.c")))
            .output()
            .unwrap();
        assert!(
            build.status.success(),
            "{}",
            String::from_utf8_lossy(&build.stderr)
        );
        for kind in ["cu", "routines.cu"] {
            let cu = out_dir.join(format!("{stem}.acc.{kind}"));
            if let Ok(text) = std::fs::read_to_string(&cu) {
                parts.push((format!("{stem}.{kind}"), text));
            }
        }
    }
    let names: Vec<&str> = parts.iter().map(|(n, _)| n.as_str()).collect();
    // main.c has kernels only, scale.c routines only, twice.c both.
    assert_eq!(
        names,
        [
            "main.cu",
            "scale.routines.cu",
            "twice.cu",
            "twice.routines.cu"
        ]
    );
    for (name, text) in &parts {
        let ptx = acc_runtime::jit::compile_cuda_with(text, name, "sm_80", &["-rdc=true"])
            .unwrap_or_else(|log| panic!("{name}: {log}"));
        let ptx = String::from_utf8_lossy(&ptx).to_string();
        if name == "main.cu" {
            // The callee is declared, for the link to resolve.
            assert!(ptx.contains(".extern .func"), "{name}:\n{ptx}");
        }
        if name == "scale.routines.cu" {
            // The pointer to the file's global, which the runtime finds by name and sets.
            let visible = ptx
                .lines()
                .any(|l| l.starts_with(".visible .global") && l.contains("__acc_lg_"));
            assert!(visible, "{name}:\n{ptx}");
        }
        if ptxas {
            let file = out_dir.join(format!("{name}.ptx"));
            std::fs::write(&file, &ptx).unwrap();
            let asm = Command::new("ptxas")
                .args(["-arch=sm_80", "-c"])
                .arg(&file)
                .arg("-o")
                .arg(file.with_extension("o"))
                .output()
                .unwrap();
            assert!(
                asm.status.success(),
                "{name}: ptxas: {}",
                String::from_utf8_lossy(&asm.stderr)
            );
        }
    }
}
