//! Snapshots of what `acc cc` generates for every program of the conformance corpus, the
//! corpus, the examples and the benches: the host C, the CUDA module, the two translation
//! units of the split and the `--info` lines. They pin the lowering's output, so a change that
//! means to restructure the code and not what it generates shows as no diff at all; a change
//! of generated text is reviewed as one.
//!
//! Refresh with `UPDATE_EXPECT=1 cargo test -p acc-c --test snapshots` and review the diff.
//! Header facts come from the system's `cc -E`, as in `acc cc`.

use std::fs;
use std::path::{Path, PathBuf};

use acc_c::lower::{lower_file_lazy, LowerOptions};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The programs pinned: every C file of these folders (one level of subfolders too).
fn programs() -> Vec<PathBuf> {
    let root = workspace();
    let mut files = Vec::new();
    for dir in [
        "tests/conformance",
        "tests/corpus",
        "examples",
        "benches/c",
        "benches/gpu",
    ] {
        collect_c_files(&root.join(dir), 1, &mut files);
    }
    files.sort();
    files
}

fn collect_c_files(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() && depth > 0 {
            collect_c_files(&path, depth - 1, out);
        } else if path.extension().is_some_and(|e| e == "c") {
            out.push(path);
        }
    }
}

/// Everything the lowering gives for one file, as one text.
fn generated(path: &Path) -> String {
    let root = workspace();
    let shown = path
        .strip_prefix(&root)
        .unwrap_or(path)
        .to_string_lossy()
        .to_string();
    let bytes = fs::read(path).unwrap();
    let (src, _) = acc_c::text::prepare(acc_c::text::decode(bytes));
    let include = root.join("crates/acc-runtime/include");
    let args = vec![format!("-I{}", include.display())];
    let mut headers = || acc_c::preprocess::header_facts("cc", path, &args);
    // As `acc cc` lowers: the program's headers that hold directives put in.
    let opts = LowerOptions {
        file_name: shown.clone(),
        inline_headers: true,
        ..Default::default()
    };
    let acc_c::lower::LazyLowering {
        lowered,
        diags,
        text,
    } = lower_file_lazy(&src, &mut headers, &opts).unwrap();
    let src = text.unwrap_or(src);
    let mut out = String::new();
    for d in &diags {
        out.push_str(&acc_c::render::render(d, &shown, &src));
    }
    let Some(lowered) = lowered else {
        return out;
    };
    out.push_str("==== info\n");
    for line in &lowered.info {
        out.push_str(line);
        out.push('\n');
    }
    out.push_str("==== host C\n");
    // The module's literal names a header put in by its path too: digest it as shown.
    let from_root = |text: &str| text.replace(&format!("{}/", root.display()), "");
    out.push_str(&digest_embedded_module(&from_root(&lowered.host_c)));
    if let Some(cuda) = &lowered.cuda_c {
        out.push_str("==== CUDA module\n");
        out.push_str(&name_preludes(cuda));
    }
    if let Some(library) = &lowered.cuda_library {
        out.push_str("==== CUDA routine library\n");
        out.push_str(&name_preludes(library));
    }
    match lowered.split(&src) {
        Ok(split) => {
            out.push_str("==== split: host unit\n");
            out.push_str(&digest_embedded_module(&from_root(&split.host)));
            out.push_str("==== split: kernel unit\n");
            out.push_str(&split.kernels);
        }
        Err(why) => {
            out.push_str("==== one translation unit: ");
            out.push_str(&why);
            out.push('\n');
        }
    }
    // A header put in is named as the preprocessor found it, from the workspace's root.
    without_symbol_tags(&from_root(&out))
}

/// `text` with the per-file tags of the kernel unit's symbols (`__asm__("__acc_kernel1_0_` and
/// 16 hex digits) written `TAG`: the tag digests the file's text, which a header put in names
/// by its absolute path, so it differs between checkouts.
fn without_symbol_tags(text: &str) -> String {
    const ASM: &str = "__asm__(\"";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(k) = rest.find(ASM) {
        let start = k + ASM.len();
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let Some(end) = rest.find('"') else {
            continue;
        };
        let symbol = &rest[..end];
        match symbol.rsplit_once('_') {
            Some((name, tag)) if tag.len() == 16 && tag.bytes().all(|b| b.is_ascii_hexdigit()) => {
                out.push_str(name);
                out.push_str("_TAG");
            }
            _ => out.push_str(symbol),
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The CUDA module and routine library embedded in host C as string literals, each replaced
/// by its length and hash: their texts are pinned where they are readable, under "CUDA
/// module" and "CUDA routine library".
fn digest_embedded_module(host: &str) -> String {
    const DEFINITIONS: [&str; 2] = [
        "static const char __acc_cuda_module[] = ",
        "static const char __acc_cuda_routines[] = ",
    ];
    host.split_inclusive('\n')
        .map(|line| {
            let embedded = DEFINITIONS
                .iter()
                .find_map(|d| line.strip_prefix(d).map(|literal| (d, literal)));
            match embedded {
                Some((definition, literal)) => format!(
                    "{definition}/* {} bytes, FNV-1a {:016x} */\n",
                    literal.len(),
                    fnv1a(literal.as_bytes())
                ),
                None => line.to_string(),
            }
        })
        .collect()
}

/// The fixed preludes of every CUDA module, by name: they are constants of acc-engine.
fn name_preludes(module: &str) -> String {
    use acc_engine::cuda::{PRELUDE, PRELUDE_F80, PRELUDE_F80_COMPLEX};
    module
        .replace(PRELUDE, "/* acc_engine::cuda::PRELUDE */\n")
        .replace(PRELUDE_F80, "/* acc_engine::cuda::PRELUDE_F80 */\n")
        .replace(
            PRELUDE_F80_COMPLEX,
            "/* acc_engine::cuda::PRELUDE_F80_COMPLEX */\n",
        )
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[test]
fn generated_code_is_pinned() {
    let files = programs();
    assert!(
        files.len() > 80,
        "the corpus is missing: {} files",
        files.len()
    );
    let snapshots = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let root = workspace();
    for path in &files {
        let name = path
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('/', "__");
        expect_test::expect_file![snapshots.join(format!("{name}.txt"))]
            .assert_eq(&generated(path));
    }
}
