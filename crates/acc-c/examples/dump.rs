fn main() {
    let path = std::env::args().nth(1).unwrap();
    let src = std::fs::read_to_string(path).unwrap();
    let mut p = tree_sitter::Parser::new();
    p.set_language(&tree_sitter_c::LANGUAGE.into()).unwrap();
    let t = p.parse(&src, None).unwrap();
    fn walk(n: tree_sitter::Node, src: &str, d: usize) {
        let txt = &src[n.byte_range()];
        let short: String = txt
            .chars()
            .take(40)
            .collect::<String>()
            .replace('\n', "\\n");
        println!(
            "{:indent$}{}{} {:?} [{}]",
            "",
            n.kind(),
            if n.is_missing() { " MISSING" } else { "" },
            n.byte_range(),
            short,
            indent = d * 2
        );
        let mut c = n.walk();
        for (i, ch) in n.children(&mut c).enumerate() {
            let f = n.field_name_for_child(i as u32);
            if let Some(f) = f {
                print!("{:indent$}.{}:", "", f, indent = d * 2 + 2);
                println!();
            }
            walk(ch, src, d + 1);
        }
    }
    walk(t.root_node(), &src, 0);
}
