//! Every program `acc cc` must build (the conformance corpus, the translation
//! corpus, the Jacobi example) run on the `nvidia` device of the CUDA
//! simulator (`tests/cuda-sim`): the runtime's real GPU path — cudarc, the
//! NVRTC JIT and its disk cache, module loading, copies, streams, launches,
//! reduction slots — with kernels compiled for the CPU and run with CUDA's
//! semantics (blocks of concurrent threads, barriers, shared memory). Each
//! program checks its own answers and exits non-zero on a wrong one.
//!
//! Programs with kernels that have no CUDA form (`WITHOUT_CUDA`) must stop
//! with the runtime's "without a CUDA version" error; the test pins that
//! list in both directions. Without a C++ compiler the test skips, unless
//! `ACC_REQUIRE_TOOLS` is set.

use std::path::Path;
use std::process::Command;

mod support;
use support::{have_cc, programs, runtime_lib, WITHOUT_CUDA};

#[path = "../../../tests/cuda-sim/support.rs"]
mod sim;

/// `acc cc -O1 FLAGS -o exe SOURCES`, which must succeed.
fn acc_cc(exe: &Path, flags: &[&str], sources: &[&Path]) {
    let out = Command::new(env!("CARGO_BIN_EXE_acc"))
        .args(["cc", "-O1"])
        .args(flags)
        .arg("-o")
        .arg(exe)
        .args(sources)
        .env("ACC_RUNTIME_LIB", runtime_lib())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// An empty scratch directory of the tests' temporary folder.
fn fresh_dir(name: &str) -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `exe` run on `device` (the simulated GPU's libraries on its path) within the time limit.
fn run_on(gpu: &sim::Simulator, cache: &Path, exe: &Path, device: &str) -> std::process::Output {
    let mut cmd = Command::new(exe);
    cmd.env("ACC_DEVICE_TYPE", device)
        .env_remove("ACC_DEVICE_NUM");
    sim::output_within(gpu.configure(&mut cmd, cache), sim::CHILD_TIMEOUT)
}

#[test]
fn every_program_gives_the_right_answers_on_the_simulated_gpu() {
    if !have_cc() {
        return;
    }
    let Some(gpu) = sim::simulator() else {
        return;
    };
    let lib = runtime_lib();
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cuda-sim-programs");
    std::fs::create_dir_all(&out_dir).unwrap();
    let cache = sim::fresh_cache("programs");
    let mut failures = Vec::new();
    let (mut passed, mut refused) = (Vec::new(), Vec::new());
    for src in programs() {
        let stem = src.file_stem().unwrap().to_string_lossy().to_string();
        let exe = out_dir.join(&stem);
        let build = Command::new(env!("CARGO_BIN_EXE_acc"))
            .args(["cc", "-O1", "-o"])
            .arg(&exe)
            .arg(&src)
            .arg("-lm")
            .env("ACC_RUNTIME_LIB", &lib)
            .output()
            .unwrap();
        if !build.status.success() {
            failures.push(format!(
                "{stem}: acc cc failed:\n{}",
                String::from_utf8_lossy(&build.stderr)
            ));
            continue;
        }
        let mut cmd = Command::new(&exe);
        cmd.env("ACC_DEVICE_TYPE", "nvidia")
            .env_remove("ACC_DEVICE_NUM");
        let run = sim::output_within(gpu.configure(&mut cmd, &cache), sim::CHILD_TIMEOUT);
        let printed = sim::printed(&run);
        let expect_refusal = WITHOUT_CUDA.iter().any(|(s, _)| *s == stem);
        if run.status.success() && !expect_refusal {
            passed.push(stem);
            // Only a failing program's executable stays, to be looked at: a few hundred of
            // them fill a CI machine's disk.
            let _ = std::fs::remove_file(&exe);
        } else if expect_refusal
            && run.status.code() == Some(1)
            && printed.contains(
                "was compiled without a CUDA version, so it cannot run on device nvidia 0 \
                 (`acc cc --info` says why",
            )
        {
            refused.push(stem);
            let _ = std::fs::remove_file(&exe);
        } else if expect_refusal {
            failures.push(format!(
                "{stem}: expected the runtime to refuse a kernel without a CUDA version:\n{printed}"
            ));
        } else {
            failures.push(format!("{stem} on the simulated GPU:\n{printed}"));
        }
    }
    // Every program compiled its kernels with the simulator's NVRTC, so they really ran there.
    let images = std::fs::read_dir(cache.join("jit"))
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| e.path().extension().is_some_and(|x| x == "cubin"))
                .count()
        })
        .unwrap_or(0);
    let _ = std::fs::remove_dir_all(&cache);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    let mut want: Vec<&str> = WITHOUT_CUDA.iter().map(|(s, _)| *s).collect();
    want.sort_unstable();
    refused.sort_unstable();
    assert_eq!(
        refused, want,
        "programs refused for kernels without a CUDA version"
    );
    assert!(passed.len() >= 60, "only {} programs passed", passed.len());
    assert!(
        images >= 50,
        "only {images} JIT images for {} programs",
        passed.len()
    );
}

