//! Prints the lowered host C of one file (for debugging the lowering).
fn main() {
    let path = std::env::args().nth(1).expect("a C file");
    let src = std::fs::read_to_string(&path).unwrap();
    let opts = acc_c::lower::LowerOptions {
        file_name: path.clone(),
        ..Default::default()
    };
    let (out, diags) = acc_c::lower::lower_file(&src, Default::default(), &opts);
    for d in &diags {
        eprint!("{}", acc_c::render::render(d, &path, &src));
    }
    if let Some(l) = out {
        print!("{}", l.host_c);
        for i in l.info {
            eprintln!("{path}:{i}");
        }
    } else {
        std::process::exit(1);
    }
}
