use expect_test::{expect, Expect};

use super::check_directive;
use crate::directive::parse_directive;
use crate::directive::tests::render;

/// Parses (which must succeed without errors) and renders the checks.
fn check(text: &str, expect: Expect) {
    let (d, diags) = parse_directive(text, 0);
    assert!(
        diags.is_empty(),
        "{text:?} does not parse cleanly: {diags:?}"
    );
    let d = d.expect("parses");
    expect.assert_eq(&render(text, 0, &check_directive(&d)));
}

fn clean(text: &str) {
    check(text, expect![[""]]);
}

#[test]
fn valid_directives_pass() {
    clean("acc parallel loop gang vector reduction(+:s) copyin(a[0:n], b[1:n-1][0:m]) copyout(s.arr[0:n], p->x)");
    clean("acc parallel num_gangs(4, 2, 1) num_workers(8) vector_length(128) async(q) wait(1, 2) if(n > 10) self default(none) private(t) firstprivate(u) copy(a) present(b) no_create(c) deviceptr(p) attach(s.p)");
    clean("acc kernels loop independent reduction(||:flag) private(i) copy(a)");
    clean("acc serial loop seq firstprivate(x)");
    clean("acc loop collapse(force:2) device_type(nvidia) gang worker vector");
    clean("acc loop tile(4, *) gang(static:*, dim:2)");
    clean("acc loop gang(num: 4) worker(num: 8) vector(length: 32)");
    clean("acc data copyin(readonly: a[:n]) copyout(zero: b[2:]) create(zero: c[:]) if(ok) async device_type(nvidia) wait");
    clean("acc enter data copyin(a[0:n]) create(b) attach(s.p) async(1) wait if(x)");
    clean("acc exit data copyout(a[0:n]) delete(b) detach(s.p) finalize async");
    clean("acc host_data use_device(p, q) if_present if(c)");
    clean("acc declare device_resident(t) link(big) copyin(c) create(d)");
    clean("acc update self(a[0:n]) host(b) device(c[1:2]) if_present async device_type(nvidia) wait(1)");
    clean("acc routine(foo) seq bind(\"bar\")");
    clean("acc routine gang(dim: 1) nohost bind(cuda_foo)");
    clean("acc routine device_type(nvidia) vector device_type(host) seq");
    clean("acc atomic capture if(c)");
    clean("acc cache(readonly: a[i:4], b[i])");
    clean("acc wait(devnum: 1 : queues: 2, 3) async(4) if(go)");
    clean("acc set device_type(nvidia) device_num(0) default_async(1)");
    clean("acc init device_type(host) device_type(nvidia) device_num(0)");
    clean("acc shutdown if(done)");
    clean("acc parallel copy(a[0:n]) copy(a[n:n]) reduction(+:s) copy(s)");
}

