use super::launch::split;
use super::*;
use crate::device::host_discrete::HostDiscreteDevice;
use crate::error::{ErrorKind, Site};
use crate::present::Counter;
use crate::queue::QueueSel;
use crate::reduce;

fn discrete() -> &'static DeviceState {
    DeviceState::leak(Box::new(HostDiscreteDevice::with_capacity(0, 1 << 20)))
}

fn site(var: &str) -> Site<'_> {
    Site {
        file: crate::error::Text::Str("t.c"),
        line: 7,
        var: crate::error::Text::Str(var),
        routine: "",
    }
}

const S: QueueSel = QueueSel::Sync;

#[test]
fn copy_region_moves_data_both_ways_and_frees() {
    let d = discrete();
    let mut a = [1.0f64, 2.0, 3.0];
    let h = a.as_mut_ptr() as usize;
    // SAFETY: `a` outlives every synchronous action below.
    unsafe {
        let dev = d
            .enter(
                Action::Copy,
                Flags::default(),
                h,
                24,
                Counter::Structured,
                S,
                &site("a"),
            )
            .unwrap();
        assert_ne!(dev, h);
        // Change the device copy behind the runtime's back, as a kernel would.
        (dev as *mut f64).write(10.0);
        assert_eq!(a[0], 1.0, "host memory is separate");
        d.exit(
            Action::Copy,
            Flags::default(),
            h,
            24,
            Counter::Structured,
            S,
            &site("a"),
        )
        .unwrap();
    }
    assert_eq!(a, [10.0, 2.0, 3.0]);
    assert_eq!(d.mapped_count(), 0);
    assert_eq!(d.device.free_memory(), 1 << 20);
}

#[test]
fn create_is_poisoned_and_zero_is_zeroed() {
    let d = discrete();
    let a = [5u32; 4];
    let b = [5u32; 4];
    // SAFETY: `a` and `b` outlive the actions.
    unsafe {
        let da = d
            .enter(
                Action::Create,
                Flags::default(),
                a.as_ptr() as usize,
                16,
                Counter::Dynamic,
                S,
                &site("a"),
            )
            .unwrap();
        let db = d
            .enter(
                Action::Create,
                Flags::ZERO,
                b.as_ptr() as usize,
                16,
                Counter::Dynamic,
                S,
                &site("b"),
            )
            .unwrap();
        assert_eq!((da as *const u32).read(), u32::MAX);
        assert_eq!((db as *const u32).read(), 0);
    }
}

#[test]
fn errors_name_the_variable_and_line() {
    let d = discrete();
    let a = [0u8; 100];
    let h = a.as_ptr() as usize;
    // SAFETY: `a` outlives the actions.
    unsafe {
        let e = d
            .enter(
                Action::Present,
                Flags::default(),
                h,
                100,
                Counter::Structured,
                S,
                &site("a[0:100]"),
            )
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::NotPresent);
        assert_eq!(
            e.to_string(),
            format!(
                "t.c:7: 'a[0:100]' (100 bytes at {h:#x}) is not present on device host-discrete 0"
            )
        );
        d.enter(
            Action::CopyIn,
            Flags::default(),
            h,
            50,
            Counter::Dynamic,
            S,
            &site("a[0:50]"),
        )
        .unwrap();
        let e = d
            .enter(
                Action::CopyIn,
                Flags::default(),
                h + 40,
                20,
                Counter::Dynamic,
                S,
                &site("a[40:20]"),
            )
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::PartialOverlap);
        assert!(
            e.to_string().contains("partially overlaps 'a[0:50]'"),
            "{e}"
        );
        let e = d
            .update(false, false, h + 60, 4, S, &site("a[60:4]"))
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::NotPresent);
        d.update(false, true, h + 60, 4, S, &site("a[60:4]"))
            .unwrap();
        // A length computed negative (`a[lo:hi-lo]`, hi < lo) wraps to most of memory, which
        // overlaps what is present, or is absent: it is named as negative either way.
        let minus_ten = (-10isize) as usize;
        let e = d
            .update(false, false, h + 40, minus_ten, S, &site("a[lo:hi-lo]"))
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidArgument);
        assert!(
            e.to_string()
                .contains("'a[lo:hi-lo]' has a negative length (-10 bytes at"),
            "{e}"
        );
    }
}