/// Copies between the device and the program's memory through the runtime's pinned staging
/// buffers, forced for every copy and in odd chunks of 1000 bytes (`ACC_CUDA_STAGING`,
/// `ACC_CUDA_STAGING_CHUNK`): the simulator does copies from and to pinned memory only when
/// the stream synchronizes or an event recorded after them is waited for, so a buffer the
/// runtime refilled or read too early gives wrong answers here.
#[test]
fn copies_through_pinned_staging_give_the_right_answers() {
    if !have_cc() {
        return;
    }
    let Some(gpu) = sim::simulator() else {
        return;
    };
    let lib = runtime_lib();
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cuda-sim-staging");
    std::fs::create_dir_all(&out_dir).unwrap();
    let cache = sim::fresh_cache("staging");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance");
    let mut failures = Vec::new();
    for stem in [
        "data-large",
        "data-clauses",
        "update",
        "enter-exit-data",
        "async-queues",
        "api-data",
        "reduction-array",
    ] {
        let exe = out_dir.join(stem);
        let build = Command::new(env!("CARGO_BIN_EXE_acc"))
            .args(["cc", "-O1", "-o"])
            .arg(&exe)
            .arg(root.join(format!("{stem}.c")))
            .arg("-lm")
            .env("ACC_RUNTIME_LIB", &lib)
            .output()
            .unwrap();
        assert!(
            build.status.success(),
            "{stem}: {}",
            String::from_utf8_lossy(&build.stderr)
        );
        let mut cmd = Command::new(&exe);
        cmd.env("ACC_DEVICE_TYPE", "nvidia")
            .env("ACC_CUDA_STAGING", "1")
            .env("ACC_CUDA_STAGING_CHUNK", "1000")
            .env_remove("ACC_DEVICE_NUM");
        let run = sim::output_within(gpu.configure(&mut cmd, &cache), sim::CHILD_TIMEOUT);
        if !run.status.success() {
            failures.push(format!("{stem}:\n{}", sim::printed(&run)));
        }
    }
    let _ = std::fs::remove_dir_all(&cache);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A kernel that faults stops the program with a message naming the construct's file, line
/// and kernel, also when the kernel was loaded by an earlier launch (the runtime makes those
/// words once, when it loads the kernel, not at every launch).
#[test]
fn a_fault_in_a_kernel_launched_before_names_its_construct() {
    if !have_cc() {
        return;
    }
    let Some(gpu) = sim::simulator() else {
        return;
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cuda-sim-fault");
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("fault.c");
    std::fs::write(
        &src,
        r#"#include <stdio.h>
int main(int argc, char **argv) {
  int a[64];
  (void)argv;
  for (int r = 0; r < 3; r++) {
    /* The third launch writes just past the array's device copy. */
    int past = r == 2 ? 64 * argc : 0;
#pragma acc parallel loop copy(a[0:64])
    for (int i = 0; i < 1; i++)
      a[i + past] = r;
    printf("launch %d returned\n", r);
  }
  return 0;
}
"#,
    )
    .unwrap();
    let exe = dir.join("fault");
    acc_cc(&exe, &[], &[&src]);
    let cache = sim::fresh_cache("fault");
    let run = run_on(gpu, &cache, &exe, "nvidia");
    let _ = std::fs::remove_dir_all(&cache);
    let printed = sim::printed(&run);
    assert_eq!(run.status.code(), Some(1), "{printed}");
    assert!(
        printed.contains("launch 1 returned") && !printed.contains("launch 2 returned"),
        "{printed}"
    );
    assert!(
        printed.contains(&format!(
            "acc: error: {}:8: kernel 'parallel loop at line 8' on device nvidia 0: \
             the kernel failed while it ran: CUDA_ERROR_ILLEGAL_ADDRESS",
            src.display()
        )),
        "{printed}"
    );
}

/// Kernels that call routines of other files (`tests/data/routines-across-files`: one file's
/// kernel calls a routine of a second, which reads a `declare`d global of its file and calls
/// one of a third, whose own kernel calls back into the second) run right on the simulated
/// GPU, where the runtime links the files' device code and points the second's library at the
/// global's device copy, as on the CPU devices; a routine that no file defines with a
/// `routine` directive, or whose file has no device code, stops the program at the launch,
/// naming the routine, the kernel and why.
#[test]
fn kernels_call_routines_that_other_files_define() {
    if !have_cc() {
        return;
    }
    let Some(gpu) = sim::simulator() else {
        return;
    };
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/routines-across-files");
    let dir = fresh_dir("cuda-sim-routines-across-files");
    let exe = dir.join("routines");
    let files: Vec<_> = ["main.c", "scale.c", "twice.c"]
        .iter()
        .map(|f| data.join(f))
        .collect();
    acc_cc(
        &exe,
        &[],
        &files.iter().map(|f| f.as_path()).collect::<Vec<_>>(),
    );
    let cache = sim::fresh_cache("routines-across-files");
    for device in ["nvidia", "host_discrete"] {
        let run = run_on(gpu, &cache, &exe, device);
        let printed = sim::printed(&run);
        assert!(
            run.status.success() && printed.contains("routines across files: ok"),
            "{device}:\n{printed}"
        );
    }

    // `far` is defined in plain C, without a `routine` directive: it has no device code.
    std::fs::write(
        dir.join("lost.c"),
        "#include <stdio.h>\n#pragma acc routine seq\ndouble far(double x);\nint main(void) {\n  \
         double a[10] = {0};\n  #pragma acc parallel loop copy(a)\n  for (int i = 0; i < 10; i++) \
         a[i] = far(i);\n  printf(\"%g\\n\", a[3]);\n  return 0;\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("far.c"),
        "double far(double x) { return 2 * x; }\n",
    )
    .unwrap();
    let lost = dir.join("lost");
    acc_cc(&lost, &[], &[&dir.join("lost.c"), &dir.join("far.c")]);
    let run = run_on(gpu, &cache, &lost, "nvidia");
    let printed = sim::printed(&run);
    assert_eq!(run.status.code(), Some(1), "{printed}");
    assert!(
        printed.contains(
            "lost.c:6: kernel 'parallel loop at line 6' cannot run on device nvidia 0: the \
             routine `far` that "
        ) && printed
            .contains("lost.c calls (declared with `#pragma acc routine`) is defined by no file"),
        "{printed}"
    );

    // `scaled` reads a global of its file that no `declare` gives a device copy: the file has
    // no device code for other files' kernels, and the error says why.
    std::fs::write(
        dir.join("bare.c"),
        "double coef[4] = {1, 2, 3, 4};\n#pragma acc routine seq\n\
         double scaled(int i) { return 2 * coef[i]; }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("uses.c"),
        "#include <stdio.h>\n#pragma acc routine seq\ndouble scaled(int i);\nint main(void) {\n  \
         double a[4];\n  #pragma acc parallel loop copyout(a)\n  for (int i = 0; i < 4; i++) \
         a[i] = scaled(i);\n  printf(\"%g\\n\", a[3]);\n  return a[3] != 8;\n}\n",
    )
    .unwrap();
    let uses = dir.join("uses");
    acc_cc(&uses, &[], &[&dir.join("uses.c"), &dir.join("bare.c")]);
    let run = run_on(gpu, &cache, &uses, "host");
    assert!(run.status.success(), "{}", sim::printed(&run));
    let run = run_on(gpu, &cache, &uses, "nvidia");
    let printed = sim::printed(&run);
    assert_eq!(run.status.code(), Some(1), "{printed}");
    assert!(
        printed.contains("uses.c calls is defined in ")
            && printed.contains("bare.c, whose routines other files' kernels cannot call: ")
            && printed.contains(
                "bare.c:3: no CUDA version: the routine uses the file-scope variable `coef`, \
                 which no `declare` directive gives a device copy"
            ),
        "{printed}"
    );
}

/// Sizes given on the command line, the PolyBench way (`#ifndef N` / `#define N 16` in the
/// file, `-DN=48` when compiling), and a macro only the command line defines: the CUDA module
/// means what the host code means, so a 2-D array's rows have the same stride on the
/// simulated GPU (with the file's default, every row after the first went to the wrong place).
#[test]
fn command_line_macros_reach_the_cuda_module() {
    if !have_cc() {
        return;
    }
    let Some(gpu) = sim::simulator() else {
        return;
    };
    let dir = fresh_dir("cuda-sim-command-line-macros");
    let src = dir.join("sized.c");
    std::fs::write(
        &src,
        "#include <stdio.h>\n#ifndef N\n#define N 16\n#endif\ndouble a[N][N];\n\
         int main(void) {\n  #pragma acc parallel loop copyout(a)\n  for (int i = 0; i < N; i++)\n    \
         for (int j = 0; j < N; j++) a[i][j] = i * 1000 + j + SHIFT;\n  int bad = 0;\n  \
         for (int i = 0; i < N; i++)\n    for (int j = 0; j < N; j++) bad += a[i][j] != i * 1000 + j + SHIFT;\n  \
         printf(\"N=%d wrong=%d\\n\", N, bad);\n  return bad != 0;\n}\n",
    )
    .unwrap();
    let exe = dir.join("sized");
    acc_cc(&exe, &["-DN=48", "-DSHIFT=7"], &[&src]);
    let cache = sim::fresh_cache("command-line-macros");
    let run = run_on(gpu, &cache, &exe, "nvidia");
    let printed = sim::printed(&run);
    assert!(
        run.status.success() && printed.contains("N=48 wrong=0"),
        "{printed}"
    );
}

/// A default the file guards (`#ifndef MODE` / `#define MODE 0`) that `-DMODE=1` overrides,
/// and the arms it then chooses: a directive's (`data copyout(a)` or a section of it) and a
/// macro's definition. acc had taken the guarded default as live, so it lowered the other
/// arm's directive (the host C did not compile) and gave the CUDA module the other
/// definition.
#[test]
fn a_guarded_default_the_command_line_overrides_chooses_the_arms() {
    if !have_cc() {
        return;
    }
    let Some(gpu) = sim::simulator() else {
        return;
    };
    let dir = fresh_dir("cuda-sim-guarded-default");
    let src = dir.join("mode.c");
    std::fs::write(
        &src,
        "#include <stdio.h>\n#ifndef MODE\n#define MODE 0\n#endif\n#if MODE == 1\n#define SCALE 3\n\
         #else\n#define SCALE 5\n#endif\nint main(void) {\n  int a[64], bad = 0;\n#if MODE == 1\n\
         #pragma acc data copyout(a)\n#else\n#pragma acc data copyout(a[0:64])\n#endif\n  {\n\
         #pragma acc parallel loop present(a)\n    for (int i = 0; i < 64; i++) a[i] = i * SCALE;\n  }\n  \
         for (int i = 0; i < 64; i++) bad += a[i] != i * SCALE;\n  \
         printf(\"MODE=%d SCALE=%d wrong=%d\\n\", MODE, SCALE, bad);\n  return bad != 0;\n}\n",
    )
    .unwrap();
    let exe = dir.join("mode");
    acc_cc(&exe, &["-DMODE=1"], &[&src]);
    let cache = sim::fresh_cache("guarded-default");
    for device in ["host_discrete", "nvidia"] {
        let run = run_on(gpu, &cache, &exe, device);
        let printed = sim::printed(&run);
        assert!(
            run.status.success() && printed.contains("MODE=1 SCALE=3 wrong=0"),
            "{device}: {printed}"
        );
    }
}

/// Preprocessed C (`acc cc -E x.c -o x.i`, or gcc's, as ccache-like builds and
/// `-save-temps` make it) compiled on: its system headers' declarations (`div_t`, `struct
/// timeval`), which the text now holds, stay out of the CUDA module, which NVRTC refused as
/// redefinitions of the prelude's, for every kernel of the file, at the first launch.
#[test]
fn preprocessed_files_keep_the_system_headers_out_of_the_module() {
    if !have_cc() {
        return;
    }
    let Some(gpu) = sim::simulator() else {
        return;
    };
    let dir = fresh_dir("cuda-sim-preprocessed");
    let src = dir.join("pre.c");
    std::fs::write(
        &src,
        "#include <stdio.h>\n#include <stdlib.h>\n#include <sys/time.h>\n#include <math.h>\n\
         typedef struct { double w; } weight;\n\
         int main(void) {\n  int n = 1000, bad = 0;\n  weight k = {2.0};\n  double *a = malloc(n * sizeof *a);\n  \
         #pragma acc parallel loop copyout(a[0:n])\n  for (int i = 0; i < n; i++) a[i] = k.w * sqrt((double)i * i);\n  \
         for (int i = 0; i < n; i++) bad += a[i] != 2.0 * i;\n  free(a);\n  printf(\"wrong=%d\\n\", bad);\n  return bad != 0;\n}\n",
    )
    .unwrap();
    let pre = dir.join("pre.i");
    let out = Command::new(env!("CARGO_BIN_EXE_acc"))
        .args(["cc", "-E", "-o"])
        .arg(&pre)
        .arg(&src)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let exe = dir.join("pre");
    acc_cc(&exe, &["-lm"], &[&pre]);
    let cache = sim::fresh_cache("preprocessed");
    let run = run_on(gpu, &cache, &exe, "nvidia");
    let printed = sim::printed(&run);
    assert!(
        run.status.success() && printed.contains("wrong=0"),
        "{printed}"
    );
}

/// `-ffp-contract=off` reaches the kernels: NVRTC fuses `a * b + c` into one rounding by
/// default (as the simulator does where the CPU has FMA), and with the flag a kernel's floats
/// are the host's to the last bit. Without the flag, on such a CPU, they are the fused ones.
#[test]
fn no_fp_contraction_makes_kernels_round_as_the_host() {
    if !have_cc() {
        return;
    }
    let Some(gpu) = sim::simulator() else {
        return;
    };
    let dir = fresh_dir("cuda-sim-fp-contract");
    let src = dir.join("axpy.c");
    std::fs::write(
        &src,
        "#include <math.h>\n#include <stdio.h>\nenum { N = 256 };\n\
         int main(void) {\n  float a[N], b[N], c[N], y[N];\n  \
         for (int i = 0; i < N; i++) { a[i] = 0.1f; b[i] = (float)i; c[i] = 0.05f + 0.001f * i; }\n  \
         #pragma acc parallel loop copyin(a, b, c) copyout(y)\n  \
         for (int i = 0; i < N; i++) y[i] = a[i] * b[i] + c[i];\n  \
         int unfused = 0, fused = 0;\n  \
         for (int i = 0; i < N; i++) {\n    volatile float p = a[i] * b[i];\n    \
         unfused += y[i] != p + c[i];\n    fused += y[i] != fmaf(a[i], b[i], c[i]);\n  }\n  \
         printf(\"differ from unfused=%d fused=%d\\n\", unfused, fused);\n  return 0;\n}\n",
    )
    .unwrap();
    let cpu_fuses = std::fs::read_to_string("/proc/cpuinfo")
        .is_ok_and(|info| info.split_whitespace().any(|w| w == "fma"));
    for (flags, want) in [
        (&["-ffp-contract=off"][..], "unfused=0 "),
        (&[][..], if cpu_fuses { "fused=0" } else { "unfused=0 " }),
    ] {
        let exe = dir.join(if flags.is_empty() { "fused" } else { "unfused" });
        acc_cc(&exe, flags, &[&src]);
        let cache = sim::fresh_cache("fp-contract");
        let run = run_on(gpu, &cache, &exe, "nvidia");
        let printed = sim::printed(&run);
        assert!(
            run.status.success() && printed.contains(want),
            "{flags:?}: want {want}: {printed}"
        );
    }
}

/// Constants (`static const` scalars and tables, the file's and its header's) that routines
/// use without a `declare`: the GPU module has copies of its own (before, the kernels had no
/// CUDA version and stopped on the GPU).
#[test]
fn routines_use_constants_without_declare() {
    if !have_cc() {
        return;
    }
    let Some(gpu) = sim::simulator() else {
        return;
    };
    let dir = fresh_dir("cuda-sim-routine-constants");
    std::fs::write(
        dir.join("k.h"),
        "static const double scale_by = 3.0;\nstatic const int table[4] = {1, 2, 3, 4};\n",
    )
    .unwrap();
    let src = dir.join("k.c");
    std::fs::write(
        &src,
        "#include <stdio.h>\n#include \"k.h\"\nstatic const double local_scale = 2.0;\n\
         #pragma acc routine seq\nstatic double f(double x, int i) { return x * scale_by * local_scale + table[i % 4]; }\n\
         int main(void) {\n  double a[16];\n  for (int i = 0; i < 16; i++) a[i] = i;\n\
         #pragma acc parallel loop copy(a)\n  for (int i = 0; i < 16; i++) a[i] = f(a[i], i);\n\
         int bad = 0;\n  for (int i = 0; i < 16; i++) bad += a[i] != i * 6.0 + (i % 4 + 1);\n\
         printf(\"wrong=%d\\n\", bad);\n  return bad != 0;\n}\n",
    )
    .unwrap();
    let exe = dir.join("k");
    acc_cc(&exe, &[], &[&src]);
    let cache = sim::fresh_cache("routine-constants");
    for device in ["nvidia", "host_discrete"] {
        let run = run_on(gpu, &cache, &exe, device);
        let printed = sim::printed(&run);
        assert!(
            run.status.success() && printed.contains("wrong=0") && !printed.contains("warning"),
            "{device}: {printed}"
        );
    }
}

/// An array a `parallel` region declares is each gang's own, in the thread's local memory,
/// which CUDA gives up to 512 KiB: the H200 ran one of 480 KiB (and refused 1 MiB at the
/// launch); the simulator's threads have room for it too (its stacks were 256 KiB).
#[test]
fn large_gang_private_arrays_fit_as_on_a_gpu() {
    if !have_cc() {
        return;
    }
    let Some(gpu) = sim::simulator() else {
        return;
    };
    let dir = fresh_dir("cuda-sim-large-private");
    let src = dir.join("big.c");
    std::fs::write(
        &src,
        "#include <stdio.h>\n#define BIG (480 * 256)\nint main(void) {\n  int n = 1000; float out[1000];\n\
         #pragma acc parallel num_gangs(1) vector_length(1) copyout(out[0:n])\n  {\n    float buf[BIG];\n\
         for (int i = 0; i < BIG; i++) buf[i] = (float)(i % 7);\n#pragma acc loop\n\
         for (int i = 0; i < n; i++) out[i] = buf[(i * 200) % BIG] + 1.0f;\n  }\n  int bad = 0;\n\
         for (int i = 0; i < n; i++) bad += out[i] != (float)(((i * 200) % BIG) % 7) + 1.0f;\n\
         printf(\"wrong=%d\\n\", bad);\n  return bad != 0;\n}\n",
    )
    .unwrap();
    let exe = dir.join("big");
    acc_cc(&exe, &[], &[&src]);
    let cache = sim::fresh_cache("large-private");
    let run = run_on(gpu, &cache, &exe, "nvidia");
    let printed = sim::printed(&run);
    assert!(
        run.status.success() && printed.contains("wrong=0"),
        "{printed}"
    );
}
