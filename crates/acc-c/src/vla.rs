//! Kernels' pointers to variable-length arrays: a parameter `double a[n][m]` (the pointer
//! `double (*a)[m]`) or a local `double b[n][m]` reached through its device copy
//! (`double (*p)[][m]`), whose inner extents are run-time values.
//!
//! C spells these types in the host kernel as they are. CUDA C++ has no variable-length
//! array types, so the CUDA form of the same declaration is the prelude's `__acc_vla<T, R>`
//! (acc-engine's `cuda` module): an array of rank `R` whose first extent is unbounded and whose
//! other extents it holds, indexed with `[]` (and `*`) as the C array is; the body's text stays
//! the same. Both forms go into the shared declarations, chosen by `__CUDACC__`.
//!
//! This module only writes declarations; which variables a kernel receives, and how, is the
//! lowering's (`lower`).

/// Whether an array extent reaches through memory (`o->size[1]`, `dims[1]`, `s.n`, `n()`),
/// where a kernel cannot follow it: the host computes it at the launch instead (see
/// `lower::host`), and the front end does not count the variables it names as the kernel's.
pub(crate) fn extent_reaches_memory(extent: &str) -> bool {
    extent.contains("->")
        || extent.contains('[')
        || extent.contains('(')
        || extent
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
            .any(|w| w.contains('.') && !w.starts_with(|c: char| c.is_ascii_digit() || c == '.'))
}

/// The declaration of the pointer `name`, of the type `ty` (a declaration whose declarator
/// holds `\0` where the name goes, e.g. `double (*\0)[m]` or `double *\0`), set to the
/// address `address` (an expression of any pointer type): both forms when the array it points
/// into has an inner extent that names a variable (`is_variable` says which identifiers do),
/// else the one C and CUDA share.
pub fn pointer_decl(
    ty: &str,
    name: &str,
    address: &str,
    is_variable: impl Fn(&str) -> bool,
) -> String {
    vla_decl(ty, name, address, is_variable).unwrap_or_else(|| {
        if defines_anonymous_type(ty) {
            // Each spelling of `struct { … }` is a type of its own: a cast would make a
            // second one (C warns, C++ refuses a type defined in a cast), so the address is
            // copied into the pointer as bytes.
            return format!(
                "  {}; {{ void *const __acc_v = (void *)({address}); __builtin_memcpy((void *)&{name}, (const void *)&__acc_v, sizeof {name}); }} (void){name};\n",
                ty.replacen('\0', name, 1),
            );
        }
        format!(
            "  {} = ({})({address}); (void){name};\n",
            ty.replacen('\0', name, 1),
            ty.replacen('\0', "", 1)
        )
    })
}

/// Whether a type's text defines a `struct`, `union` or `enum` without a tag
/// (`struct { double x, y; }`).
fn defines_anonymous_type(ty: &str) -> bool {
    ["struct", "union", "enum"].iter().any(|kw| {
        ty.match_indices(kw).any(|(at, _)| {
            let before_ok = ty[..at]
                .chars()
                .next_back()
                .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
            before_ok && ty[at + kw.len()..].trim_start().starts_with('{')
        })
    })
}

/// [`pointer_decl`]'s two forms, for a pointer into a variable-length array.
fn vla_decl(
    ty: &str,
    name: &str,
    address: &str,
    is_variable: impl Fn(&str) -> bool,
) -> Option<String> {
    const MARK: &str = "(*\0)";
    // The address of a pointer to rows (`float (*v)[ny][nz]`, mapped whole): the CUDA form
    // reads the pointer once and reaches the rows through it.
    const POINTER_MARK: &str = "(*(*\0))";
    // The CUDA form has no use for the pointers' own qualifiers (`float (*restrict u)[n]`);
    // the host's keeps them.
    let host_ty = ty;
    let unqualified = without_pointer_qualifiers(ty);
    let ty = unqualified.as_str();
    if let Some(at) = ty.find(POINTER_MARK) {
        let base = ty[..at].trim();
        let dims = bracket_groups(&ty[at + POINTER_MARK.len()..])?;
        if dims.is_empty() || !dims.iter().any(|d| names_a_variable(d, &is_variable)) {
            return None;
        }
        let extents: Vec<String> = dims
            .iter()
            .map(|d| format!("(long long)({})", d.trim()))
            .collect();
        return Some(format!(
            "#ifdef __CUDACC__\n  __acc_vla<{base}, {rank}> {name}_rows = {{*({base} **)({address}), {{{extents}}}}}; __acc_vla<{base}, {rank}> *{name} = &{name}_rows; (void){name};\n#else\n  {host} = ({cast})({address}); (void){name};\n#endif\n",
            rank = dims.len() + 1,
            extents = extents.join(", "),
            host = host_ty.replacen('\0', name, 1),
            cast = host_ty.replacen('\0', "", 1),
        ));
    }
    let at = ty.find(MARK)?;
    let base = ty[..at].trim();
    let dims = bracket_groups(&ty[at + MARK.len()..])?;
    if dims.is_empty() || !dims.iter().any(|d| names_a_variable(d, &is_variable)) {
        return None;
    }
    let extents: Vec<String> = dims
        .iter()
        .map(|d| {
            if d.trim().is_empty() {
                "0".to_string()
            } else {
                format!("(long long)({})", d.trim())
            }
        })
        .collect();
    Some(format!(
        "#ifdef __CUDACC__\n  __acc_vla<{base}, {rank}> {name} = {{({base} *)({address}), {{{extents}}}}}; (void){name};\n#else\n  {host} = ({cast})({address}); (void){name};\n#endif\n",
        rank = dims.len() + 1,
        extents = extents.join(", "),
        host = host_ty.replacen('\0', name, 1),
        cast = host_ty.replacen('\0', "", 1),
    ))
}

