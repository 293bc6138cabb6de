//! Where the C that `acc cc` generates for a file finds the user's headers (it is written
//! elsewhere than the file, and it may hold the program's headers acc put in, see
//! `acc_c::inline`), and the dependency file that names the user's files, not acc's.
//!
//! Knows paths and make's syntax; must not lower or run the compiler.

use std::path::{Path, PathBuf};

use crate::toolchain::{Fail, Result};

/// Where the generated C of one file finds its quoted includes, and the program's headers acc
/// put into it.
pub struct Includes {
    /// `-iquote` directories: the source's first (`#include "x.h"` looks beside the including
    /// file, and the generated file is elsewhere), then those of the headers put in, whose own
    /// quoted includes look beside them.
    pub quote_dirs: Vec<PathBuf>,
    /// The headers put in (see `acc_c::inline`): the dependency file names them.
    pub inlined: Vec<String>,
}

impl Includes {
    pub fn of(path: &str, inlined: Vec<String>) -> Includes {
        let src_dir = Path::new(path)
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let mut quote_dirs = vec![src_dir.to_path_buf()];
        for dir in acc_c::inline::quote_dirs(&inlined) {
            if !quote_dirs.contains(&dir) {
                quote_dirs.push(dir);
            }
        }
        Includes {
            quote_dirs,
            inlined,
        }
    }
}

/// The host compiler wrote the generated file's name into the dependency
/// file; make wants the user's file there (the generated one is gone, and
/// make would look for a rule to build it).
pub fn name_the_source_in_dep_file(
    dep: &Path,
    generated: &Path,
    source: &str,
    inlined: &[String],
) -> Result<()> {
    let Ok(text) = std::fs::read_to_string(dep) else {
        return Ok(());
    };
    let escaped = source.replace(' ', "\\ ");
    let mut new = text.replace(&*generated.to_string_lossy(), &escaped);
    // The headers acc put into the file are no longer `#include`d: the first rule names them
    // at its end, as the compiler would have.
    if !inlined.is_empty() {
        let end = new
            .match_indices('\n')
            .map(|(i, _)| i)
            .find(|&i| !new[..i].ends_with('\\'))
            .unwrap_or(new.len());
        let names: String = inlined
            .iter()
            .map(|h| format!(" {}", h.replace(' ', "\\ ")))
            .collect();
        new.insert_str(end, &names);
    }
    if new != text {
        std::fs::write(dep, new)
            .map_err(|e| Fail::Msg(format!("cannot write {}: {e}", dep.display())))?;
    }
    Ok(())
}