/// `present(A)` of a pointer whose target is mapped names the pointer itself; the error says
/// so, and only then.
#[test]
fn a_pointer_named_alone_whose_target_is_present_gets_a_hint() {
    let d = discrete();
    let data = [0f64; 8];
    let pointer: *const f64 = data.as_ptr();
    let at = std::ptr::addr_of!(pointer) as usize;
    let unmapped: *const f64 = std::ptr::null();
    let at_unmapped = std::ptr::addr_of!(unmapped) as usize;
    let present = |host: usize, var: &str| {
        // SAFETY: `pointer`, `unmapped` and `data` outlive the actions.
        unsafe {
            d.enter(
                Action::Present,
                Flags::default(),
                host,
                size_of::<usize>(),
                Counter::Structured,
                S,
                &site(var),
            )
        }
        .unwrap_err()
        .to_string()
    };
    // SAFETY: as above.
    unsafe {
        d.enter(
            Action::CopyIn,
            Flags::default(),
            data.as_ptr() as usize,
            64,
            Counter::Dynamic,
            S,
            &site("A[0:8]"),
        )
        .unwrap();
    }
    let e = present(at, "A");
    assert!(
        e.contains("`A` is a pointer whose target is present") && e.contains("`present(A[0:n])`"),
        "{e}"
    );
    let e = present(at_unmapped, "B");
    assert!(!e.contains("is a pointer"), "{e}");
}

#[test]
fn present_of_a_bare_pointer_takes_its_present_target_for_the_construct() {
    let d = discrete();
    let data = [3i32; 8];
    let pointer: *const i32 = data.as_ptr();
    let at = std::ptr::addr_of!(pointer) as usize;
    let word = size_of::<usize>();
    // SAFETY: `pointer` and `data` outlive the actions.
    let enter = |flags: Flags| unsafe {
        d.enter(
            Action::Present,
            flags,
            at,
            word,
            Counter::Structured,
            S,
            &site("p"),
        )
    };
    // SAFETY: as for `enter`.
    let exit = || unsafe {
        d.exit(
            Action::Present,
            Flags::POINTER_TARGET,
            at,
            word,
            Counter::Structured,
            S,
            &site("p"),
        )
    };
    // The target is not present: an error either way.
    let e = enter(Flags::POINTER_TARGET).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NotPresent);
    // SAFETY: as above.
    let target = unsafe {
        d.enter(
            Action::CopyIn,
            Flags::default(),
            data.as_ptr() as usize,
            32,
            Counter::Dynamic,
            S,
            &site("data"),
        )
    }
    .unwrap();
    // Without the compiler's flag (an item that is not a bare pointer), the strict reading.
    assert_eq!(
        enter(Flags::default()).unwrap_err().kind(),
        ErrorKind::NotPresent
    );
    // With it: the pointer's own device copy, pointing at the device's target, until the exit.
    let copy = enter(Flags::POINTER_TARGET).unwrap();
    // SAFETY: `copy` is the device copy of the pointer, live until the exit below.
    assert_eq!(unsafe { (copy as *const usize).read() }, target);
    assert!(d.is_present(at, word));
    // A nested construct finds the pointer itself present (the strict reading) and keeps it.
    assert_eq!(enter(Flags::default()).unwrap(), copy);
    exit().unwrap();
    assert!(d.is_present(at, word));
    exit().unwrap();
    assert!(!d.is_present(at, word), "the construct's exit removes it");
    // A struct's member (`present(s.x)`): the present target is enough, and nothing is mapped
    // (the struct's own copy attaches the member); the exit finds nothing to release.
    let member = Flags(Flags::POINTER_TARGET.0 | Flags::MEMBER_TARGET.0);
    enter(member).unwrap();
    assert!(!d.is_present(at, word));
    exit().unwrap();
    assert!(!d.is_present(at, word));
}

