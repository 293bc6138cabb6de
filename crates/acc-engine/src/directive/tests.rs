//! Snapshot tests of the directive parser, and the dump and render helpers
//! the clause-check tests share.

use expect_test::{expect, Expect};
use proptest::prelude::*;

use super::*;
use crate::span::Span;

/// A compact, reviewable rendering of a parsed directive. Spans are shown
/// as offsets; `text` is what the spans point into, `base` its offset.
pub(crate) fn dump(d: &Directive) -> String {
    let mut out = format!(
        "{:?} `{}` name {:?} span {:?}\n",
        d.kind,
        d.kind.name(),
        d.name_span,
        d.span
    );
    match &d.arg {
        None => {}
        Some(DirectiveArg::RoutineName(id)) => {
            out += &format!("  arg routine name {}\n", ident(id))
        }
        Some(DirectiveArg::Atomic(k, span)) => {
            out += &format!("  arg atomic {} {:?}\n", k.name(), span)
        }
        Some(DirectiveArg::Wait(w)) => out += &format!("  arg wait {}\n", wait(w)),
        Some(DirectiveArg::Cache { readonly, items }) => {
            out += &format!("  arg cache readonly {readonly:?}\n");
            for i in items {
                out += &format!("    {}\n", item(i));
            }
        }
    }
    for c in &d.clauses {
        out += &format!("  {:?} `{}` {:?}", c.kind, c.spelling, c.span);
        match &c.args {
            ClauseArgs::None => out += "\n",
            ClauseArgs::Vars { modifiers, items } => {
                if !modifiers.is_empty() {
                    let mods: Vec<_> = modifiers
                        .iter()
                        .map(|(m, s)| format!("{}@{s:?}", m.name()))
                        .collect();
                    out += &format!(" modifiers {}", mods.join(", "));
                }
                out += "\n";
                for i in items {
                    out += &format!("    {}\n", item(i));
                }
            }
            ClauseArgs::Reduction { op, op_span, items } => {
                out += &format!(" op {}@{op_span:?}\n", op.symbol());
                for i in items {
                    out += &format!("    {}\n", item(i));
                }
            }
            ClauseArgs::Expr(e) => out += &format!(" expr {}\n", expr(e)),
            ClauseArgs::Exprs(es) => {
                let es: Vec<_> = es.iter().map(expr).collect();
                out += &format!(" exprs {}\n", es.join(", "));
            }
            ClauseArgs::Collapse { force, count } => {
                out += &format!(" force {force:?} count {}\n", expr(count))
            }
            ClauseArgs::Gang(args) => {
                let args: Vec<_> = args
                    .iter()
                    .map(|a| {
                        format!(
                            "{}{} {}",
                            a.kind.name(),
                            a.kw.map_or(String::new(), |s| format!("@{s:?}")),
                            expr(&a.value)
                        )
                    })
                    .collect();
                out += &format!(" gang {}\n", args.join(", "));
            }
            ClauseArgs::Worker(e) | ClauseArgs::Vector(e) => {
                out += &format!(" {}\n", e.as_ref().map_or("no arg".to_string(), expr))
            }
            ClauseArgs::Wait(w) => {
                out += &format!(" {}\n", w.as_ref().map_or("no arg".to_string(), wait))
            }
            ClauseArgs::DeviceTypes(ids) => {
                let ids: Vec<_> = ids.iter().map(ident).collect();
                out += &format!(" {}\n", ids.join(", "));
            }
            ClauseArgs::Default(k, s) => out += &format!(" {}@{s:?}\n", k.name()),
            ClauseArgs::Bind(BindTarget::Name(id)) => out += &format!(" name {}\n", ident(id)),
            ClauseArgs::Bind(BindTarget::Str { value, span }) => {
                out += &format!(" string {value:?}@{span:?}\n")
            }
        }
    }
    out
}

fn ident(id: &Ident) -> String {
    format!("{}@{:?}", id.name, id.span)
}

fn expr(e: &Expr) -> String {
    format!("`{}`@{:?}", e.text, e.span)
}

fn wait(w: &WaitArgs) -> String {
    let qs: Vec<_> = w.queues.iter().map(expr).collect();
    format!(
        "devnum {} queues_kw {:?} queues [{}] span {:?}",
        w.devnum.as_ref().map_or("-".to_string(), expr),
        w.queues_kw,
        qs.join(", "),
        w.span
    )
}

fn item(i: &VarItem) -> String {
    let mut s = format!("`{}`@{:?} base {}", i.text, i.span, ident(&i.base));
    for a in &i.accessors {
        s += &match a {
            Accessor::Member(id) => format!(" .{}", ident(id)),
            Accessor::Arrow(id) => format!(" ->{}", ident(id)),
            Accessor::Index(e) => format!(" [{}]", expr(e)),
            Accessor::Section {
                lower,
                length,
                span,
            } => format!(
                " [{}:{}]@{span:?}",
                lower.as_ref().map_or(String::new(), expr),
                length.as_ref().map_or(String::new(), expr)
            ),
        };
    }
    s
}

/// Diagnostics as text, each span followed by the text it covers in
/// `text` (parsed at `base`).
pub(crate) fn render(text: &str, base: usize, diags: &[Diagnostic]) -> String {
    let cover = |s: Span| {
        let lo = s.start.saturating_sub(base);
        let hi = s.end.saturating_sub(base);
        format!("{s:?} `{}`", text.get(lo..hi).unwrap_or("<out of range>"))
    };
    let mut out = String::new();
    for d in diags {
        let sev = if d.is_error() { "error" } else { "warning" };
        out += &format!("{sev} {}: {}\n", cover(d.span), d.message);
        if !d.label.is_empty() {
            out += &format!("  label: {}\n", d.label);
        }
        for l in &d.secondary {
            out += &format!("  secondary {}: {}\n", cover(l.span), l.message);
        }
        for n in &d.notes {
            out += &format!("  note: {n}\n");
        }
        if let Some(f) = &d.fix {
            out += &format!(
                "  fix {}: replace with `{}` ({})\n",
                cover(f.span),
                f.replacement,
                f.message
            );
        }
    }
    out
}

