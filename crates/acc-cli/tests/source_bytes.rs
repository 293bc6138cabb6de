//! Source files as other people's editors write them: CRLF and lone-CR line ends, a byte order
//! mark, Latin-1 bytes in comments and strings, tabs, form feeds, a directive continued with a
//! backslash. Each variant of one program must compile with `acc cc`, run with the right answer
//! on `host_discrete` and on the simulated GPU (its CUDA module carries the file's text), and
//! come out of `acc translate --print=acc` byte for byte.

use std::path::{Path, PathBuf};
use std::process::Command;

mod support;
use support::{have_cc, runtime_lib};

#[path = "../../../tests/cuda-sim/support.rs"]
mod sim;

/// The program, in Latin-1 with LF line ends. The reduction's type comes through a typedef,
/// and a routine's string constant holds a non-ASCII byte that the kernel compares.
const PROGRAM: &[u8] = b"/* caf\xe9: a Latin-1 comment, \x93quoted\x94 */
#include <stdio.h>
#define N 100
typedef double real_t;
\x0c
#pragma acc routine seq
static int first_byte(const char *s) { return (unsigned char)s[0]; }

int main(void) {
\treal_t a[N], s = 0;
\tint bytes = 0;
\tfor (int i = 0; i < N; i++) a[i] = i;
#pragma acc parallel loop copyin(a) \\
    reduction(+:s) reduction(+:bytes)
\tfor (int i = 0; i < N; i++) {
\t\ts += a[i] * 2; /* \xe9t\xe9 */
\t\tbytes += first_byte(\"\xe9t\xe9\") == 0xe9;
\t}
\tif (s != 9900 || bytes != N) { printf(\"wrong: %g %d\\n\", s, bytes); return 1; }
\tprintf(\"right\\n\");
\treturn 0;
}
";

fn variants() -> Vec<(&'static str, Vec<u8>)> {
    let crlf: Vec<u8> = PROGRAM
        .iter()
        .flat_map(|&b| {
            if b == b'\n' {
                vec![b'\r', b'\n']
            } else {
                vec![b]
            }
        })
        .collect();
    let cr: Vec<u8> = PROGRAM
        .iter()
        .map(|&b| if b == b'\n' { b'\r' } else { b })
        .collect();
    let mut bom = b"\xef\xbb\xbf".to_vec();
    bom.extend_from_slice(&crlf);
    vec![
        ("latin1-lf", PROGRAM.to_vec()),
        ("latin1-crlf", crlf),
        ("latin1-cr", cr),
        ("bom-crlf", bom),
    ]
}

fn acc() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_acc"));
    c.env("ACC_RUNTIME_LIB", runtime_lib());
    c
}

fn build(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let src = dir.join(format!("{name}.c"));
    std::fs::write(&src, bytes).unwrap();
    let exe = dir.join(name);
    let out = acc()
        .args(["cc", "-O1", "-Wall", "-o"])
        .arg(&exe)
        .arg(&src)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{name}: acc cc failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = acc()
        .args(["translate", "--print=acc"])
        .arg(&src)
        .output()
        .unwrap();
    assert!(printed.status.success(), "{name}: acc translate failed");
    assert!(
        printed.stdout == bytes,
        "{name}: acc translate --print=acc changed the file's bytes"
    );
    exe
}

#[test]
fn any_bytes_a_compiler_takes_compile_run_and_print_unchanged() {
    if !have_cc() {
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("source-bytes");
    std::fs::create_dir_all(&dir).unwrap();
    let gpu = sim::simulator();
    let cache = sim::fresh_cache("source-bytes");
    for (name, bytes) in variants() {
        let exe = build(&dir, name, &bytes);
        let run = Command::new(&exe)
            .env("ACC_DEVICE_TYPE", "host_discrete")
            .output()
            .unwrap();
        assert!(
            run.status.success() && run.stdout == b"right\n",
            "{name} on host_discrete:\n{}",
            sim::printed(&run)
        );
        if let Some(gpu) = gpu {
            let mut cmd = Command::new(&exe);
            cmd.env("ACC_DEVICE_TYPE", "nvidia");
            let run = sim::output_within(gpu.configure(&mut cmd, &cache), sim::CHILD_TIMEOUT);
            assert!(
                run.status.success() && run.stdout == b"right\n",
                "{name} on the simulated GPU:\n{}",
                sim::printed(&run)
            );
        }
    }
    let _ = std::fs::remove_dir_all(&cache);
}