#[test]
fn out_of_memory_and_bad_frees_are_errors() {
    let d = discrete();
    let big = vec![0u8; 2 << 20];
    // SAFETY: `big` outlives the action.
    let e = unsafe {
        d.enter(
            Action::Create,
            Flags::default(),
            big.as_ptr() as usize,
            big.len(),
            Counter::Dynamic,
            S,
            &site("big"),
        )
    }
    .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::OutOfMemory);
    let p = d.malloc(64, &site("")).unwrap();
    let host = [0u8; 64];
    d.map_data(host.as_ptr() as usize, p, 64, &site("h"))
        .unwrap();
    assert_eq!(
        d.free(p, &Site::routine("acc_free")).unwrap_err().kind(),
        ErrorKind::BadFree
    );
    assert_eq!(d.hostptr(p + 3), host.as_ptr() as usize + 3);
    d.unmap_data(host.as_ptr() as usize, &Site::routine("acc_unmap_data"))
        .unwrap();
    let e = d
        .unmap_data(host.as_ptr() as usize, &Site::routine("acc_unmap_data"))
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::BadUnmap);
    d.free(p, &Site::routine("acc_free")).unwrap();
    assert_eq!(
        d.free(p, &Site::routine("acc_free")).unwrap_err().kind(),
        ErrorKind::BadFree
    );
}

/// `copyin` of `bytes` at `host` with a dynamic count, synchronously; the device address.
///
/// # Safety
/// `host` stays valid for `bytes` until the data's exit.
unsafe fn copy_in(d: &'static DeviceState, host: usize, bytes: usize, name: &str) -> usize {
    // SAFETY: forwarded from the caller.
    unsafe {
        d.enter(
            Action::CopyIn,
            Flags::default(),
            host,
            bytes,
            Counter::Dynamic,
            S,
            &site(name),
        )
    }
    .unwrap()
}

#[test]
fn attach_points_the_device_pointer_at_the_device_target() {
    let d = discrete();
    let data = [7i32; 8];
    #[repr(C)]
    struct S1 {
        p: *const i32,
    }
    let s = S1 { p: data.as_ptr() };
    let sp = &s as *const S1 as usize;
    // SAFETY: `s` and `data` outlive the actions.
    unsafe {
        let ds = copy_in(d, sp, 8, "s");
        let dd = copy_in(d, data.as_ptr() as usize, 32, "data");
        d.attach(sp, S, &site("s.p")).unwrap();
        assert_eq!((ds as *const usize).read(), dd);
        d.attach(sp, S, &site("s.p")).unwrap();
        d.detach(sp, false, S, &site("s.p")).unwrap();
        assert_eq!((ds as *const usize).read(), dd, "still attached once");
        d.detach(sp, false, S, &site("s.p")).unwrap();
        assert_eq!((ds as *const usize).read(), data.as_ptr() as usize);
    }
}

/// A section that starts past the pointer's target (`copyin(s.p[2:4])`): the device pointer
/// is the section's device address less the offset, so `p[2]` on the device is the section's
/// first element, though the host's `p[0]` is not present.
#[test]
fn attach_of_a_section_past_the_target_indexes_as_the_host() {
    let d = discrete();
    let data = [7i32; 8];
    #[repr(C)]
    struct S1 {
        p: *const i32,
    }
    let s = S1 { p: data.as_ptr() };
    let sp = &s as *const S1 as usize;
    let offset = 2 * size_of::<i32>();
    // SAFETY: `s` and `data` outlive the actions.
    unsafe {
        let ds = copy_in(d, sp, 8, "s");
        let dd = copy_in(d, data.as_ptr() as usize + offset, 16, "s.p[2:4]");
        // Without the offset, the pointer's own target is not present: left alone.
        d.attach(sp, S, &site("s.p")).unwrap();
        assert_eq!((ds as *const usize).read(), data.as_ptr() as usize);
        d.enter(
            Action::Attach,
            Flags(Flags::IF_PRESENT.0 | Flags::SECTION_OFFSET.0),
            sp,
            offset,
            Counter::Dynamic,
            S,
            &site("s.p"),
        )
        .unwrap();
        assert_eq!((ds as *const usize).read(), dd - offset);
    }
}

