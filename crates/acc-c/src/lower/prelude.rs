//! The text every lowered file starts with: the runtime's header, the data region's cleanup,
//! the trip count, and the partitioning, spreading and atomic macros the kernels' bodies use
//! (their host definitions; the CUDA module defines them its own way).
//!
//! Owns only that text; it must not know any construct or file.

use std::collections::HashMap;

/// The names acc's headers (`acc_rt.h`, `openacc.h`, `acc_prof.h`) and [`PRELUDE`] use for
/// parameters, members and locals. A macro of the same name given on the command line
/// (`-Dn=100`, `-Dcount=4`, `-Diterations=20`) would rewrite them, so [`prelude`] saves and
/// removes such a macro around that text and brings it back after (`push_macro`/`pop_macro`).
/// The test beside keeps the list complete.
const SHIELDED: &[&str] = &[
    "acc",
    "action",
    "active",
    "arg_info",
    "arg_vals",
    "args",
    "async",
    "async_arg",
    "async_arg_src",
    "async_handle",
    "async_queue",
    "b",
    "begin",
    "bytes",
    "cb",
    "chunk",
    "cmp",
    "combine",
    "config",
    "construct",
    "context_handle",
    "copy",
    "count",
    "cuda_entry",
    "cuda_lanes",
    "cuda_source",
    "d_void",
    "data",
    "data_arg",
    "data_arg_dest",
    "data_arg_src",
    "data_dev",
    "data_dev_dest",
    "data_dev_src",
    "data_event",
    "data_host_dest",
    "data_host_src",
    "dev_num",
    "dev_num_dest",
    "dev_num_src",
    "dev_type",
    "device_api",
    "device_handle",
    "device_number",
    "device_ptr",
    "device_type",
    "e",
    "end",
    "end_line",
    "end_line_no",
    "event",
    "event_type",
    "file",
    "flags",
    "fresh",
    "func",
    "func_end_line",
    "func_end_line_no",
    "func_line",
    "func_line_no",
    "func_name",
    "h",
    "h_void",
    "handler",
    "host",
    "host_fn",
    "host_ptr",
    "if_present",
    "implicit",
    "index",
    "info",
    "init",
    "iterations",
    "kernel",
    "kernel_name",
    "kind",
    "launch_event",
    "lb",
    "library",
    "line",
    "line_no",
    "lookup",
    "lv",
    "message",
    "module",
    "n",
    "name",
    "nargs",
    "needs",
    "new",
    "no_library",
    "nreds",
    "num_gangs",
    "num_workers",
    "op",
    "original",
    "other_event",
    "parent_construct",
    "part",
    "property",
    "provides",
    "ptr_addr",
    "queues",
    "r",
    "red",
    "red_info",
    "red_vals",
    "reds",
    "reg",
    "register_library",
    "restore",
    "save",
    "sites",
    "size",
    "src_file",
    "stddef",
    "stdint",
    "step",
    "stream",
    "symbol",
    "t",
    "text",
    "thread_id",
    "tool_info",
    "type",
    "ub",
    "unreg",
    "user",
    "v",
    "valid_bytes",
    "vals",
    "var",
    "var_name",
    "vector_length",
    "vendor",
    "version",
    "wait_arg",
    "x",
];

/// [`PRELUDE`], shielded from the macros of `macros` (the file's, as the preprocessor read
/// it: the command line's among them) that name what the headers and the prelude declare.
pub(crate) fn prelude(
    macros: &HashMap<String, crate::macro_expand::MacroDef>,
    src: &str,
    header_features: &[String],
) -> String {
    let names: Vec<&str> = SHIELDED
        .iter()
        .copied()
        .filter(|n| macros.contains_key(*n))
        .collect();
    let mut features = String::new();
    for d in header_features {
        features.push_str(d);
        features.push('\n');
    }
    features.push_str(&feature_test_macros(src));
    if names.is_empty() && features.is_empty() {
        return PRELUDE.to_string();
    }
    let (first_line, rest) = PRELUDE.split_at(PRELUDE.find('\n').map_or(0, |i| i + 1));
    let mut out = String::from(first_line);
    out.push_str(&features);
    for n in &names {
        out.push_str(&format!("#pragma push_macro(\"{n}\")\n#undef {n}\n"));
    }
    out.push_str(rest);
    for n in &names {
        out.push_str(&format!("#pragma pop_macro(\"{n}\")\n"));
    }
    out
}

