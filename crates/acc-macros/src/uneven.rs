//! Whether a partitioned Rust loop's iterations differ in work: its body holds a loop whose
//! range (or `while` condition) uses the loop's index, directly or through a `let` derived from
//! it — a triangular nest (`for j in 0..=i`) or a sparse row (`for k in row[i]..row[i + 1]`).
//! The runtime then deals such a loop's iterations out in balanced blocks (as acc-c's
//! `loops::uneven_trips` does for C). A scheduling hint: never a result.

use syn::visit::Visit;

/// Whether the body of a loop over `index` is uneven.
pub fn uneven_trips(index: &syn::Ident, body: &syn::Block) -> bool {
    let mut derived = vec![index.to_string()];
    Derive {
        derived: &mut derived,
    }
    .visit_block(body);
    let mut found = Bounds {
        derived: &derived,
        found: false,
    };
    found.visit_block(body);
    found.found
}

/// Whether an identifier of `names` appears in `e`.
fn mentions(e: &syn::Expr, names: &[String]) -> bool {
    struct Find<'a> {
        names: &'a [String],
        found: bool,
    }
    impl Visit<'_> for Find<'_> {
        fn visit_ident(&mut self, i: &syn::Ident) {
            self.found |= self.names.iter().any(|n| i == n);
        }
    }
    let mut f = Find {
        names,
        found: false,
    };
    f.visit_expr(e);
    f.found
}

/// Collects the names `let` binds from a derived name (not loop counters: a `for` pattern is
/// the nested loop's own).
struct Derive<'a> {
    derived: &'a mut Vec<String>,
}

impl Visit<'_> for Derive<'_> {
    fn visit_local(&mut self, l: &syn::Local) {
        if let (Some(init), syn::Pat::Ident(p)) = (&l.init, &l.pat) {
            if mentions(&init.expr, self.derived) {
                self.derived.push(p.ident.to_string());
            }
        }
        syn::visit::visit_local(self, l);
    }
}

/// Finds a nested loop whose bounds use a derived name.
struct Bounds<'a> {
    derived: &'a [String],
    found: bool,
}

impl Visit<'_> for Bounds<'_> {
    fn visit_expr_for_loop(&mut self, f: &syn::ExprForLoop) {
        self.found |= mentions(&f.expr, self.derived);
        syn::visit::visit_expr_for_loop(self, f);
    }

    fn visit_expr_while(&mut self, w: &syn::ExprWhile) {
        self.found |= mentions(&w.cond, self.derived);
        syn::visit::visit_expr_while(self, w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uneven(body: &str) -> bool {
        let body: syn::Block = syn::parse_str(body).unwrap();
        uneven_trips(&syn::Ident::new("i", proc_macro2::Span::call_site()), &body)
    }

    #[test]
    fn triangles_and_sparse_rows_are_uneven() {
        assert!(uneven("{ for j in 0..=i { c[j] += 1.0; } }"));
        assert!(uneven("{ for k in row[i]..row[i + 1] { y[i] += a[k]; } }"));
        assert!(uneven("{ let m = 2 * i; for j in 0..m { c[j] += 1.0; } }"));
        assert!(uneven("{ let mut j = 0; while j < i { j += 1; } }"));
    }

    #[test]
    fn rectangles_are_even() {
        assert!(!uneven("{ for j in 0..n { c[i * n + j] = 0.0; } }"));
        assert!(!uneven(
            "{ for j in 0..n { for k in 0..j { c[i] += 1.0; } } }"
        ));
        assert!(!uneven("{ let m = n / 2; for j in 0..m { c[i] += 1.0; } }"));
    }
}