unsafe extern "C" fn add_one(c: *const Chunk) {
    // SAFETY: the runtime passes a valid chunk whose first argument is a pointer to the
    // device copy of an i64 array.
    unsafe {
        let c = &*c;
        let a = *(*c.args as *const *mut i64);
        let sum = *c.red as *mut i64;
        for i in c.begin..c.end {
            *a.add(i as usize) += 1;
            *sum += *a.add(i as usize);
        }
    }
}

#[test]
fn launch_translates_arguments_and_reduces() {
    let d = discrete();
    let mut a: Vec<i64> = (0..1000).collect();
    let mut sum: i64 = 5;
    let h = a.as_mut_ptr() as usize;
    let st = site("a[0:1000]");
    // SAFETY: `a` and `sum` outlive the synchronous launch.
    unsafe {
        d.enter(
            Action::Copy,
            Flags::default(),
            h,
            8000,
            Counter::Structured,
            S,
            &st,
        )
        .unwrap();
        let args = [Arg::Mapped {
            host: h,
            bytes: 8000,
            site: st,
        }];
        let reds = [Reduction {
            op: reduce::Op::Add,
            ty: reduce::Type::I64,
            var: &mut sum as *mut i64 as usize,
            count: 1,
            custom: None,
            kernel_sets_slots: false,
            site: st,
        }];
        d.launch(
            add_one,
            Geometry {
                iterations: 1000,
                num_gangs: 7,
                ..Geometry::default()
            },
            &args,
            &reds,
            S,
            &st,
        )
        .unwrap();
        assert_eq!(a[0], 0, "the kernel ran on the device copy");
        d.exit(
            Action::Copy,
            Flags::default(),
            h,
            8000,
            Counter::Structured,
            S,
            &st,
        )
        .unwrap();
    }
    assert_eq!(a[999], 1000);
    assert_eq!(sum, 5 + (1..=1000).sum::<i64>());
    // SAFETY: `a` is valid; the launch is synchronous.
    let e = unsafe {
        d.launch(
            add_one,
            Geometry {
                iterations: 1,
                ..Geometry::default()
            },
            &[Arg::Mapped {
                host: h,
                bytes: 8,
                site: st,
            }],
            &[],
            S,
            &st,
        )
    }
    .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NotPresent);
}

#[test]
fn split_covers_the_range() {
    for (n, k) in [(10i64, 3usize), (1, 1), (1000, 7), (5, 5)] {
        let mut prev = 0;
        for c in 0..k {
            let (b, e) = (split(n, k, c), split(n, k, c + 1));
            assert_eq!(b, prev);
            assert!(e > b);
            prev = e;
        }
        assert_eq!(prev, n);
    }
}

/// A kernel chunk on a queue whose `routine` reads a `declare`d global looks the global up in
/// the present table; a synchronous data action that took the table's lock and then waited for
/// the queues waited for that chunk forever. The action now waits for the queues first.
#[test]
fn a_synchronous_action_waits_for_queued_work_before_it_takes_the_table() {
    let d = discrete();
    let global = Box::leak(Box::new([5.0f64]));
    let g = global.as_mut_ptr() as usize;
    // SAFETY: `global` lives for the rest of the process.
    unsafe {
        d.enter(
            Action::CopyIn,
            Flags::default(),
            g,
            8,
            Counter::Dynamic,
            S,
            &site("g"),
        )
        .unwrap();
    }
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        d.queues.submit(QueueSel::Async(1), move || {
            // Long enough for the action below to start first.
            std::thread::sleep(std::time::Duration::from_millis(50));
            assert_ne!(d.deviceptr(g), 0);
        });
        let mut b = [1.0f64; 4];
        let h = b.as_mut_ptr() as usize;
        // SAFETY: `b` outlives both synchronous actions.
        unsafe {
            let site = site("b");
            d.enter(
                Action::CopyIn,
                Flags::default(),
                h,
                32,
                Counter::Dynamic,
                S,
                &site,
            )
            .unwrap();
            d.exit(
                Action::Delete,
                Flags::default(),
                h,
                32,
                Counter::Dynamic,
                S,
                &site,
            )
            .unwrap();
        }
        done.send(()).unwrap();
    });
    finished
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("a synchronous copyin after queued work that reads the present table hung");
}