/// The macros the C library reads at its first header to choose what it declares.
pub(crate) const FEATURE_TEST_MACROS: &[&str] = &[
    "_GNU_SOURCE",
    "_DEFAULT_SOURCE",
    "_BSD_SOURCE",
    "_SVID_SOURCE",
    "_POSIX_SOURCE",
    "_POSIX_C_SOURCE",
    "_XOPEN_SOURCE",
    "_XOPEN_SOURCE_EXTENDED",
    "_ISOC99_SOURCE",
    "_ISOC11_SOURCE",
    "_LARGEFILE_SOURCE",
    "_LARGEFILE64_SOURCE",
    "_FILE_OFFSET_BITS",
    "_TIME_BITS",
    "_REENTRANT",
    "_THREAD_SAFE",
    "_FORTIFY_SOURCE",
    "__STDC_WANT_LIB_EXT1__",
    "__STDC_WANT_IEC_60559_FUNCS_EXT__",
    "__STDC_WANT_IEC_60559_TYPES_EXT__",
];

/// The program's feature-test macros (`#define _GNU_SOURCE`, `_POSIX_C_SOURCE`, …) that it
/// defines before its first system `#include`: the C library reads them at its first header, which
/// acc's `acc_rt.h` now is, so they go ahead of it, as written (the program's own definition
/// later is the same one again, which C allows).
fn feature_test_macros(src: &str) -> String {
    let mut out = String::new();
    let mut in_comment = false;
    for line in src.lines() {
        let was_in_comment = in_comment;
        in_comment = crate::syntax::comment_open_after(line, in_comment);
        if was_in_comment {
            continue;
        }
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix('#') {
            // Up to the first system header: the program's own may come before, and set
            // nothing the C library reads yet.
            let directive = rest.trim_start();
            if let Some(included) = directive.strip_prefix("include") {
                if included.trim_start().starts_with('<') {
                    break;
                }
            }
            if let Some(("define", name)) = crate::lex::macro_line(line) {
                if FEATURE_TEST_MACROS.contains(&name) && !line.trim_end().ends_with('\\') {
                    out.push_str(line.trim_end());
                    out.push('\n');
                }
            }
        }
    }
    out
}

/// What every lowered file starts with.
pub(crate) const PRELUDE: &str = r#"/* Generated by `acc cc` from OpenACC C: do not edit. */
#include <acc_rt.h>

/* A structured data region, ended by a cleanup when its block is left. */
struct __acc_region {
  const char *__acc_file;
  int __acc_line;
  const acc_rt_data *__acc_data;
  size_t __acc_n;
  int __acc_async;
  int __acc_active;
};
__attribute__((unused)) static inline void __acc_region_end(struct __acc_region *r) {
  if (r->__acc_active)
    acc_rt_region_end(r->__acc_file, r->__acc_line, r->__acc_data, r->__acc_n, r->__acc_async);
}
/* A `num_gangs`, `num_workers` or `vector_length` the program gives: -1 when it is not
 * positive, which the launch reports (0 means "not given"). */
__attribute__((unused)) static inline int __acc_dim(long long v) { return v > 0 ? (int)v : -1; }
/* The trip count of a canonical loop; cmp: 0 <, 1 <=, 2 >, 3 >=, 4 !=. */
__attribute__((unused)) static inline long long __acc_trips(long long lb, long long ub, long long step, int cmp) {
  if (step == 0) return 0;
  if (cmp == 1) ub += 1, cmp = 0;
  if (cmp == 3) ub -= 1, cmp = 2;
  if (cmp == 4) cmp = step > 0 ? 0 : 2;
  if (cmp == 0) return (step > 0 && ub > lb) ? (ub - lb + step - 1) / step : 0;
  return (step < 0 && lb > ub) ? (lb - ub - step - 1) / -step : 0;
}
/* The outermost gang loop of a kernel runs iterations [__ACC_FIRST(t), __ACC_END(t)) in steps
 * of __ACC_STEP: a contiguous chunk here (the first t % count chunks one iteration longer; no
 * 128-bit arithmetic, which costs the C compiler more than the rest of a small kernel); the
 * CUDA module deals them out over its threads. */
#define __ACC_FIRST(t) \
  ((t) / __acc_chunk->__acc_count * __acc_chunk->__acc_index + \
   ((t) % __acc_chunk->__acc_count < __acc_chunk->__acc_index ? (t) % __acc_chunk->__acc_count : __acc_chunk->__acc_index))
