//! Translating a generated 20 000-line C file with 2 500 directives, the
//! size the speed issue sets a 50 ms target for. Prints the figures, and the
//! time of each stage of one more run (where the time goes);
//! `cargo bench -p acc-c --bench translate`.

use std::fmt::Write;
use std::time::Instant;

use acc_engine::omp::OmpOptions;

/// One function of 40 lines with four constructs (five directives).
fn function(k: usize, out: &mut String) {
    let _ = write!(
        out,
        r#"
/* kernel {k}: a stencil and a reduction */
double kernel_{k}(int n, double *restrict a, double *restrict b) {{
  double sum = 0.0;
  int i;
  #pragma acc data copyin(a[0:n]) copyout(b[0:n])
  {{
    #pragma acc parallel loop gang vector reduction(+:sum)
    for (i = 1; i < n - 1; i++) {{
      b[i] = 0.5 * (a[i - 1] + a[i + 1]);
      sum += b[i];
    }}
    #pragma acc parallel num_gangs(8)
    {{
      #pragma acc loop gang
      for (int j = 0; j < n; j++) {{
        double t = a[j] * {k}.0;
        b[j] += t;
      }}
    }}
  }}
  #pragma acc update self(b[0:n])
  for (int q = 0; q < 4; q++) {{
    sum += b[q];
  }}
  if (sum > 1e9) {{
    sum = 1e9;
  }}
  /* padding lines, as real code has */
  sum = sum * 1.0;
  sum = sum + 0.0;
  sum = sum - 0.0;
  sum = sum / 1.0;
  sum = sum * 1.0;
  sum = sum + 0.0;
  sum = sum - 0.0;
  sum = sum / 1.0;
  sum = sum * 1.0;
  return sum;
}}
"#
    );
}

fn main() {
    let mut src = String::from("#include <stddef.h>\n");
    let mut k = 0;
    while src.lines().count() < 20_000 {
        function(k, &mut src);
        k += 1;
    }
    let lines = src.lines().count();
    let directives = src.matches("#pragma acc").count();
    let runs = 15;
    let mut times = Vec::new();
    let mut out_len = 0;
    for _ in 0..runs {
        let t = Instant::now();
        let (text, diags) = acc_c::translate(
            &src,
            Default::default(),
            OmpOptions::default(),
            acc_c::Mode::Omp,
        );
        times.push(t.elapsed().as_secs_f64() * 1e3);
        assert!(!diags.iter().any(|d| d.is_error()), "{:?}", diags.first());
        out_len = text.len();
    }
    times.sort_by(f64::total_cmp);
    println!("translate: {lines} lines, {directives} directives, {out_len} bytes out");
    println!("| runs | min ms | median ms | max ms | target ms |");
    println!("|------|--------|-----------|--------|-----------|");
    println!(
        "| {runs} | {:.1} | {:.1} | {:.1} | 50 |",
        times[0],
        times[runs / 2],
        times[runs - 1]
    );
    stages(&src);
}

/// One more translation, stage by stage, as `acc_c::translate` runs them.
fn stages(src: &str) {
    let t0 = Instant::now();
    let trees = acc_c::syntax::parse(src);
    let t1 = Instant::now();
    let roots: Vec<_> = trees.iter().map(|t| t.root_node()).collect();
    let (unit, _) = acc_c::sema::analyze(&roots, src, Default::default(), false);
    let t2 = Instant::now();
    let _ = acc_engine::check::check_unit(&unit);
    let (attrs, _) = acc_engine::attrs::analyze(&unit);
    let t3 = Instant::now();
    let (forms, _) = acc_engine::omp::to_omp(&unit, &attrs, OmpOptions::default());
    let t4 = Instant::now();
    let text = acc_c::print::print(src, &unit, &forms, acc_c::Mode::Omp);
    let t5 = Instant::now();
    let ms = |a: Instant, b: Instant| (b - a).as_secs_f64() * 1e3;
    println!(
        "stages (ms): parse {:.1} (tree-sitter, in parallel pieces), analysis {:.1}, checks and \
         attributes {:.1}, OpenMP forms {:.1}, printing {:.1} ({} bytes)",
        ms(t0, t1),
        ms(t1, t2),
        ms(t2, t3),
        ms(t3, t4),
        ms(t4, t5),
        text.len()
    );
}
