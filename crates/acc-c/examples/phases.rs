//! Times each phase of `acc translate` on one file (for profiling).
use std::time::Instant;
fn main() {
    let src = std::fs::read_to_string(std::env::args().nth(1).expect("a C file")).unwrap();
    for _ in 0..5 {
        let t = Instant::now();
        let trees = acc_c::syntax::parse(&src);
        let roots: Vec<_> = trees.iter().map(|t| t.root_node()).collect();
        let t1 = t.elapsed();
        let (unit, _d) = acc_c::sema::analyze(&roots, &src, Default::default(), false);
        let t2 = t.elapsed();
        let _c = acc_engine::check::check_unit(&unit);
        let t3 = t.elapsed();
        let (an, _) = acc_engine::attrs::analyze(&unit);
        let t4 = t.elapsed();
        let (forms, _) = acc_engine::omp::to_omp(&unit, &an, Default::default());
        let t5 = t.elapsed();
        let _s = acc_c::print::print(&src, &unit, &forms, acc_c::Mode::Omp);
        let t6 = t.elapsed();
        println!(
            "parse {:?} sema {:?} check {:?} attrs {:?} omp {:?} print {:?} total {:?}",
            t1,
            t2 - t1,
            t3 - t2,
            t4 - t3,
            t5 - t4,
            t6 - t5,
            t6
        );
    }
}