#define __ACC_END(t) \
  (__ACC_FIRST(t) + (t) / __acc_chunk->__acc_count + (__acc_chunk->__acc_index < (t) % __acc_chunk->__acc_count))
#define __ACC_STEP 1
/* A gang loop whose iterations differ in work (a triangular nest) runs __ACC_ROUNDS(t) rounds
 * of one block each: the iterations cut into 16 blocks a chunk, dealt out in a zigzag (rounds
 * alternately forwards and backwards over the chunks), so each chunk gets early and late
 * iterations alike and the work of any linearly growing or shrinking nest evens out. The
 * CUDA module deals iterations out one at a time anyway: there it is one round. */
#define __ACC_BLOCKS(t) ((t) < __acc_chunk->__acc_count * 16 ? (t) : __acc_chunk->__acc_count * 16)
#define __ACC_ROUNDS(t) ((__ACC_BLOCKS(t) + __acc_chunk->__acc_count - 1) / __acc_chunk->__acc_count)
#define __ACC_BLOCK(t, r) \
  ((r) * __acc_chunk->__acc_count + ((r) & 1 ? __acc_chunk->__acc_count - 1 - __acc_chunk->__acc_index : __acc_chunk->__acc_index))
#define __ACC_BFIRST(t, b) \
  ((b) >= __ACC_BLOCKS(t) ? (t) \
   : (t) / __ACC_BLOCKS(t) * (b) + ((t) % __ACC_BLOCKS(t) < (b) ? (t) % __ACC_BLOCKS(t) : (b)))
#define __ACC_BEND(t, b) __ACC_BFIRST(t, (b) + 1)
/* Gang-redundant statements with effects that must happen once per gang (atomics, updates of
 * reduction variables): here a chunk is a gang, so they need nothing; the CUDA module runs
 * them on the first thread of each block. */
#define __ACC_REDUNDANT_BEGIN {
#define __ACC_REDUNDANT_END }
/* A loop variable declared before its loop, set from the iteration's index (the CUDA module
 * casts, for an enum). */
#define __ACC_SET(name, e) ((name) = (e))
/* A loop variable stepping by itself beside its iteration count (the CUDA module steps it
 * in `long long`, so that the last step of a thread far past the end cannot overflow). */
#define __ACC_IV_ADD(name, e) ((name) += (e))
/* A mapped variable the kernel's text reaches only through a macro's replacement text: a
 * variable of its name bound to the device copy (an array's decayed, a scalar's value). */
#define __ACC_ARRAY_ALIAS(name, e) __typeof__(&*(e)) name = (e)
#define __ACC_VALUE_ALIAS(name, e) __typeof__(e) name = (e)
/* A worker or vector loop that the CUDA module spreads over a block's threads (its "lanes"
 * mode): here it runs in order, within the chunk, its reductions straight into the variable. */
#define __ACC_VFIRST(t) 0LL
#define __ACC_VEND(t) (t)
#define __ACC_VSTEP 1LL
#define __ACC_VSYNC
#define __ACC_VRED_BEGIN(save, fresh) {{
#define __ACC_VRED_END(combine, restore) }}
#define __ACC_VSINGLE_BEGIN {
#define __ACC_VSINGLE_END }
/* A worker loop with vector loops inside, which the CUDA module spreads over a block's rows
 * (threadIdx.y), and those vector loops, over a row's lanes (threadIdx.x): in order here. */
#define __ACC_WFIRST(t) 0LL
#define __ACC_WEND(t) (t)
#define __ACC_WSTEP 1LL
#define __ACC_WSYNC
#define __ACC_WRED_BEGIN(save, fresh) {{
#define __ACC_WRED_END(combine, restore) }}
#define __ACC_XFIRST(t) 0LL
#define __ACC_XEND(t) (t)
#define __ACC_XSTEP 1LL
#define __ACC_XSYNC
#define __ACC_XRED_BEGIN(save, fresh) {{
#define __ACC_XRED_END(combine, restore) }}
#define __ACC_XSINGLE_BEGIN {
#define __ACC_XSINGLE_END }
/* Atomics read as one access of one location (`x op= e`, `x = e op x` as the _R forms, their
 * captures, reads and writes): under the process-wide lock here; the CUDA module
 * compare-and-swaps the one location, or reads or writes it whole, instead. */
