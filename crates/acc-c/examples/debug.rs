fn main() {
    let path = std::env::args().nth(1).unwrap();
    let src = std::fs::read_to_string(path).unwrap();
    let a = acc_c::analyze(&src, Default::default(), Default::default());
    for (i, c) in a.unit.constructs.iter().enumerate() {
        println!(
            "C{i} {:?} parent={:?} body={:?} loops={:?}",
            c.directive.kind, c.parent, c.body, c.loops
        );
    }
    for (i, e) in a.attrs.effs.iter().enumerate() {
        println!(
            "E{i} {:?} c={:?} parent={:?} compute={:?} part={:?}",
            e.kind, e.construct, e.parent, e.compute, e.partition
        );
        for at in &e.attrs {
            println!("    {} {:?} {:?}", a.unit.var(at.var).name, at.dma, at.dsa);
        }
    }
    println!("refs: {}", a.unit.refs.len());
}
#[allow(dead_code)]
fn unused() {}