#[test]
fn clauses_not_allowed() {
    check(
        "acc enter data copyout(a) copyin(b)",
        expect![[r#"
            error 15..22 `copyout`: `copyout` is not allowed on `enter data`
              note: `copyout` belongs on `exit data`
        "#]],
    );
    check(
        "acc exit data copyin(a) create(b) delete(c)",
        expect![[r#"
            error 14..20 `copyin`: `copyin` is not allowed on `exit data`
              note: `copyin` belongs on `enter data`
            error 24..30 `create`: `create` is not allowed on `exit data`
              note: `create` belongs on `enter data`
        "#]],
    );
    check(
        "acc parallel finalize if_present copy(a)",
        expect![[r#"
            error 13..21 `finalize`: `finalize` is not allowed on `parallel`
              note: `finalize` is only allowed on `exit data`
            error 22..32 `if_present`: `if_present` is not allowed on `parallel`
              note: `if_present` is only allowed on `update` and `host_data`
        "#]],
    );
    check(
        "acc kernels private(x) reduction(+:s)",
        expect![[r#"
            error 12..19 `private`: `private` is not allowed on `kernels`
              note: put `private` on a `loop` inside the `kernels` region
            error 23..32 `reduction`: `reduction` is not allowed on `kernels`
              note: put `reduction` on a `loop` inside the `kernels` region
        "#]],
    );
    check(
        "acc serial num_gangs(2) pcopy(a)",
        expect![[r#"
            error 11..20 `num_gangs`: `num_gangs` is not allowed on `serial`
              note: `serial` accepts `copy`, `copyin`, `copyout`, `create`, `no_create`, `present`, `deviceptr`, `attach`, `private`, `firstprivate`, `reduction`, `self`, `async`, `wait`, `device_type`, `default` or `if`
        "#]],
    );
    check(
        "acc loop copy(a) firstprivate(b)",
        expect![[r#"
            error 9..13 `copy`: `copy` is not allowed on `loop`
              note: `loop` accepts `private`, `reduction`, `gang`, `worker`, `vector`, `seq`, `auto`, `independent`, `collapse`, `tile` or `device_type`
            error 17..29 `firstprivate`: `firstprivate` is not allowed on `loop`
              note: `loop` accepts `private`, `reduction`, `gang`, `worker`, `vector`, `seq`, `auto`, `independent`, `collapse`, `tile` or `device_type`
        "#]],
    );
    check("acc cache(a[0:4])", expect![[""]]);
    check(
        "acc set if(c) async",
        expect![[r#"
            error 14..19 `async`: `async` is not allowed on `set`
              note: `set` accepts `device_type`, `if`, `device_num` or `default_async`
        "#]],
    );
    check(
        "acc update copy(a) self(b)",
        expect![[r#"
            error 11..15 `copy`: `copy` is not allowed on `update`
              note: `update` accepts `host`, `device`, `self`, `async`, `wait`, `device_type`, `if` or `if_present`
        "#]],
    );
}

#[test]
fn device_type_sections() {
    check(
        "acc parallel device_type(nvidia) num_gangs(4) copy(a)",
        expect![[r#"
            error 46..50 `copy`: `copy` may not follow `device_type` on `parallel`
              secondary 13..32 `device_type(nvidia)`: clauses after this apply to the named devices only
              note: move `copy` before `device_type`; only `async`, `wait`, `num_gangs`, `num_workers` or `vector_length` may follow it
        "#]],
    );
    check(
        "acc loop device_type(*) private(i) gang",
        expect![[r#"
            error 24..31 `private`: `private` may not follow `device_type` on `loop`
              secondary 9..23 `device_type(*)`: clauses after this apply to the named devices only
              note: move `private` before `device_type`; only `gang`, `worker`, `vector`, `seq`, `auto`, `independent`, `collapse` or `tile` may follow it
        "#]],
    );
    check("acc parallel num_gangs(2) device_type(nvidia) num_gangs(4) device_type(radeon) num_gangs(8) num_gangs(9)", expect![[r#"
            error 92..101 `num_gangs`: `num_gangs` appears more than once on `parallel`
              secondary 79..88 `num_gangs`: first here
              note: keep one
        "#]]);
    check(
        "acc parallel device_type(nvidia, *)",
        expect![[r#"
            error 33..34 `*`: `*` must be the only device type in `device_type(...)`
        "#]],
    );
    check(
        "acc set device_type(nvidia) device_type(host)",
        expect![[r#"
            error 28..39 `device_type`: `device_type` appears more than once on `set`
              secondary 8..19 `device_type`: first here
              note: keep one
        "#]],
    );
}

#[test]
fn at_most_once() {
    check(
        "acc parallel if(a) if(b) async async(2) default(none) default(present) wait(1) wait(2)",
        expect![[r#"
            error 19..21 `if`: `if` appears more than once on `parallel`
              secondary 13..15 `if`: first here
              note: keep one
            error 31..36 `async`: `async` appears more than once on `parallel`
              secondary 25..30 `async`: first here
              note: keep one
            error 54..61 `default`: `default` appears more than once on `parallel`
              secondary 40..47 `default`: first here
              note: keep one
        "#]],
    );
    check(
        "acc loop gang gang(4) collapse(2) collapse(3)",
        expect![[r#"
            error 14..18 `gang`: `gang` appears more than once on `loop`
              secondary 9..13 `gang`: first here
              note: keep one
            error 34..42 `collapse`: `collapse` appears more than once on `loop`
              secondary 22..30 `collapse`: first here
              note: keep one
        "#]],
    );
    check(
        "acc exit data delete(a) finalize finalize",
        expect![[r#"
            error 33..41 `finalize`: `finalize` appears more than once on `exit data`
              secondary 24..32 `finalize`: first here
              note: keep one
        "#]],
    );
    check(
        "acc routine seq bind(a) bind(b) nohost nohost",
        expect![[r#"
            error 24..28 `bind`: `bind` appears more than once on `routine`
              secondary 16..20 `bind`: first here
              note: keep one
            error 39..45 `nohost`: `nohost` appears more than once on `routine`
              secondary 32..38 `nohost`: first here
              note: keep one
        "#]],
    );
}

#[test]
fn required_clauses() {
    check(
        "acc update if_present",
        expect![[r#"
            error 4..10 `update`: `update` needs at least one of `self`, `host` or `device`
        "#]],
    );
    check(
        "acc enter data async",
        expect![[r#"
            error 4..14 `enter data`: `enter data` needs at least one of `copyin`, `create` or `attach`
        "#]],
    );
    check(
        "acc exit data finalize",
        expect![[r#"
            error 4..13 `exit data`: `exit data` needs at least one of `copyout`, `delete` or `detach`
        "#]],
    );
    check(
        "acc data if(x)",
        expect![[r#"
            error 4..8 `data`: `data` needs at least one data clause or `default`
        "#]],
    );
    check(
        "acc host_data if(x)",
        expect![[r#"
            error 4..13 `host_data`: `host_data` needs a `use_device` clause
        "#]],
    );
    check(
        "acc declare",
        expect![[r#"
            error 4..11 `declare`: `declare` needs at least one data clause
        "#]],
    );
    check(
        "acc set if(x)",
        expect![[r#"
            error 4..7 `set`: `set` needs at least one of `default_async`, `device_num` or `device_type`
        "#]],
    );
    check(
        "acc routine",
        expect![[r#"
            error 4..11 `routine`: `routine` needs one of `gang`, `worker`, `vector` or `seq`
              note: use `seq` for a routine that runs on one thread and contains no partitioned loops
        "#]],
    );
    check(
        "acc routine bind(f) device_type(nvidia) gang device_type(host)",
        expect![[r#"
            error 45..62 `device_type(host)`: no level of parallelism for these devices on `routine`
              note: give `gang`, `worker`, `vector` or `seq` before the first `device_type`, or after each one
        "#]],
    );
    check(
        "acc routine gang worker",
        expect![[r#"
            error 17..23 `worker`: `worker` conflicts with `gang` on `routine`
              secondary 12..16 `gang`: level of parallelism already given here
              note: a routine has exactly one of `gang`, `worker`, `vector` or `seq`
        "#]],
    );
    check("acc data default(none)", expect![[""]]);
}

#[test]
fn exclusive_clauses() {
    check(
        "acc loop seq independent auto",
        expect![[r#"
            error 13..24 `independent`: `independent` conflicts with `seq`
              secondary 9..12 `seq`: `seq` given here
              note: a loop is either `seq`, `independent` or `auto`
            error 25..29 `auto`: `auto` conflicts with `seq`
              secondary 9..12 `seq`: `seq` given here
              note: a loop is either `seq`, `independent` or `auto`
        "#]],
    );
    check(
        "acc loop gang seq vector",
        expect![[r#"
            error 14..17 `seq`: `seq` conflicts with `gang`
              secondary 9..13 `gang`: `gang` given here
              note: a `seq` loop runs on one thread; drop `seq` to partition it
            error 18..24 `vector`: `vector` conflicts with `seq`
              secondary 14..17 `seq`: `seq` given here
              note: a `seq` loop runs on one thread; drop `seq` to partition it
        "#]],
    );
    check(
        "acc parallel loop tile(2, 2) collapse(2)",
        expect![[r#"
            error 29..37 `collapse`: `collapse` conflicts with `tile`
              secondary 18..22 `tile`: `tile` given here
              note: `tile` already covers as many loops as it has sizes
        "#]],
    );
    check(
        "acc loop seq device_type(nvidia) independent gang",
        expect![[""]],
    );
}

#[test]
fn modifiers() {
    check("acc data copyin(zero: a) copyout(readonly: b) create(readonly, zero: c) present(zero: d) copy(always, always: e)", expect![[r#"
            error 16..20 `zero`: modifier `zero` is not allowed on `copyin`
              note: `copyin` accepts `readonly`, `always`, `alwaysin`, `capture`
            error 33..41 `readonly`: modifier `readonly` is not allowed on `copyout`
              note: `copyout` accepts `zero`, `always`, `alwaysout`, `capture`
            error 53..61 `readonly`: modifier `readonly` is not allowed on `create`
              note: `create` accepts `zero`, `capture`
            error 80..84 `zero`: modifier `zero` is not allowed on `present`
              note: `present` takes no modifiers
            error 102..108 `always`: modifier `always` appears more than once
              secondary 94..100 `always`: first here
        "#]]);
    check(
        "acc declare create(zero: a)",
        expect![[r#"
            error 19..23 `zero`: modifier `zero` is not allowed on `create` in `declare`
        "#]],
    );
    check(
        "acc data copy(alwaysin, capture: a) copyout(alwaysout: b)",
        expect![[""]],
    );
}

#[test]
fn integer_arguments() {
    check(
        "acc parallel num_gangs(0, -1, 2) num_workers(0x0) vector_length(-(4))",
        expect![[r#"
            error 23..24 `0`: `num_gangs` needs a positive integer, found `0`
            error 26..28 `-1`: `num_gangs` needs a positive integer, found `-1`
            error 45..48 `0x0`: `num_workers` needs a positive integer, found `0x0`
            error 64..68 `-(4)`: `vector_length` needs a positive integer, found `-(4)`
        "#]],
    );
    check(
        "acc loop collapse(0) tile(*, 0, 2u) gang(num: 0, static: -2)",
        expect![[r#"
            error 21..25 `tile`: `tile` conflicts with `collapse`
              secondary 9..17 `collapse`: `collapse` given here
              note: `tile` already covers as many loops as it has sizes
            error 18..19 `0`: `collapse` needs a positive integer, found `0`
            error 29..30 `0`: `tile` needs a positive integer, found `0`
            error 46..47 `0`: `gang(num:)` needs a positive integer, found `0`
            error 57..59 `-2`: `gang(static:)` needs a positive integer, found `-2`
        "#]],
    );
    check(
        "acc loop worker(0) vector(n)",
        expect![[r#"
            error 16..17 `0`: `worker` needs a positive integer, found `0`
        "#]],
    );
    check(
        "acc kernels num_gangs(1, 2)",
        expect![[r#"
            error 12..27 `num_gangs(1, 2)`: on `kernels`, `num_gangs` takes a single argument
        "#]],
    );
    check(
        "acc parallel num_gangs(1, 2, 3, 4) num_workers(n - 1)",
        expect![[r#"
            error 13..34 `num_gangs(1, 2, 3, 4)`: `num_gangs` takes at most three arguments, found 4
              note: one per gang dimension
        "#]],
    );
    check(
        "acc parallel num_gangs(*)",
        expect![[r#"
            error 23..24 `*`: `*` is not allowed in `num_gangs`
        "#]],
    );
}

#[test]
fn gang_worker_vector_arguments() {
    check(
        "acc parallel loop gang(num: 4) worker(4) vector(length: 32)",
        expect![[r#"
            error 23..29 `num: 4`: `gang(num:)` is not allowed on `parallel loop`
              note: give the number of gangs with `num_gangs` instead
            error 38..39 `4`: `worker(...)` is not allowed on `parallel loop`
              note: use `num_workers` instead
            error 56..58 `32`: `vector(...)` is not allowed on `parallel loop`
              note: use `vector_length` instead
        "#]],
    );
    check(
        "acc routine gang(num: 4, static: 2) ",
        expect![[r#"
            error 17..23 `num: 4`: `gang` on `routine` takes only `dim:`
            error 25..34 `static: 2`: `gang` on `routine` takes only `dim:`
        "#]],
    );
    check(
        "acc routine worker(4)",
        expect![[r#"
            error 19..20 `4`: `worker` on `routine` takes no argument
        "#]],
    );
    check(
        "acc loop gang(dim: 4, dim: 1)",
        expect![[r#"
            error 19..20 `4`: `gang(dim:)` must be 1, 2 or 3, found `4`
            error 22..28 `dim: 1`: `dim` appears more than once in `gang(...)`
              secondary 14..20 `dim: 4`: first here
        "#]],
    );
    check(
        "acc kernels loop gang(dim: 2)",
        expect![[r#"
            error 22..28 `dim: 2`: `gang(dim:)` is not allowed on `kernels loop`
        "#]],
    );
}

/// An array element in a data clause is that element (OpenACC 3.3's *var*), as GCC, Flang and
/// Clacc read it.
#[test]
fn array_elements_in_data_clauses_are_elements() {
    check(
        "acc data copyin(a[3]) copy(b[n]) present(m[i][j])",
        expect![[""]],
    );
    check("acc update device(a[2]) self(p[i])", expect![[""]]);
    check(
        "acc data copy(s.arr[3], p->q[1]) copy(c[0:3])",
        expect![[""]],
    );
    check("acc cache(a[i])", expect![[""]]);
}

#[test]
fn subarrays_in_private() {
    check(
        "acc parallel private(a[0:n]) firstprivate(b[:]) private(c[2])",
        expect![[r#"
            error 21..27 `a[0:n]`: subarrays are not allowed in `private`
              note: OpenMP cannot map them either; privatize the whole array
            error 42..46 `b[:]`: subarrays are not allowed in `firstprivate`
              note: OpenMP cannot map them either; privatize the whole array
            error 56..60 `c[2]`: array elements are not allowed in `private`
              note: privatize the whole array
        "#]],
    );
    // acc's own rules: a gang's copy of a section on a compute or combined construct, not on
    // a loop.
    let acc = |text: &str| {
        let (d, _) = parse_directive(text, 0);
        render(
            text,
            0,
            &super::check_directive_as(&d.expect("parses"), super::Rules::Acc),
        )
    };
    assert_eq!(acc("acc parallel private(a[0:n]) firstprivate(b[2:n])"), "");
    // Two data clauses that amount to one; `present` with another stays an error.
    assert_eq!(
        acc("acc parallel copyin(x) copyout(x) create(c[0:n]) copyout(c[0:n])"),
        ""
    );
    assert!(acc("acc data present(x) copy(x)").contains("appears in both `present` and `copy`"));
    assert_eq!(acc("acc serial firstprivate(b[0:n])"), "");
    assert!(acc("acc loop private(a[0:n])").contains("subarrays are not allowed in `private`"));
    assert_eq!(
        acc("acc parallel loop private(a[0:n]) firstprivate(b[0:n])"),
        ""
    );
    assert_eq!(acc("acc kernels loop private(a[0:n])"), "");
    assert!(acc("acc loop private(a[0:n])").contains("name it there"));
    check(
        "acc declare copyin(a[0:n])",
        expect![[r#"
            error 19..25 `a[0:n]`: subarrays are not allowed in `declare`
              note: declare the whole array
        "#]],
    );
}

#[test]
fn duplicate_variables() {
    check(
        "acc parallel copy(a) copy(a, b) pcopy(b) private(i, i)",
        expect![[r#"
            error 26..27 `a`: `a` appears more than once in `copy`
              secondary 18..19 `a`: first here
              note: keep one
            error 38..39 `b`: `b` appears more than once in `copy`
              secondary 29..30 `b`: first here
              note: keep one
            error 52..53 `i`: `i` appears more than once in `private`
              secondary 49..50 `i`: first here
              note: keep one
        "#]],
    );
    check(
        "acc parallel copy(a[0 : n]) copy(a[0:n])",
        expect![[r#"
            error 33..39 `a[0:n]`: `a[0:n]` appears more than once in `copy`
              secondary 18..26 `a[0 : n]`: first here
              note: keep one
        "#]],
    );
    check(
        "acc loop reduction(+:s) reduction(*:s)",
        expect![[r#"
            error 36..37 `s`: `s` appears in two reductions with different operators (`+` and `*`)
              secondary 21..22 `s`: first here
              note: keep one
        "#]],
    );
    check(
        "acc update self(a) host(a)",
        expect![[r#"
            error 24..25 `a`: `a` appears more than once in `host`
              secondary 16..17 `a`: first here
              note: keep one
        "#]],
    );
}

#[test]
fn variables_in_two_attributes() {
    check(
        "acc parallel copyin(x) copyout(x)",
        expect![[r#"
            error 31..32 `x`: `x` appears in both `copyin` and `copyout`; keep one: OpenMP maps a variable once (`acc cc` takes the two as `copy`)
              secondary 20..21 `x`: also in `copyin` here
        "#]],
    );
    check(
        "acc data present(x) create(x) copy(x)",
        expect![[r#"
            error 27..28 `x`: `x` appears in both `present` and `create`; keep one
              secondary 17..18 `x`: also in `present` here
            error 35..36 `x`: `x` appears in both `present` and `copy`; keep one
              secondary 17..18 `x`: also in `present` here
        "#]],
    );
    check(
        "acc parallel loop private(x) reduction(+:x) firstprivate(x)",
        expect![[r#"
            error 41..42 `x`: `x` appears in both `private` and `reduction`; keep one
              secondary 26..27 `x`: also in `private` here
            error 57..58 `x`: `x` appears in both `private` and `firstprivate`; keep one
              secondary 26..27 `x`: also in `private` here
        "#]],
    );
    check(
        "acc parallel copy(x) private(x)",
        expect![[r#"
            error 29..30 `x`: `x` appears in both `copy` and `private`; the private copy hides the mapped data; keep one
              secondary 18..19 `x`: also in `copy` here
        "#]],
    );
    check(
        "acc parallel firstprivate(y) copyin(y)",
        expect![[r#"
            error 36..37 `y`: `y` appears in both `firstprivate` and `copyin`; the firstprivate copy hides the mapped data; keep one
              secondary 26..27 `y`: also in `firstprivate` here
        "#]],
    );
    check("acc parallel reduction(+:s) copy(s)", expect![[""]]);
}