/// `ty` without the qualifiers of its pointers (`restrict`, `const`, `volatile` after a `*`).
fn without_pointer_qualifiers(ty: &str) -> String {
    let mut out = String::with_capacity(ty.len());
    let mut rest = ty;
    while let Some(star) = rest.find('*') {
        out.push_str(&rest[..=star]);
        rest = &rest[star + 1..];
        loop {
            let trimmed = rest.trim_start();
            let word_len = trimmed
                .bytes()
                .take_while(|&c| c.is_ascii_alphanumeric() || c == b'_')
                .count();
            if word_len > 0 && acc_engine::facts::TYPE_QUALIFIERS.contains(&&trimmed[..word_len]) {
                rest = &trimmed[word_len..];
            } else {
                break;
            }
        }
        rest = rest.trim_start();
    }
    out.push_str(rest);
    out
}

/// The texts inside `[...]` groups that make up all of `rest` (spaces between allowed);
/// `None` if anything else is there.
pub(crate) fn bracket_groups(rest: &str) -> Option<Vec<&str>> {
    let mut groups = Vec::new();
    let mut s = rest.trim_start();
    while !s.is_empty() {
        s = s.strip_prefix('[')?;
        let mut depth = 1usize;
        let end = s.char_indices().find_map(|(i, c)| {
            match c {
                '[' => depth += 1,
                ']' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(i);
                    }
                }
                _ => {}
            }
            None
        })?;
        groups.push(&s[..end]);
        s = s[end + 1..].trim_start();
    }
    Some(groups)
}

fn names_a_variable(text: &str, is_variable: &impl Fn(&str) -> bool) -> bool {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
        .any(is_variable)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn var(w: &str) -> bool {
        matches!(w, "n" | "m")
    }

    #[test]
    fn a_pointer_to_an_anonymous_struct_spells_its_type_once() {
        let d = pointer_decl("struct { double x; } (*\0)[8]", "p", "q", var);
        assert_eq!(d.matches("struct {").count(), 1, "{d}");
        assert!(d.contains("__builtin_memcpy((void *)&p"), "{d}");
        let tagged = pointer_decl("struct point (*\0)[8]", "p", "q", var);
        assert!(tagged.contains("= (struct point (*)[8])(q);"), "{tagged}");
        assert!(!defines_anonymous_type("struct_like *"));
        assert!(defines_anonymous_type("const union\n{ int i; } *"));
    }

    #[test]
    fn the_address_of_a_pointer_to_rows_of_variable_length_has_both_forms() {
        let d = pointer_decl("float (*(*\0))[n][m]", "p", "q", var);
        assert!(d.contains(
            "__acc_vla<float, 3> p_rows = {*(float **)(q), {(long long)(n), (long long)(m)}}; __acc_vla<float, 3> *p = &p_rows;"
        ), "{d}");
        assert!(
            d.contains("float (*(*p))[n][m] = (float (*(*))[n][m])(q);"),
            "{d}"
        );
    }

    #[test]
    fn a_restrict_pointer_to_rows_keeps_its_qualifier_on_the_host_only() {
        let d = pointer_decl("float (*restrict (*\0))[n]", "p", "q", var);
        assert!(
            d.contains("__acc_vla<float, 2> p_rows = {*(float **)(q), {(long long)(n)}};"),
            "{d}"
        );
        assert!(
            d.contains("float (*restrict (*p))[n] = (float (*restrict (*))[n])(q);"),
            "{d}"
        );
        assert_eq!(
            without_pointer_qualifiers("const float *const restrict (*\0)[n]"),
            "const float *(*\0)[n]"
        );
    }

    #[test]
    fn a_pointer_to_rows_of_variable_length_has_both_forms() {
        let d = pointer_decl("double (*\0)[m]", "a", "*(void **)__acc_args[0]", var);
        assert!(d.contains(
            "__acc_vla<double, 2> a = {(double *)(*(void **)__acc_args[0]), {(long long)(m)}};"
        ));
        assert!(d.contains("double (*a)[m] = (double (*)[m])(*(void **)__acc_args[0]);"));
        assert!(d.starts_with("#ifdef __CUDACC__\n") && d.ends_with("#endif\n"));
    }

    #[test]
    fn an_unbound_first_extent_is_zero() {
        let d = pointer_decl("const float (*\0)[][n][4]", "p", "x", var);
        assert!(d.contains(
            "__acc_vla<const float, 4> p = {(const float *)(x), {0, (long long)(n), (long long)(4)}};"
        ));
    }

    #[test]
    fn constant_extents_and_plain_pointers_keep_the_usual_declaration() {
        assert_eq!(vla_decl("double (*\0)[N][8]", "a", "x", var), None);
        assert_eq!(vla_decl("double *\0", "a", "x", var), None);
        assert_eq!(vla_decl("double (*\0)[]", "a", "x", var), None);
        assert_eq!(vla_decl("double (*\0)[m] junk", "a", "x", var), None);
        assert_eq!(
            pointer_decl("double (*\0)[N]", "__acc_p_a", "x", var),
            "  double (*__acc_p_a)[N] = (double (*)[N])(x); (void)__acc_p_a;\n"
        );
        assert_eq!(
            pointer_decl("double *\0", "c", "x", var),
            "  double *c = (double *)(x); (void)c;\n"
        );
    }
}