fn check(text: &str, expect: Expect) {
    let (d, diags) = parse_directive(text, 0);
    let mut out = String::new();
    if let Some(d) = &d {
        out += &dump(d);
        out += &format!("display: {d}\n");
    } else {
        out += "no directive\n";
    }
    out += &render(text, 0, &diags);
    expect.assert_eq(&out);
}

#[test]
fn headline_example() {
    check(
        "acc parallel loop gang vector reduction(+:s) copyin(a[0:n], b[1:n-1][0:m]) copyout(s.arr[0:n], p->x)",
        expect![[r#"
            ParallelLoop `parallel loop` name 4..17 span 0..100
              Gang `gang` 18..22
              Vector `vector` 23..29 no arg
              Reduction `reduction` 30..44 op +@40..41
                `s`@42..43 base s@42..43
              Copyin `copyin` 45..74
                `a[0:n]`@52..58 base a@52..53 [`0`@54..55:`n`@56..57]@53..58
                `b[1:n-1][0:m]`@60..73 base b@60..61 [`1`@62..63:`n-1`@64..67]@61..68 [`0`@69..70:`m`@71..72]@68..73
              Copyout `copyout` 75..100
                `s.arr[0:n]`@83..93 base s@83..84 .arr@85..88 [`0`@89..90:`n`@91..92]@88..93
                `p->x`@95..99 base p@95..96 ->x@98..99
            display: acc parallel loop gang vector reduction(+:s) copyin(a[0:n], b[1:n-1][0:m]) copyout(s.arr[0:n], p->x)
        "#]],
    );
}

#[test]
fn compute_constructs() {
    check(
        "acc parallel num_gangs(4, 2) num_workers(8) vector_length(128) async(q) wait(1, 2) if(n > 10) self(on_host) default(none) private(t) firstprivate(u) reduction(max:m) copy(a) present(b) no_create(c) deviceptr(p) attach(s.p)",
        expect![[r#"
            Parallel `parallel` name 4..12 span 0..222
              NumGangs `num_gangs` 13..28 exprs `4`@23..24, `2`@26..27
              NumWorkers `num_workers` 29..43 expr `8`@41..42
              VectorLength `vector_length` 44..62 expr `128`@58..61
              Async `async` 63..71 expr `q`@69..70
              Wait `wait` 72..82 devnum - queues_kw None queues [`1`@77..78, `2`@80..81] span 77..81
              If `if` 83..93 expr `n > 10`@86..92
              SelfClause `self` 94..107 expr `on_host`@99..106
              Default `default` 108..121 none@116..120
              Private `private` 122..132
                `t`@130..131 base t@130..131
              Firstprivate `firstprivate` 133..148
                `u`@146..147 base u@146..147
              Reduction `reduction` 149..165 op max@159..162
                `m`@163..164 base m@163..164
              Copy `copy` 166..173
                `a`@171..172 base a@171..172
              Present `present` 174..184
                `b`@182..183 base b@182..183
              NoCreate `no_create` 185..197
                `c`@195..196 base c@195..196
              Deviceptr `deviceptr` 198..210
                `p`@208..209 base p@208..209
              Attach `attach` 211..222
                `s.p`@218..221 base s@218..219 .p@220..221
            display: acc parallel num_gangs(4, 2) num_workers(8) vector_length(128) async(q) wait(1, 2) if(n > 10) self(on_host) default(none) private(t) firstprivate(u) reduction(max:m) copy(a) present(b) no_create(c) deviceptr(p) attach(s.p)
        "#]],
    );
    check(
        "acc serial self async wait",
        expect![[r#"
        Serial `serial` name 4..10 span 0..26
          SelfClause `self` 11..15
          Async `async` 16..21
          Wait `wait` 22..26 no arg
        display: acc serial self async wait
    "#]],
    );
    check(
        "acc kernels default(present) create(zero: w[0:n])",
        expect![[r#"
        Kernels `kernels` name 4..11 span 0..49
          Default `default` 12..28 present@20..27
          Create `create` 29..49 modifiers zero@36..40
            `w[0:n]`@42..48 base w@42..43 [`0`@44..45:`n`@46..47]@43..48
        display: acc kernels default(present) create(zero:w[0:n])
    "#]],
    );
}

#[test]
fn loop_clauses() {
    check(
        "acc loop collapse(force:2) tile(4,*)",
        expect![[r#"
        Loop `loop` name 4..8 span 0..36
          Collapse `collapse` 9..26 force Some(18..23) count `2`@24..25
          Tile `tile` 27..36 exprs `4`@32..33, `*`@34..35
        display: acc loop collapse(force:2) tile(4, *)
    "#]],
    );
    check(
        "acc loop gang(num: 4, static: *, dim: 2) worker(num: 8) vector(length: 32) independent",
        expect![[r#"
            Loop `loop` name 4..8 span 0..86
              Gang `gang` 9..40 gang num@14..17 `4`@19..20, static@22..28 `*`@30..31, dim@33..36 `2`@38..39
              Worker `worker` 41..55 `8`@53..54
              Vector `vector` 56..74 `32`@71..73
              Independent `independent` 75..86
            display: acc loop gang(num:4, static:*, dim:2) worker(8) vector(32) independent
        "#]],
    );
    check(
        "acc loop gang(16) worker(4) vector(32) private(i, j) reduction(+:s, t)",
        expect![[r#"
        Loop `loop` name 4..8 span 0..70
          Gang `gang` 9..17 gang num `16`@14..16
          Worker `worker` 18..27 `4`@25..26
          Vector `vector` 28..38 `32`@35..37
          Private `private` 39..52
            `i`@47..48 base i@47..48
            `j`@50..51 base j@50..51
          Reduction `reduction` 53..70 op +@63..64
            `s`@65..66 base s@65..66
            `t`@68..69 base t@68..69
        display: acc loop gang(16) worker(4) vector(32) private(i, j) reduction(+:s, t)
    "#]],
    );
    check(
        "acc loop seq auto device_type(nvidia, radeon) gang dtype(*) vector",
        expect![[r#"
        Loop `loop` name 4..8 span 0..66
          Seq `seq` 9..12
          Auto `auto` 13..17
          DeviceType `device_type` 18..45 nvidia@30..36, radeon@38..44
          Gang `gang` 46..50
          DeviceType `dtype` 51..59 *@57..58
          Vector `vector` 60..66 no arg
        display: acc loop seq auto device_type(nvidia, radeon) gang device_type(*) vector
    "#]],
    );
    check(
        "acc serial loop collapse(2)",
        expect![[r#"
        SerialLoop `serial loop` name 4..15 span 0..27
          Collapse `collapse` 16..27 force None count `2`@25..26
        display: acc serial loop collapse(2)
    "#]],
    );
    check(
        "acc kernels loop independent reduction(||:flag)",
        expect![[r#"
        KernelsLoop `kernels loop` name 4..16 span 0..47
          Independent `independent` 17..28
          Reduction `reduction` 29..47 op ||@39..41
            `flag`@42..46 base flag@42..46
        display: acc kernels loop independent reduction(||:flag)
    "#]],
    );
}

#[test]
fn data_directives() {
    check(
        "acc data copyin(readonly: a[:n]) copyout(zero: b[2:]) create(c[:]) if(ok)",
        expect![[r#"
        Data `data` name 4..8 span 0..73
          Copyin `copyin` 9..32 modifiers readonly@16..24
            `a[:n]`@26..31 base a@26..27 [:`n`@29..30]@27..31
          Copyout `copyout` 33..53 modifiers zero@41..45
            `b[2:]`@47..52 base b@47..48 [`2`@49..50:]@48..52
          Create `create` 54..66
            `c[:]`@61..65 base c@61..62 [:]@62..65
          If `if` 67..73 expr `ok`@70..72
        display: acc data copyin(readonly:a[:n]) copyout(zero:b[2:]) create(c[:]) if(ok)
    "#]],
    );
    check(
        "acc enter data copyin(a[0:n]) create(b) attach(s.p) async(1) wait",
        expect![[r#"
        EnterData `enter data` name 4..14 span 0..65
          Copyin `copyin` 15..29
            `a[0:n]`@22..28 base a@22..23 [`0`@24..25:`n`@26..27]@23..28
          Create `create` 30..39
            `b`@37..38 base b@37..38
          Attach `attach` 40..51
            `s.p`@47..50 base s@47..48 .p@49..50
          Async `async` 52..60 expr `1`@58..59
          Wait `wait` 61..65 no arg
        display: acc enter data copyin(a[0:n]) create(b) attach(s.p) async(1) wait
    "#]],
    );
    check(
        "acc exit data copyout(a[0:n]) delete(b) detach(s.p) finalize",
        expect![[r#"
        ExitData `exit data` name 4..13 span 0..60
          Copyout `copyout` 14..29
            `a[0:n]`@22..28 base a@22..23 [`0`@24..25:`n`@26..27]@23..28
          Delete `delete` 30..39
            `b`@37..38 base b@37..38
          Detach `detach` 40..51
            `s.p`@47..50 base s@47..48 .p@49..50
          Finalize `finalize` 52..60
        display: acc exit data copyout(a[0:n]) delete(b) detach(s.p) finalize
    "#]],
    );
    check(
        "acc host_data use_device(p, q) if_present",
        expect![[r#"
        HostData `host_data` name 4..13 span 0..41
          UseDevice `use_device` 14..30
            `p`@25..26 base p@25..26
            `q`@28..29 base q@28..29
          IfPresent `if_present` 31..41
        display: acc host_data use_device(p, q) if_present
    "#]],
    );
    check(
        "acc declare device_resident(t) link(big) copyin(c)",
        expect![[r#"
        Declare `declare` name 4..11 span 0..50
          DeviceResident `device_resident` 12..30
            `t`@28..29 base t@28..29
          Link `link` 31..40
            `big`@36..39 base big@36..39
          Copyin `copyin` 41..50
            `c`@48..49 base c@48..49
        display: acc declare device_resident(t) link(big) copyin(c)
    "#]],
    );
}

#[test]
fn update_self_host_device() {
    check(
        "acc update self(a[0:n]) if_present",
        expect![[r#"
        Update `update` name 4..10 span 0..34
          SelfClause `self` 11..23
            `a[0:n]`@16..22 base a@16..17 [`0`@18..19:`n`@20..21]@17..22
          IfPresent `if_present` 24..34
        display: acc update self(a[0:n]) if_present
    "#]],
    );
    check(
        "acc update host(x) device(y[1:2]) async",
        expect![[r#"
        Update `update` name 4..10 span 0..39
          Host `host` 11..18
            `x`@16..17 base x@16..17
          Device `device` 19..33
            `y[1:2]`@26..32 base y@26..27 [`1`@28..29:`2`@30..31]@27..32
          Async `async` 34..39
        display: acc update host(x) device(y[1:2]) async
    "#]],
    );
}

#[test]
fn routine_forms() {
    check(
        "acc routine(foo) seq bind(\"bar\")",
        expect![[r#"
        Routine `routine` name 4..11 span 0..32
          arg routine name foo@12..15
          Seq `seq` 17..20
          Bind `bind` 21..32 string "bar"@26..31
        display: acc routine(foo) seq bind("bar")
    "#]],
    );
    check(
        "acc routine gang(dim: 1) nohost bind(cuda_foo)",
        expect![[r#"
        Routine `routine` name 4..11 span 0..46
          Gang `gang` 12..24 gang dim@17..20 `1`@22..23
          Nohost `nohost` 25..31
          Bind `bind` 32..46 name cuda_foo@37..45
        display: acc routine gang(dim:1) nohost bind(cuda_foo)
    "#]],
    );
    check(
        "acc routine worker",
        expect![[r#"
        Routine `routine` name 4..11 span 0..18
          Worker `worker` 12..18 no arg
        display: acc routine worker
    "#]],
    );
}

#[test]
fn atomic_forms() {
    check(
        "acc atomic capture",
        expect![[r#"
        Atomic `atomic` name 4..10 span 0..18
          arg atomic capture Some(11..18)
        display: acc atomic capture
    "#]],
    );
    check(
        "acc atomic",
        expect![[r#"
        Atomic `atomic` name 4..10 span 0..10
          arg atomic update None
        display: acc atomic
    "#]],
    );
    check(
        "acc atomic read if(c)",
        expect![[r#"
        Atomic `atomic` name 4..10 span 0..21
          arg atomic read Some(11..15)
          If `if` 16..21 expr `c`@19..20
        display: acc atomic read if(c)
    "#]],
    );
    check(
        "acc atomic write",
        expect![[r#"
        Atomic `atomic` name 4..10 span 0..16
          arg atomic write Some(11..16)
        display: acc atomic write
    "#]],
    );
    check(
        "acc atomic update",
        expect![[r#"
        Atomic `atomic` name 4..10 span 0..17
          arg atomic update Some(11..17)
        display: acc atomic update
    "#]],
    );
}

#[test]
fn cache_forms() {
    check(
        "acc cache(readonly: a[i:4])",
        expect![[r#"
        Cache `cache` name 4..9 span 0..27
          arg cache readonly Some(10..18)
            `a[i:4]`@20..26 base a@20..21 [`i`@22..23:`4`@24..25]@21..26
        display: acc cache(readonly:a[i:4])
    "#]],
    );
    check(
        "acc cache(a[i], b[j-1:3])",
        expect![[r#"
        Cache `cache` name 4..9 span 0..25
          arg cache readonly None
            `a[i]`@10..14 base a@10..11 [`i`@12..13]
            `b[j-1:3]`@16..24 base b@16..17 [`j-1`@18..21:`3`@22..23]@17..24
        display: acc cache(a[i], b[j-1:3])
    "#]],
    );
}

#[test]
fn wait_forms() {
    check(
        "acc wait(devnum: 1 : queues: 2, 3) async(4)",
        expect![[r#"
        Wait `wait` name 4..8 span 0..43
          arg wait devnum `1`@17..18 queues_kw Some(21..27) queues [`2`@29..30, `3`@32..33] span 9..33
          Async `async` 35..43 expr `4`@41..42
        display: acc wait(devnum:1:queues:2, 3) async(4)
    "#]],
    );
    check(
        "acc wait",
        expect![[r#"
        Wait `wait` name 4..8 span 0..8
        display: acc wait
    "#]],
    );
    check(
        "acc wait(q) if(go)",
        expect![[r#"
        Wait `wait` name 4..8 span 0..18
          arg wait devnum - queues_kw None queues [`q`@9..10] span 9..10
          If `if` 12..18 expr `go`@15..17
        display: acc wait(q) if(go)
    "#]],
    );
    check(
        "acc parallel wait(devnum: d : q)",
        expect![[r#"
        Parallel `parallel` name 4..12 span 0..32
          Wait `wait` 13..32 devnum `d`@26..27 queues_kw None queues [`q`@30..31] span 18..31
        display: acc parallel wait(devnum:d:q)
    "#]],
    );
}

#[test]
fn runtime_directives() {
    check(
        "acc set device_type(nvidia) device_num(0) default_async(1)",
        expect![[r#"
        Set `set` name 4..7 span 0..58
          DeviceType `device_type` 8..27 nvidia@20..26
          DeviceNum `device_num` 28..41 expr `0`@39..40
          DefaultAsync `default_async` 42..58 expr `1`@56..57
        display: acc set device_type(nvidia) device_num(0) default_async(1)
    "#]],
    );
    check(
        "acc init device_type(host) device_num(dev)",
        expect![[r#"
        Init `init` name 4..8 span 0..42
          DeviceType `device_type` 9..26 host@21..25
          DeviceNum `device_num` 27..42 expr `dev`@38..41
        display: acc init device_type(host) device_num(dev)
    "#]],
    );
    check(
        "acc shutdown if(done)",
        expect![[r#"
        Shutdown `shutdown` name 4..12 span 0..21
          If `if` 13..21 expr `done`@16..20
        display: acc shutdown if(done)
    "#]],
    );
}

#[test]
fn aliases_keep_their_spelling() {
    check(
        "acc data pcopy(a) present_or_copy(b) pcopyin(c) present_or_copyin(d) pcopyout(e) present_or_copyout(f) pcreate(g) present_or_create(h)",
        expect![[r#"
            Data `data` name 4..8 span 0..134
              Copy `pcopy` 9..17
                `a`@15..16 base a@15..16
              Copy `present_or_copy` 18..36
                `b`@34..35 base b@34..35
              Copyin `pcopyin` 37..47
                `c`@45..46 base c@45..46
              Copyin `present_or_copyin` 48..68
                `d`@66..67 base d@66..67
              Copyout `pcopyout` 69..80
                `e`@78..79 base e@78..79
              Copyout `present_or_copyout` 81..102
                `f`@100..101 base f@100..101
              Create `pcreate` 103..113
                `g`@111..112 base g@111..112
              Create `present_or_create` 114..134
                `h`@132..133 base h@132..133
            display: acc data copy(a) copy(b) copyin(c) copyin(d) copyout(e) copyout(f) create(g) create(h)
        "#]],
    );
    check(
        "acc loop dtype(nvidia) gang",
        expect![[r#"
        Loop `loop` name 4..8 span 0..27
          DeviceType `dtype` 9..22 nvidia@15..21
          Gang `gang` 23..27
        display: acc loop device_type(nvidia) gang
    "#]],
    );
}

#[test]
fn separators_comments_and_continuations() {
    check(
        "acc parallel loop, gang, vector ,copy(a)",
        expect![[r#"
        ParallelLoop `parallel loop` name 4..17 span 0..40
          Gang `gang` 19..23
          Vector `vector` 25..31 no arg
          Copy `copy` 33..40
            `a`@38..39 base a@38..39
        display: acc parallel loop gang vector copy(a)
    "#]],
    );
    check(
        "acc parallel \\\n  copyin(a[0:\\\n n]) /* hot */ async // tail",
        expect![[r#"
        Parallel `parallel` name 4..12 span 0..58
          Copyin `copyin` 17..34
            `a[0:  n]`@24..33 base a@24..25 [`0`@26..27:`n`@31..32]@25..33
          Async `async` 45..50
        display: acc parallel copyin(a[0:  n]) async
    "#]],
    );
    check(
        "  acc\tkernels\r\n",
        expect![[r#"
        Kernels `kernels` name 6..13 span 0..15
        display: acc kernels
    "#]],
    );
}

#[test]
fn expressions_keep_their_text() {
    check(
        "acc parallel copy(a[i ? 1 : 2 : n], b[f(x, y)][(k):m[j]]) if(s == \"a,b)\" || c == ')') num_gangs((n+1)/2)",
        expect![[r#"
            Parallel `parallel` name 4..12 span 0..104
              Copy `copy` 13..57
                `a[i ? 1 : 2 : n]`@18..34 base a@18..19 [`i ? 1 : 2`@20..29:`n`@32..33]@19..34
                `b[f(x, y)][(k):m[j]]`@36..56 base b@36..37 [`f(x, y)`@38..45] [`(k)`@47..50:`m[j]`@51..55]@46..56
              If `if` 58..85 expr `s == "a,b)" || c == ')'`@61..84
              NumGangs `num_gangs` 86..104 exprs `(n+1)/2`@96..103
            display: acc parallel copy(a[i ? 1 : 2 : n], b[f(x, y)][(k):m[j]]) if(s == "a,b)" || c == ')') num_gangs((n+1)/2)
        "#]],
    );
}

#[test]
fn pragma_operator_maps_spans_into_the_literal() {
    let lit = r#"acc routine bind(\"k\\x\") seq"#;
    let (d, diags) = parse_pragma_operator(lit, 100);
    let d = d.expect("parses");
    let out = dump(&d) + &format!("display: {d}\n") + &render(lit, 100, &diags);
    expect![[r#"
        Routine `routine` name 104..111 span 100..130
          Bind `bind` 112..126 string "k\\x"@117..125
          Seq `seq` 127..130
        display: acc routine bind("k\x") seq
    "#]]
    .assert_eq(&out);
    let (_, diags) = parse_pragma_operator(r#"acc parallel copy(\"x\")"#, 10);
    expect![[r#"
        error 28..33 `\"x\"`: expected a variable name, found `"x"`
          note: list items are variables, members (`s.x`, `p->x`), array elements or subarrays (`a[0:n]`)
    "#]].assert_eq(&render(r#"acc parallel copy(\"x\")"#, 10, &diags));
}

#[test]
fn base_shifts_every_span() {
    let text = "acc update device(a[0:n])";
    let (d, diags) = parse_directive(text, 1000);
    assert!(diags.is_empty());
    expect![[r#"
        Update `update` name 1004..1010 span 1000..1025
          Device `device` 1011..1025
            `a[0:n]`@1018..1024 base a@1018..1019 [`0`@1020..1021:`n`@1022..1023]@1019..1024
    "#]]
    .assert_eq(&dump(&d.expect("parses")));
}

#[test]
fn errors_in_directive_names() {
    check(
        "",
        expect![[r#"
        no directive
        error 0..0 ``: expected `acc` at the start of an OpenACC directive, found nothing
    "#]],
    );
    check(
        "omp parallel for",
        expect![[r#"
        no directive
        error 0..3 `omp`: expected `acc` at the start of an OpenACC directive, found `omp`
    "#]],
    );
    check(
        "acc",
        expect![[r#"
        no directive
        error 0..3 `acc`: expected a directive name after `acc`
          note: for example `acc parallel` or `acc data copy(a[0:n])`
    "#]],
    );
    check(
        "acc paralel loop",
        expect![[r#"
        no directive
        error 4..11 `paralel`: unknown OpenACC directive `paralel`
          note: did you mean `parallel`?
    "#]],
    );
    check(
        "acc parallel loop copyin(a) \\\n  for (i = 0; i < 8; i++) b[i] = a[i];",
        expect![[r#"
            ParallelLoop `parallel loop` name 4..17 span 0..68
              Copyin `copyin` 18..27
                `a`@25..26 base a@25..26
            display: acc parallel loop copyin(a)
            error 32..35 `for`: unknown OpenACC clause `for`
              note: this line continues the directive: the `\` that ends the line before joins them (a directive ends with its line)
        "#]],
    );
    check(
        "acc kernal loop",
        expect![[r#"
            no directive
            error 4..10 `kernal`: unknown OpenACC directive `kernal`
              note: did you mean `kernels`?
        "#]],
    );
    check(
        "acc enter copyin(a)",
        expect![[r#"
        EnterData `enter data` name 4..9 span 0..19
          Copyin `copyin` 10..19
            `a`@17..18 base a@17..18
        display: acc enter data copyin(a)
        error 4..9 `enter`: expected `data` after `enter`
          fix 4..9 `enter`: replace with `enter data` (write `enter data`)
    "#]],
    );
    check(
        "acc end parallel",
        expect![[r#"
        no directive
        error 4..7 `end`: `end` directives exist only in Fortran
          note: in C a construct ends with its structured block; remove this pragma
    "#]],
    );
    check(
        "acc (x)",
        expect![[r#"
        no directive
        error 4..5 `(`: expected a directive name after `acc`, found `(`
    "#]],
    );
}

/// An unknown clause name, unbalanced brackets and a missing `(` or `)` lose only their clause.
#[test]
fn errors_in_clause_names_and_parentheses_recover() {
    check(
        "acc parallel copyinn(a) copy(b)",
        expect![[r#"
        Parallel `parallel` name 4..12 span 0..31
          Copy `copy` 24..31
            `b`@29..30 base b@29..30
        display: acc parallel copy(b)
        error 13..20 `copyinn`: unknown OpenACC clause `copyinn`
          note: did you mean `copyin`?
    "#]],
    );
    check(
        "acc parallel copy(a[0:n) present(b)",
        expect![[r#"
        Parallel `parallel` name 4..12 span 0..35
          Present `present` 25..35
            `b`@33..34 base b@33..34
        display: acc parallel present(b)
        error 23..24 `)`: expected `]` to close `[`, found `)`
          secondary 19..20 `[`: unclosed delimiter
    "#]],
    );
    check(
        "acc parallel copy(a, b",
        expect![[r#"
        Parallel `parallel` name 4..12 span 0..22
        display: acc parallel
        error 17..18 `(`: expected `)` to close `copy(`
          label: unclosed delimiter
    "#]],
    );
    check(
        "acc parallel copy) async",
        expect![[r#"
        Parallel `parallel` name 4..12 span 0..24
          Async `async` 19..24
        display: acc parallel async
        error 13..17 `copy`: expected `(` after `copy`
          note: usage: `copy(var-list)`
        error 17..18 `)`: unexpected `)`; expected an OpenACC clause
    "#]],
    );
    check(
        "acc parallel copy async",
        expect![[r#"
        Parallel `parallel` name 4..12 span 0..23
          Async `async` 18..23
        display: acc parallel async
        error 13..17 `copy`: expected `(` after `copy`
          note: usage: `copy(var-list)`
    "#]],
    );
}

/// Empty, doubled and malformed list items and unknown modifiers lose only their clause.
#[test]
fn errors_in_list_items_and_modifiers_recover() {
    check(
        "acc parallel copy() private(,x)",
        expect![[r#"
        Parallel `parallel` name 4..12 span 0..31
          Private `private` 20..31
            `x`@29..30 base x@29..30
        display: acc parallel private(x)
        error 17..19 `()`: empty variable list in `copy(...)`
          label: name at least one variable here
        error 28..29 `,`: expected a variable in `private(...)`
          label: extra comma
    "#]],
    );
    check(
        "acc parallel copy(a,,b) firstprivate(*p, q+1)",
        expect![[r#"
        Parallel `parallel` name 4..12 span 0..45
          Copy `copy` 13..23
            `a`@18..19 base a@18..19
            `b`@21..22 base b@21..22
        display: acc parallel copy(a, b)
        error 20..21 `,`: expected a variable in `copy(...)`
          label: extra comma
        error 37..39 `*p`: expected a variable name, found `*p`
          note: list items are variables, members (`s.x`, `p->x`), array elements or subarrays (`a[0:n]`)
        error 42..43 `+`: unexpected `+` in `q+1`
          note: list items are variables, members (`s.x`, `p->x`), array elements or subarrays (`a[0:n]`)
    "#]],
    );
    check(
        "acc parallel copyin(redonly: a) copyout(zero, b c: d)",
        expect![[r#"
        Parallel `parallel` name 4..12 span 0..53
        display: acc parallel
        error 20..27 `redonly`: unknown modifier `redonly` in `copyin`
          note: did you mean `readonly`?
        error 46..49 `b c`: expected a modifier before `:` in `copyout(...)`
          note: usage: `copyout([zero:] var-list)`
    "#]],
    );
}

/// Bad reduction operators, loop clause arguments, `default`, `device_type` and `bind` arguments
/// lose only their clause.
#[test]
fn errors_in_clause_arguments_recover() {
    check(
        "acc parallel reduction(-:s) reduction(s) reduction(:s)",
        expect![[r#"
        Parallel `parallel` name 4..12 span 0..54
        display: acc parallel
        error 23..24 `-`: unknown reduction operator `-`
          note: the operators are `+`, `*`, `max`, `min`, `&`, `|`, `^`, `&&` and `||`
        error 37..40 `(s)`: expected an operator and `:` in `reduction(...)`
          note: for example `reduction(+:sum)`
        error 51..52 `:`: expected a reduction operator before `:`
          note: the operators are `+`, `*`, `max`, `min`, `&`, `|`, `^`, `&&` and `||`
    "#]],
    );
    check(
        "acc loop seq(1) collapse() tile(2,) gang(num:)",
        expect![[r#"
        Loop `loop` name 4..8 span 0..46
          Seq `seq` 9..15
        display: acc loop seq
        error 12..15 `(1)`: `seq` takes no arguments
          fix 12..15 `(1)`: replace with `` (remove the parentheses)
        error 24..26 `()`: expected an expression in `collapse(...)`
        error 33..34 `,`: expected an expression in `tile(...)`
          label: extra comma
        error 41..45 `num:`: expected an expression in `gang(...)`
          note: usage: `gang[([num:]e, dim:e, static:e|*)]`
    "#]],
    );
    check(
        "acc loop gang(*) vector(1, 2)",
        expect![[r#"
        Loop `loop` name 4..8 span 0..29
        display: acc loop
        error 14..15 `*`: `*` is only allowed as `static:*` in `gang(...)`
        error 25..28 `, 2`: `vector` takes one expression
          label: unexpected extra argument
    "#]],
    );
    check(
        "acc parallel default(shared) default() device_type() device_type(nv-1)",
        expect![[r#"
            Parallel `parallel` name 4..12 span 0..70
            display: acc parallel
            error 21..27 `shared`: `default` takes `none` or `present`, not `shared`
              note: OpenACC has no `default(shared)`; leave the clause out to get the implicit data attributes
            error 36..38 `()`: expected `none` or `present` in `default(...)`
            error 50..52 `()`: expected a device type name or `*` in `device_type(...)`
              note: for example `device_type(nvidia)` or `device_type(*)`
            error 65..69 `nv-1`: expected a device type name or `*` in `device_type(...)`
              note: for example `device_type(nvidia)` or `device_type(*)`
        "#]],
    );
    check(
        "acc routine(a, b) bind(1)",
        expect![[r#"
        Routine `routine` name 4..11 span 0..25
        display: acc routine
        error 11..17 `(a, b)`: expected a function name in `routine(...)`
          note: write `routine(name)` before the function, or `routine` alone on its prototype
        error 22..25 `(1)`: expected a function name or a string in `bind(...)`
    "#]],
    );
}

/// `wait` and `cache` with missing or bad arguments.
#[test]
fn errors_in_wait_and_cache_recover() {
    check(
        "acc wait() async",
        expect![[r#"
        Wait `wait` name 4..8 span 0..16
          Async `async` 11..16
        display: acc wait async
        error 8..10 `()`: empty `wait()`
          fix 8..10 `()`: replace with `` (write `wait` alone to wait for every queue)
    "#]],
    );
    check(
        "acc wait(devnum: 1) async",
        expect![[r#"
        Wait `wait` name 4..8 span 0..25
          Async `async` 20..25
        display: acc wait async
        error 9..18 `devnum: 1`: expected `:` after the `devnum` expression
          note: for example `wait(devnum: 1 : queues: 2, 3)`
    "#]],
    );
    check(
        "acc cache",
        expect![[r#"
        Cache `cache` name 4..9 span 0..9
        display: acc cache
        error 4..9 `cache`: expected `(` after `cache`
          note: write the variables to cache: `cache(a[i:4])`
    "#]],
    );
}

/// Malformed subarrays and accessors, stray separators and text, an `atomic` kind written after a
/// clause, a stray `]`.
#[test]
fn errors_in_subarrays_separators_and_stray_text_recover() {
    check(
        "acc parallel copy(a[]) copy(b[0:n:2]) copy(s.) copy(p->)",
        expect![[r#"
        Parallel `parallel` name 4..12 span 0..56
        display: acc parallel
        error 19..21 `[]`: empty subscript in `a[]`
          note: write a subarray `[lower:length]`, or `[:]` for the whole array
        error 33..34 `:`: unexpected second `:` in `b[0:n:2]`
          note: a subarray is `[lower:length]`; strides are not supported
        error 44..45 `.`: expected a member name after `.` in `s.`
        error 53..55 `->`: expected a member name after `->` in `p->`
    "#]],
    );
    check(
        "acc parallel, , copy(a) ; ( x ) é",
        expect![[r#"
        Parallel `parallel` name 4..12 span 0..34
          Copy `copy` 16..23
            `a`@21..22 base a@21..22
        display: acc parallel copy(a)
        error 14..15 `,`: unexpected `,`
          label: expected a clause before this comma
        error 24..25 `;`: unexpected `;`; expected an OpenACC clause
        error 26..27 `(`: unexpected `(`; expected a clause name
          note: clauses look like `copy(a[0:n])`; `parallel` takes no parenthesized argument here
        error 32..34 `é`: unexpected `é`; expected an OpenACC clause
    "#]],
    );
    check(
        "acc atomic if(c) capture",
        expect![[r#"
        Atomic `atomic` name 4..10 span 0..24
          arg atomic update None
          If `if` 11..16 expr `c`@14..15
        display: acc atomic if(c)
        error 17..24 `capture`: unknown OpenACC clause `capture`
          note: the atomic kind goes right after `atomic`, before any clause
    "#]],
    );
    check(
        "acc parallel copy(a])",
        expect![[r#"
        Parallel `parallel` name 4..12 span 0..21
        display: acc parallel
        error 19..20 `]`: unexpected `]`
          label: no matching opening bracket
    "#]],
    );
}

/// Large hostile inputs end in a directive or diagnostics: nothing recurses on the input
/// (a stack overflow would abort the test).
#[test]
fn pathological_inputs_end_in_diagnostics_not_overflows() {
    let inputs = [
        format!("acc parallel copy({}", "]".repeat(50_000)),
        format!("acc parallel copy({}", "[".repeat(50_000)),
        format!("acc parallel copy(a{})", "[0]".repeat(20_000)),
        format!(
            "acc parallel num_gangs({}1{})",
            "(".repeat(50_000),
            ")".repeat(50_000)
        ),
        format!("acc loop{}", " gang seq".repeat(5_000)),
        format!("acc parallel{}", " copy(a)".repeat(5_000)),
        format!("acc parallel{}", ")".repeat(50_000)),
    ];
    // Termination without a panic or a stack overflow, spans in range; how fast is the
    // translate bench's to say (a timed assertion here fails on a loaded machine).
    for text in &inputs {
        let (d, diags) = parse_directive(text, 0);
        assert_spans_within(text, 0, d.as_ref(), &diags);
        if let Some(d) = &d {
            let _ = crate::check_clauses::check_directive(d);
        }
    }
}

/// Every span a directive and its diagnostics carry.
pub(crate) fn all_spans(d: Option<&Directive>, diags: &[Diagnostic]) -> Vec<Span> {
    let mut spans = Vec::new();
    let expr_spans = |e: &Expr, spans: &mut Vec<Span>| spans.push(e.span);
    let item_spans = |i: &VarItem, spans: &mut Vec<Span>| {
        spans.push(i.span);
        spans.push(i.base.span);
        for a in &i.accessors {
            match a {
                Accessor::Member(id) | Accessor::Arrow(id) => spans.push(id.span),
                Accessor::Index(e) => spans.push(e.span),
                Accessor::Section {
                    lower,
                    length,
                    span,
                } => {
                    spans.push(*span);
                    spans.extend(lower.iter().chain(length).map(|e| e.span));
                }
            }
        }
    };
    let wait_spans = |w: &WaitArgs, spans: &mut Vec<Span>| {
        spans.push(w.span);
        spans.extend(w.queues_kw);
        spans.extend(w.devnum.iter().chain(&w.queues).map(|e| e.span));
    };
    if let Some(d) = d {
        spans.push(d.span);
        spans.push(d.name_span);
        match &d.arg {
            None => {}
            Some(DirectiveArg::RoutineName(id)) => spans.push(id.span),
            Some(DirectiveArg::Atomic(_, s)) => spans.extend(*s),
            Some(DirectiveArg::Wait(w)) => wait_spans(w, &mut spans),
            Some(DirectiveArg::Cache { readonly, items }) => {
                spans.extend(*readonly);
                for i in items {
                    item_spans(i, &mut spans);
                }
            }
        }
        for c in &d.clauses {
            spans.push(c.name_span);
            spans.push(c.span);
            match &c.args {
                ClauseArgs::None
                | ClauseArgs::Worker(None)
                | ClauseArgs::Vector(None)
                | ClauseArgs::Wait(None) => {}
                ClauseArgs::Vars { modifiers, items } => {
                    spans.extend(modifiers.iter().map(|m| m.1));
                    for i in items {
                        item_spans(i, &mut spans);
                    }
                }
                ClauseArgs::Reduction { op_span, items, .. } => {
                    spans.push(*op_span);
                    for i in items {
                        item_spans(i, &mut spans);
                    }
                }
                ClauseArgs::Expr(e) | ClauseArgs::Worker(Some(e)) | ClauseArgs::Vector(Some(e)) => {
                    expr_spans(e, &mut spans)
                }
                ClauseArgs::Exprs(es) => spans.extend(es.iter().map(|e| e.span)),
                ClauseArgs::Collapse { force, count } => {
                    spans.extend(*force);
                    spans.push(count.span);
                }
                ClauseArgs::Gang(args) => {
                    for a in args {
                        spans.extend(a.kw);
                        spans.push(a.value.span);
                    }
                }
                ClauseArgs::Wait(Some(w)) => wait_spans(w, &mut spans),
                ClauseArgs::DeviceTypes(ids) => spans.extend(ids.iter().map(|i| i.span)),
                ClauseArgs::Default(_, s) => spans.push(*s),
                ClauseArgs::Bind(BindTarget::Name(id)) => spans.push(id.span),
                ClauseArgs::Bind(BindTarget::Str { span, .. }) => spans.push(*span),
            }
        }
    }
    for g in diags {
        spans.push(g.span);
        spans.extend(g.secondary.iter().map(|l| l.span));
        spans.extend(g.fix.iter().map(|f| f.span));
    }
    spans
}

/// Pieces that, glued together at random, reach most parser paths.
const SOUP: &[&str] = &[
    "acc",
    "parallel",
    "loop",
    "kernels",
    "serial",
    "data",
    "enter",
    "exit",
    "update",
    "host_data",
    "declare",
    "routine",
    "atomic",
    "capture",
    "cache",
    "wait",
    "init",
    "shutdown",
    "set",
    "copy",
    "copyin",
    "pcopyout",
    "create",
    "present",
    "private",
    "firstprivate",
    "reduction",
    "gang",
    "worker",
    "vector",
    "seq",
    "auto",
    "independent",
    "collapse",
    "tile",
    "async",
    "num_gangs",
    "device_type",
    "dtype",
    "default",
    "if",
    "if_present",
    "finalize",
    "bind",
    "self",
    "host",
    "device",
    "readonly",
    "zero",
    "force",
    "num",
    "static",
    "dim",
    "devnum",
    "queues",
    "none",
    "a",
    "b",
    "s",
    "p",
    "0",
    "1",
    "-1",
    "n",
    "*",
    "+",
    "max",
    "&&",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ":",
    ",",
    "?",
    ".",
    "->",
    "\"",
    "'",
    "\\\n",
    "\\",
    "/*",
    "*/",
    "//",
    " ",
    "\t",
    "\n",
    "é",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(SOUP), 0..40).prop_map(|parts| {
        let mut s = String::new();
        for (i, p) in parts.iter().enumerate() {
            if i % 3 != 2 {
                s.push(' ');
            }
            s.push_str(p);
        }
        s
    })
}

fn assert_spans_within(text: &str, base: usize, d: Option<&Directive>, diags: &[Diagnostic]) {
    let whole = Span::new(base, base + text.len());
    for s in all_spans(d, diags) {
        assert!(
            s.start <= s.end && whole.contains(s),
            "span {s:?} outside {whole:?} for {text:?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_text_never_panics(text in ".*", base in 0usize..10_000) {
        let (d, diags) = parse_directive(&text, base);
        assert_spans_within(&text, base, d.as_ref(), &diags);
        if let Some(d) = &d {
            let checks = crate::check_clauses::check_directive(d);
            assert_spans_within(&text, base, None, &checks);
            let _ = d.to_string();
        }
    }

    #[test]
    fn clause_soup_never_panics(rest in soup(), base in 0usize..10_000) {
        let text = format!("acc{rest}");
        let (d, diags) = parse_directive(&text, base);
        assert_spans_within(&text, base, d.as_ref(), &diags);
        if let Some(d) = &d {
            let checks = crate::check_clauses::check_directive(d);
            assert_spans_within(&text, base, None, &checks);
            let _ = d.to_string();
        }
    }

    #[test]
    fn pragma_operator_never_panics(rest in soup(), base in 0usize..10_000) {
        let text = format!("acc{rest}");
        let (d, diags) = parse_pragma_operator(&text, base);
        assert_spans_within(&text, base, d.as_ref(), &diags);
        if let Some(d) = &d {
            let checks = crate::check_clauses::check_directive(d);
            assert_spans_within(&text, base, None, &checks);
        }
    }

    /// Printing a clean directive and parsing it again gives the same text.
    #[test]
    fn display_round_trips(rest in soup()) {
        let text = format!("acc{rest}");
        if let (Some(d), diags) = parse_directive(&text, 0) {
            if diags.is_empty() {
                let printed = d.to_string();
                let (again, diags2) = parse_directive(&printed, 0);
                prop_assert!(diags2.is_empty(), "{printed:?}: {diags2:?}");
                prop_assert_eq!(again.map(|a| a.to_string()), Some(printed));
            }
        }
    }
}
