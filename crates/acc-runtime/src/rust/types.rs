//! User types in the CUDA form of Rust kernels: the C declaration of each `#[derive(DeviceCopy)]`
//! struct a module or routine uses, written by the runtime when it assembles the module.
//!
//! A kernel's C text names a struct through an alias of the path it wrote (`P` is
//! `__acc_type_1P`) and its module lists each such type as a [`CudaType`]: the alias and the
//! type's [`DeviceCopy::__acc_c_type`], which declares the type (its fields' types first) in a
//! [`CTypes`] and returns its C name. The C name comes from the Rust path of the type
//! (`module_path!()` and the name), so two structs of one name in different modules are two C
//! structs. Each declaration is followed by `static_assert`s of its size and alignment, with
//! the numbers Rust gives: a layout C would lay out differently fails NVRTC's compile instead of
//! reading the wrong bytes.

use super::DeviceCopy;
use std::fmt::Write;

/// A type's [`DeviceCopy::__acc_c_type`]: declares it in a [`CTypes`], returns its C name.
pub type CDecl = fn(&mut CTypes) -> String;

/// A type a CUDA text names: the alias the text uses, and the type's declaration.
#[derive(Debug)]
pub struct CudaType {
    pub alias: &'static str,
    pub c: CDecl,
}

/// The C declarations of the user types of one module, each once, in dependency order.
#[derive(Default)]
pub struct CTypes {
    text: String,
    names: Vec<String>,
}

impl CTypes {
    /// Declares `T`, a `#[repr(C)]` struct at `path` (`module_path!()::Name`) with `fields`
    /// (name, the field type's [`DeviceCopy::__acc_c_type`]) in order; returns its C name.
    pub fn declare<T: DeviceCopy>(&mut self, path: &str, fields: &[(&str, CDecl)]) -> String {
        let name = c_name(path);
        if self.names.contains(&name) {
            return name;
        }
        self.names.push(name.clone());
        let mut decl = format!("/* {path} */\nstruct {name} {{");
        for (field, ty) in fields {
            let t = ty(self);
            if t.is_empty() {
                return String::new();
            }
            let _ = write!(decl, " {t} {field};");
        }
        let (size, align) = (size_of::<T>(), align_of::<T>());
        let _ = writeln!(
            decl,
            " }};\nstatic_assert(sizeof({name}) == {size}, \"the C layout of {path} differs \
             from Rust's (size {size})\");\nstatic_assert(alignof({name}) == {align}, \"the C \
             layout of {path} differs from Rust's (alignment {align})\");"
        );
        self.text.push_str(&decl);
        name
    }

    /// The declarations so far.
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// A C identifier for a Rust path: each segment prefixed with its length.
fn c_name(path: &str) -> String {
    let mut s = String::from("__acc_struct");
    for seg in path.split("::") {
        let _ = write!(s, "_{}{seg}", seg.len());
    }
    s
}

/// `#define`s (or, with `define` false, `#undef`s) binding the aliases of `types` to their C
/// names; `None` when a type has no C form (a `DeviceCopy` implemented by hand).
pub(super) fn aliases(
    out: &mut String,
    types: &[CudaType],
    decls: &mut CTypes,
    define: bool,
) -> Option<()> {
    for t in types {
        if define {
            let name = (t.c)(decls);
            if name.is_empty() {
                return None;
            }
            let _ = writeln!(out, "#define {} {name}", t.alias);
        } else {
            let _ = writeln!(out, "#undef {}", t.alias);
        }
    }
    Some(())
}

/// `ty` with an alias of `types` replaced by its C name (a routine's result or parameter type
/// as its caller's text names it).
pub(super) fn resolve(ty: &str, types: &[CudaType], decls: &mut CTypes) -> String {
    match types.iter().find(|t| t.alias == ty) {
        Some(t) => (t.c)(decls),
        None => ty.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy)]
    #[repr(C)]
    struct P {
        x: f32,
        y: [f32; 2],
    }
    // SAFETY: `repr(C)`, numbers only, no padding (12 bytes).
    unsafe impl DeviceCopy for P {
        fn __acc_c_type(out: &mut CTypes) -> String {
            out.declare::<P>(
                "k::P",
                &[
                    ("x", <f32 as DeviceCopy>::__acc_c_type),
                    ("y", <[f32; 2] as DeviceCopy>::__acc_c_type),
                ],
            )
        }
    }

    #[test]
    fn a_struct_is_declared_once_with_its_layout_checked() {
        let mut d = CTypes::default();
        assert_eq!(P::__acc_c_type(&mut d), "__acc_struct_1k_1P");
        assert_eq!(P::__acc_c_type(&mut d), "__acc_struct_1k_1P");
        let _ = (
            P {
                x: 0.0,
                y: [0.0; 2],
            }
            .x,
            P {
                x: 0.0,
                y: [0.0; 2],
            }
            .y,
        );
        assert_eq!(
            d.text(),
            "/* k::P */\nstruct __acc_struct_1k_1P { float x; __acc_arr<float, 2ULL> y; };\n\
             static_assert(sizeof(__acc_struct_1k_1P) == 12, \"the C layout of k::P differs \
             from Rust's (size 12)\");\nstatic_assert(alignof(__acc_struct_1k_1P) == 4, \"the \
             C layout of k::P differs from Rust's (alignment 4)\");\n"
        );
    }
}
