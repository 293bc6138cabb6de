//! Shared by the tests of Rust kernels' CUDA form: NVRTC compiles each module for sm_80 and
//! sm_90 and `ptxas` (where it runs) assembles the PTX. Without libnvrtc the check is skipped,
//! except under `ACC_REQUIRE_TOOLS`, where it fails. `ACC_DUMP_CUDA=dir` writes the modules.

/// Compiles (and assembles) every module, with its routines as the runtime assembles them;
/// every module must be complete.
pub fn compile_all(modules: &[&'static acc::__private::CudaModule]) {
    let mut failures = Vec::new();
    for m in modules {
        if !m.complete() {
            failures.push(format!("{}: no CUDA form:\n{}", m.function, m.reasons()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    if let Some(dir) = std::env::var_os("ACC_DUMP_CUDA") {
        std::fs::create_dir_all(&dir).unwrap();
        for m in modules {
            let path = std::path::Path::new(&dir).join(format!("{}.cu", m.function));
            std::fs::write(path, m.cuda_source().unwrap()).unwrap();
        }
    }
    let Some(ptxas) = cuda_tools() else { return };
    for m in modules {
        let source = m.cuda_source().unwrap();
        for arch in ["sm_80", "sm_90"] {
            let ptx = acc::runtime::jit::compile_cuda(source, m.function, arch)
                .unwrap_or_else(|e| panic!("{} ({arch}): NVRTC:\n{e}\n{source}", m.function));
            if let Some(ptxas) = &ptxas {
                assemble(ptxas, &ptx, arch, m.function);
            }
        }
    }
}

/// NVRTC (None: skip, unless `ACC_REQUIRE_TOOLS`) and `ptxas` where it runs.
fn cuda_tools() -> Option<Option<std::path::PathBuf>> {
    if let Err(why) = acc::runtime::jit::nvrtc_available() {
        assert!(
            std::env::var_os("ACC_REQUIRE_TOOLS").is_none(),
            "libnvrtc is required (ACC_REQUIRE_TOOLS is set): {why}"
        );
        eprintln!("skipped: {why}");
        return None;
    }
    let ptxas = std::env::var_os("PTXAS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| "ptxas".into());
    let runs = std::process::Command::new(&ptxas)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    Some(runs.then_some(ptxas))
}

fn assemble(ptxas: &std::path::Path, ptx: &[u8], arch: &str, name: &str) {
    let scratch = tempfile::Builder::new()
        .prefix("acc-rust-cuda-")
        .tempdir()
        .unwrap();
    let dir = scratch.path();
    let src = dir.join(format!("{name}-{arch}.ptx"));
    std::fs::write(&src, ptx).unwrap();
    let out = std::process::Command::new(ptxas)
        .arg(format!("-arch={arch}"))
        .arg(&src)
        .arg("-o")
        .arg(dir.join(format!("{name}-{arch}.cubin")))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "ptxas {name} ({arch}):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