#define __ACC_ATOMIC(lv, op, name, e) do { acc_rt_atomic_begin(); (lv) op (e); acc_rt_atomic_end(); } while (0)
#define __ACC_ATOMIC_R(lv, op, name, e) do { acc_rt_atomic_begin(); (lv) = (e) op (lv); acc_rt_atomic_end(); } while (0)
#define __ACC_ATOMIC_READ(v, x) do { acc_rt_atomic_begin(); (v) = (x); acc_rt_atomic_end(); } while (0)
#define __ACC_ATOMIC_WRITE(x, e) do { acc_rt_atomic_begin(); (x) = (e); acc_rt_atomic_end(); } while (0)
#define __ACC_CAPTURE(v, lv, op, name, e, new) \
  do { acc_rt_atomic_begin(); if (new) { (lv) op (e); (v) = (lv); } else { (v) = (lv); (lv) op (e); } \
       acc_rt_atomic_end(); } while (0)
#define __ACC_CAPTURE_R(v, lv, op, name, e, new) \
  do { acc_rt_atomic_begin(); if (new) { (lv) = (e) op (lv); (v) = (lv); } \
       else { (v) = (lv); (lv) = (e) op (lv); } acc_rt_atomic_end(); } while (0)
"#;

#[cfg(test)]
mod tests {
    use super::{PRELUDE, SHIELDED};

    /// Every name the headers and the prelude declare or use that a program could define as
    /// a macro (not a keyword, a standard type, a reserved or `acc_` name, nor all capitals) is
    /// shielded.
    #[test]
    fn the_shielded_names_cover_the_headers_and_the_prelude() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../acc-runtime/include");
        let mut texts: Vec<String> = ["acc_rt.h", "openacc.h", "acc_prof.h"]
            .iter()
            .map(|f| std::fs::read_to_string(dir.join(f)).unwrap())
            .collect();
        texts.push(PRELUDE.to_string());
        let keywords = [
            "auto",
            "break",
            "case",
            "char",
            "const",
            "continue",
            "default",
            "do",
            "double",
            "else",
            "enum",
            "extern",
            "float",
            "for",
            "goto",
            "if",
            "inline",
            "int",
            "long",
            "register",
            "restrict",
            "return",
            "short",
            "signed",
            "sizeof",
            "static",
            "struct",
            "switch",
            "typedef",
            "union",
            "unsigned",
            "void",
            "volatile",
            "while",
            "defined",
            "include",
            "ifdef",
            "ifndef",
            "endif",
            "define",
            "undef",
            "pragma",
            "elif",
            "error",
            "attribute",
            "unused",
            "cleanup",
            "constructor",
            "weak",
            "visibility",
            "hidden",
            "cplusplus",
            "size_t",
            "int64_t",
            "int32_t",
            "uint32_t",
            "uint64_t",
            "int8_t",
            "uint8_t",
            "int16_t",
            "uint16_t",
            "intptr_t",
            "uintptr_t",
            "ptrdiff_t",
        ];
        use crate::lex::{comment_end, is_word, literal_end, number_end, number_starts};
        let mut missing = Vec::new();
        for code in &texts {
            let b = code.as_bytes();
            let mut i = 0;
            while i < b.len() {
                if b[i] == b'"' || b[i] == b'\'' {
                    i = literal_end(b, i).unwrap_or(b.len());
                    continue;
                }
                if code[i..].starts_with("/*") {
                    i = comment_end(code, i).unwrap_or(b.len());
                    continue;
                }
                if code[i..].starts_with("//") {
                    i = code[i..].find('\n').map_or(b.len(), |k| i + k);
                    continue;
                }
                if number_starts(b, i) {
                    i = number_end(b, i);
                    continue;
                }
                if !is_word(b[i]) {
                    i += 1;
                    continue;
                }
                let start = i;
                while i < b.len() && is_word(b[i]) {
                    i += 1;
                }
                let w = &code[start..i];
                let shieldable = !w.starts_with(|c: char| c.is_ascii_digit() || c == '_')
                    && !w.starts_with("acc_")
                    && !w.starts_with("ACC_")
                    && w.chars().any(|c| c.is_ascii_lowercase())
                    && !keywords.contains(&w);
                if shieldable && !SHIELDED.contains(&w) && !missing.contains(&w.to_string()) {
                    missing.push(w.to_string());
                }
            }
        }
        assert!(missing.is_empty(), "add to SHIELDED: {missing:?}");
    }
}
