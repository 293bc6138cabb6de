//! Which of the program's headers `lower_file_lazy` puts into the file besides those holding
//! directives: those that define functions the file's compute constructs call (they get their
//! implicit `routine seq` there), and those included inside a construct's statement (part of
//! its code). It reads the analysis and the preprocessor's facts; it must not read or edit
//! text (`crate::inline` puts the headers in).

use crate::types::TypeEnv;

/// The inclusion chains of the program's headers that define functions the file's compute
/// constructs call and the file does not define (`static inline` helpers in a header): OpenACC
/// 3.3 2.15.1 gives such a function an implicit `routine seq` when its definition is in the
/// unit compiled, which a header's is; put into the file, it gets its device version as the
/// file's own functions do.
pub(super) fn headers_of_called_functions(
    src: &str,
    analysis: &crate::Analysis,
    env: &TypeEnv,
) -> Vec<Vec<(String, usize)>> {
    if env.header_functions.is_empty() {
        return Vec::new();
    }
    let compute = super::compute_bodies(&analysis.unit);
    // Through the file's functions too: a kernel that calls `f`, which calls a header's `sq`,
    // needs `sq`'s device version as much as one that calls `sq` itself.
    let explicit = crate::cuda::routine_names(&analysis.unit);
    let (calls, _) = crate::cuda::device_calls(src, &analysis.trees, &compute, &explicit);
    let mut chains: Vec<Vec<(String, usize)>> = Vec::new();
    for name in &calls {
        let Some((_, header)) = env.header_functions.iter().find(|(f, _)| f == name) else {
            continue;
        };
        let Some(chain) = env
            .program_headers
            .iter()
            .find(|c| c.last().is_some_and(|(h, _)| h == header))
        else {
            continue;
        };
        if !chains.contains(chain) {
            chains.push(chain.clone());
        }
    }
    chains
}

/// The inclusion chains of the program's headers that the file includes inside a compute
/// construct's statement (`#include "body.inc"` as a loop's body, the style of generated
/// code): part of the construct's code is theirs, which acc must read to map its data and
/// write its kernels, so they go into the file where they are included.
pub(super) fn headers_included_in_constructs(
    src: &str,
    analysis: &crate::Analysis,
    env: &TypeEnv,
) -> Vec<Vec<(String, usize)>> {
    let line_of = |offset: usize| src[..offset.min(src.len())].matches('\n').count() + 1;
    let lines: Vec<std::ops::RangeInclusive<usize>> = super::compute_bodies(&analysis.unit)
        .into_iter()
        .map(|b| line_of(b.start)..=line_of(b.end))
        .collect();
    env.program_headers
        .iter()
        .filter(|chain| {
            chain
                .first()
                .is_some_and(|(_, line)| lines.iter().any(|l| l.contains(line)))
        })
        .cloned()
        .collect()
}
