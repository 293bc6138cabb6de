//! The NVRTC JIT without a GPU: a kernel written to the launch convention of `acc_rt.h`
//! compiles to PTX for sm_80 and sm_90, a compile error names the kernel and keeps its source,
//! and the disk cache keys, writes and protects images as `jit` promises.
//!
//! These tests need libnvrtc (on the library path, or in `$ACC_NVRTC_DIR` as the
//! `nvidia-cuda-nvrtc-cu12` wheel lays it out). Without it they skip, unless
//! `ACC_REQUIRE_TOOLS` is set (as in CI), where they fail.

use acc_runtime::jit::{self, KernelSource, Output, Target};
use std::path::{Path, PathBuf};

/// Whether NVRTC can be used; a missing libnvrtc fails under `ACC_REQUIRE_TOOLS`.
fn nvrtc() -> bool {
    match jit::nvrtc_available() {
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

/// A fresh directory under cargo's temporary directory.
fn temp_dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "jit-{name}-{}-{:?}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// A kernel as the C front end emits it: `b[i] = 2 * a[i]` and `sum += x * a[i]` over
/// `__acc_iterations` iterations in a grid-stride loop, with the sum reduced per block in
/// shared memory and added to the block's slot; and a `max` reduction over an int array
/// section of two elements (slots of `2 * sizeof(int)` bytes).
const SAMPLE: &str = r#"
extern "C" __global__ void acc_sample(const double *a, double *b, int n, double x,
                                      void *const *__acc_red, long long __acc_iterations) {
  __shared__ double ps[1024];
  __shared__ int pm[2][1024];
  unsigned t = threadIdx.y * blockDim.x + threadIdx.x, nt = blockDim.x * blockDim.y;
  long long stride = (long long)gridDim.x * nt;
  long long lim = __acc_iterations < n ? __acc_iterations : n;
  double s = 0.0;
  int m0 = -2147483647 - 1, m1 = -2147483647 - 1;
  for (long long i = (long long)blockIdx.x * nt + t; i < lim; i += stride) {
    b[i] = 2.0 * a[i];
    s += x * a[i];
    int v0 = (int)(i % 100), v1 = (int)(n - i);
    m0 = v0 > m0 ? v0 : m0;
    m1 = v1 > m1 ? v1 : m1;
  }
  ps[t] = s;
  pm[0][t] = m0;
  pm[1][t] = m1;
  __syncthreads();
  for (unsigned h = 1; h < nt; h *= 2) {
    if (t % (2 * h) == 0 && t + h < nt) {
      ps[t] += ps[t + h];
      pm[0][t] = pm[0][t + h] > pm[0][t] ? pm[0][t + h] : pm[0][t];
      pm[1][t] = pm[1][t + h] > pm[1][t] ? pm[1][t + h] : pm[1][t];
    }
    __syncthreads();
  }
  if (t == 0) {
    double *rs = (double *)((char *)__acc_red[0] + blockIdx.x * 1 * sizeof(double));
    *rs += ps[0];
    int *rm = (int *)((char *)__acc_red[1] + blockIdx.x * 2 * sizeof(int));
    rm[0] = pm[0][0] > rm[0] ? pm[0][0] : rm[0];
    rm[1] = pm[1][0] > rm[1] ? pm[1][0] : rm[1];
  }
}
"#;

#[test]
fn sample_kernel_compiles_to_ptx_for_sm80_and_sm90() {
    if !nvrtc() {
        return;
    }
    let (major, minor) = jit::nvrtc_version().unwrap();
    assert!(major >= 12, "NVRTC {major}.{minor}");
    for arch in ["sm_80", "sm_90"] {
        let ptx = jit::compile_cuda(SAMPLE, "sample.cu", arch).unwrap_or_else(|log| {
            panic!("{arch}: {log}");
        });
        let text = String::from_utf8(ptx).expect("PTX is text");
        assert!(
            text.contains(&format!(".target {arch}")),
            "{arch}: {}",
            &text[..400.min(text.len())]
        );
        assert!(text.contains(".entry acc_sample("), "{arch}");
        assert!(!text.ends_with('\0'));
    }
    // The device path: a CUBIN for an architecture NVRTC knows, PTX for a newer one.
    assert_eq!(
        jit::target_for(90).unwrap(),
        Target {
            arch: 90,
            output: Output::Cubin
        }
    );
    let newest = *jit::supported_archs().unwrap().last().unwrap();
    assert_eq!(
        jit::target_for(newest + 1).unwrap(),
        Target {
            arch: newest,
            output: Output::Ptx
        }
    );
    let cubin = jit::compile(
        SAMPLE,
        "sample.cu",
        Target {
            arch: 90,
            output: Output::Cubin,
        },
        &[],
    )
    .unwrap();
    assert_eq!(&cubin[..4], b"\x7fELF", "a CUBIN is an ELF file");
}

#[test]
fn a_compile_error_names_the_kernel_and_keeps_the_source() {
    if !nvrtc() {
        return;
    }
    let dir = temp_dir("error");
    jit::ensure_private_dir(&dir).unwrap();
    let source = "extern \"C\" __global__ void acc_bad(int *p) {\n  *p = undeclared_name;\n}\n";
    let k = KernelSource {
        name: "main$acc_bad",
        file: "kernels.c",
        line: 12,
        source,
    };
    let target = Target {
        arch: 80,
        output: Output::Ptx,
    };
    let e = jit::image_for_in(&k, target, &[], Some(&dir)).unwrap_err();
    assert!(
        e.starts_with("kernels.c:12: kernel 'main$acc_bad' failed to compile for compute_80"),
        "{e}"
    );
    assert!(e.contains("undeclared_name"), "the NVRTC log: {e}");
    assert!(e.contains("kernels.c.cu(2)"), "NVRTC names the line: {e}");
    let kept = e
        .lines()
        .last()
        .and_then(|l| l.strip_prefix("the CUDA source is in "))
        .unwrap_or_else(|| panic!("no kept source in: {e}"));
    assert!(Path::new(kept).starts_with(&dir), "{kept}");
    assert!(kept.ends_with("-main_acc_bad.cu"), "{kept}");
    assert_eq!(std::fs::read_to_string(kept).unwrap(), source);
    // The public function returns the log alone.
    let log = jit::compile_cuda(source, "bad.cu", "sm_90").unwrap_err();
    assert!(
        log.contains("bad.cu(2)") && log.contains("undeclared_name"),
        "{log}"
    );
    assert!(jit::compile_cuda(source, "bad.cu", "sm80").is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn images_are_cached_on_disk_by_a_key_of_everything_that_matters() {
    if !nvrtc() {
        return;
    }
    let dir = temp_dir("cache");
    jit::ensure_private_dir(&dir).unwrap();
    let k = KernelSource {
        name: "acc_sample",
        file: "sample.c",
        line: 1,
        source: SAMPLE,
    };
    let target = Target {
        arch: 80,
        output: Output::Ptx,
    };
    let first = jit::image_for_in(&k, target, &[], Some(&dir)).unwrap();
    let key = jit::cache_key(SAMPLE, target, &[], jit::nvrtc_version().unwrap());
    let file = dir.join(format!("{key}.ptx"));
    assert_eq!(std::fs::read(&file).unwrap(), first);
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        vec![format!("{key}.ptx")],
        "no temporary file is left"
    );
    // A second use reads the file: prove it by changing the file.
    std::fs::write(&file, b"cached image\0").unwrap();
    assert_eq!(
        jit::image_for_in(&k, target, &[], Some(&dir)).unwrap(),
        b"cached image\0"
    );
    // Other options make another image.
    let opts = vec!["--fmad=false".to_owned()];
    let other = jit::image_for_in(&k, target, &opts, Some(&dir)).unwrap();
    assert_ne!(other, b"cached image\0");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cache_keys_change_with_source_architecture_options_and_version() {
    let t80 = Target {
        arch: 80,
        output: Output::Ptx,
    };
    let base = jit::cache_key("src", t80, &[], (12, 9));
    assert_eq!(base.len(), 32);
    assert!(base.chars().all(|c| c.is_ascii_hexdigit()));
    assert_eq!(base, jit::cache_key("src", t80, &[], (12, 9)), "stable");
    // Pinned: the key must not change between builds or Rust versions, or caches go stale.
    assert_eq!(base, "a1ef9ca5c11c59947c8e12a5244573ac");
    let others = [
        jit::cache_key("src2", t80, &[], (12, 9)),
        jit::cache_key(
            "src",
            Target {
                arch: 90,
                output: Output::Ptx,
            },
            &[],
            (12, 9),
        ),
        jit::cache_key(
            "src",
            Target {
                arch: 80,
                output: Output::Cubin,
            },
            &[],
            (12, 9),
        ),
        jit::cache_key("src", t80, &["-lineinfo".to_owned()], (12, 9)),
        jit::cache_key("src", t80, &[], (12, 8)),
    ];
    for (i, k) in others.iter().enumerate() {
        assert_ne!(*k, base, "variant {i}");
    }
}

#[cfg(unix)]
#[test]
fn the_cache_directory_is_private() {
    use std::os::unix::fs::PermissionsExt;
    let root = temp_dir("perm");
    let dir = root.join("acc").join("jit");
    jit::ensure_private_dir(&dir).unwrap();
    for d in [&root, &root.join("acc"), &dir] {
        let mode = std::fs::metadata(d).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700, "{}", d.display());
    }
    // A directory others may write to is refused.
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let e = jit::ensure_private_dir(&dir).unwrap_err();
    assert!(e.contains("not a private directory"), "{e}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn atomic_writes_are_never_seen_torn() {
    let dir = temp_dir("atomic");
    jit::ensure_private_dir(&dir).unwrap();
    let a = vec![b'a'; 1 << 20];
    let b = vec![b'b'; 1 << 20];
    jit::write_atomic(&dir, "img", &a).unwrap();
    std::thread::scope(|s| {
        for w in 0..4 {
            let (dir, data) = (&dir, if w % 2 == 0 { &a } else { &b });
            s.spawn(move || {
                for _ in 0..20 {
                    jit::write_atomic(dir, "img", data).unwrap();
                }
            });
        }
        for _ in 0..2 {
            let dir = &dir;
            s.spawn(move || {
                for _ in 0..100 {
                    let got = std::fs::read(dir.join("img")).unwrap();
                    assert_eq!(got.len(), 1 << 20);
                    assert!(got.iter().all(|&c| c == got[0]), "a torn image");
                }
            });
        }
    });
    let names: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(names.len(), 1, "temporary files are renamed away");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The child mode of [`several_processes_share_the_cache_directory`]: the byte this writer
/// fills its images with.
const WRITER: &str = "ACC_JIT_TEST_WRITER";

/// MPI ranks on one node share the JIT cache: several processes create the directory at once
/// and write the same key over and over, and a reader never sees a torn image or a leftover
/// temporary file.
#[test]
fn several_processes_share_the_cache_directory() {
    if let Some(byte) = std::env::var_os(WRITER) {
        let byte: u8 = byte.to_str().unwrap().parse().unwrap();
        let dir = jit::cache_dir().expect("the cache directory, made by several processes");
        let image = vec![byte; 1 << 20];
        for _ in 0..30 {
            jit::write_atomic(&dir, "img", &image).unwrap();
        }
        return;
    }
    let root = temp_dir("processes");
    let writers: Vec<_> = (0..4u8)
        .map(|w| {
            std::process::Command::new(std::env::current_exe().unwrap())
                .args([
                    "--exact",
                    "several_processes_share_the_cache_directory",
                    "--nocapture",
                ])
                .env(WRITER, (b'a' + w).to_string())
                .env("ACC_CACHE_DIR", &root)
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    let dir = root.join("jit");
    let image = dir.join("img");
    let mut seen = 0;
    let mut writers = writers;
    loop {
        let running = writers.iter_mut().any(|c| c.try_wait().unwrap().is_none());
        match std::fs::read(&image) {
            Ok(got) => {
                assert_eq!(got.len(), 1 << 20, "a torn image");
                assert!(got.iter().all(|&c| c == got[0]), "a torn image");
                seen += 1;
            }
            Err(e) => assert_eq!(e.kind(), std::io::ErrorKind::NotFound, "{e}"),
        }
        if !running {
            break;
        }
    }
    for mut c in writers {
        assert!(c.wait().unwrap().success(), "a writer failed");
    }
    assert!(seen > 0);
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["img"], "temporary files are renamed away");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn the_cache_directory_follows_the_environment_rules() {
    // Read-only look at the rule (the environment is shared by the tests of this binary).
    if let Some(d) = std::env::var_os("ACC_CACHE_DIR").filter(|d| !d.is_empty()) {
        assert_eq!(jit::cache_dir_path(), Some(PathBuf::from(d).join("jit")));
    } else if let Some(d) = std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        assert_eq!(
            jit::cache_dir_path(),
            Some(PathBuf::from(d).join("acc").join("jit"))
        );
    } else if let Some(h) = std::env::var_os("HOME") {
        assert_eq!(
            jit::cache_dir_path(),
            Some(PathBuf::from(h).join(".cache/acc/jit"))
        );
    }
}

/// The child mode of [`a_cuda_13_wheel_layout_is_found`]: loads NVRTC with a bare library path.
const CHILD: &str = "ACC_NVRTC_TEST_CHILD";

/// A machine with CUDA 13 alone has `libnvrtc.so.13` and no other name: found in a wheel's
/// `nvidia/cu13/lib` under `ACC_NVRTC_DIR` (here the library we have, under that name).
#[test]
fn a_cuda_13_wheel_layout_is_found() {
    if std::env::var_os(CHILD).is_some() {
        let (major, minor) = jit::nvrtc_version().expect("NVRTC under the CUDA 13 name");
        let ptx = jit::compile_cuda("extern \"C\" __global__ void k() {}", "k.cu", "sm_80")
            .expect("compiles");
        println!("loaded {major}.{minor}: {} bytes of PTX", ptx.len());
        return;
    }
    if !nvrtc() {
        return;
    }
    let loaded = Path::new(&acc_runtime::nvrtc::get().unwrap().path).to_path_buf();
    let Ok(real) = std::fs::canonicalize(&loaded).or_else(|_| {
        // A bare soname: find the file on the library path.
        std::env::var("LD_LIBRARY_PATH")
            .unwrap_or_default()
            .split(':')
            .map(|d| Path::new(d).join(&loaded))
            .find(|p| p.is_file())
            .ok_or(())
    }) else {
        eprintln!("skipped: cannot tell which file {} is", loaded.display());
        return;
    };
    let root = temp_dir("cu13");
    let lib = root.join("nvidia/cu13/lib");
    std::fs::create_dir_all(&lib).unwrap();
    std::os::unix::fs::symlink(&real, lib.join("libnvrtc.so.13")).unwrap();
    // libnvrtc finds its builtins library beside the file it was loaded from.
    if let Some(dir) = real.parent() {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let name = e.file_name();
            if name.to_string_lossy().starts_with("libnvrtc-builtins") {
                let _ = std::os::unix::fs::symlink(e.path(), lib.join(&name));
            }
        }
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "a_cuda_13_wheel_layout_is_found", "--nocapture"])
        .env(CHILD, "1")
        .env("ACC_NVRTC_DIR", &root)
        .env("LD_LIBRARY_PATH", root.join("empty"))
        .env_remove("XDG_CACHE_HOME")
        .env("HOME", &root)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let _ = std::fs::remove_dir_all(&root);
    assert!(
        out.status.success() && text.contains("bytes of PTX"),
        "{text}"
    );
}
