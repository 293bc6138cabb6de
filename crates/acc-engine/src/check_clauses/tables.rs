//! The clause tables of OpenACC 3.3 (and 3.4's data clause modifiers):
//! which clauses each directive allows, which may follow `device_type`,
//! which may repeat, which modifiers each data clause takes, the levels of
//! parallelism.
//!
//! Pure functions of clause and directive kinds: no diagnostics, no list
//! items. A combined construct's tables are the union of its parts'.

use crate::directive::{ClauseKind, DataModifier, DirectiveKind};

use ClauseKind as K;
use DirectiveKind as D;

/// The clauses OpenACC 3.3 allows on a directive that is not combined.
pub(super) fn allowed_clauses(dir: DirectiveKind) -> &'static [ClauseKind] {
    match dir {
        D::Parallel => &[
            K::Async,
            K::Wait,
            K::NumGangs,
            K::NumWorkers,
            K::VectorLength,
            K::DeviceType,
            K::If,
            K::SelfClause,
            K::Reduction,
            K::Copy,
            K::Copyin,
            K::Copyout,
            K::Create,
            K::NoCreate,
            K::Present,
            K::Deviceptr,
            K::Attach,
            K::Private,
            K::Firstprivate,
            K::Default,
        ],
        D::Serial => &[
            K::Async,
            K::Wait,
            K::DeviceType,
            K::If,
            K::SelfClause,
            K::Reduction,
            K::Copy,
            K::Copyin,
            K::Copyout,
            K::Create,
            K::NoCreate,
            K::Present,
            K::Deviceptr,
            K::Attach,
            K::Private,
            K::Firstprivate,
            K::Default,
        ],
        D::Kernels => &[
            K::Async,
            K::Wait,
            K::NumGangs,
            K::NumWorkers,
            K::VectorLength,
            K::DeviceType,
            K::If,
            K::SelfClause,
            K::Copy,
            K::Copyin,
            K::Copyout,
            K::Create,
            K::NoCreate,
            K::Present,
            K::Deviceptr,
            K::Attach,
            K::Default,
        ],
        D::Loop => &[
            K::Collapse,
            K::Gang,
            K::Worker,
            K::Vector,
            K::Seq,
            K::Independent,
            K::Auto,
            K::Tile,
            K::DeviceType,
            K::Private,
            K::Reduction,
        ],
        D::Data => &[
            K::If,
            K::Async,
            K::Wait,
            K::DeviceType,
            K::Copy,
            K::Copyin,
            K::Copyout,
            K::Create,
            K::NoCreate,
            K::Present,
            K::Deviceptr,
            K::Attach,
            K::Default,
        ],
        D::EnterData => &[K::If, K::Async, K::Wait, K::Copyin, K::Create, K::Attach],
        D::ExitData => &[
            K::If,
            K::Async,
            K::Wait,
            K::Copyout,
            K::Delete,
            K::Detach,
            K::Finalize,
        ],
        D::HostData => &[K::UseDevice, K::If, K::IfPresent],
        D::Update => &[
            K::Async,
            K::Wait,
            K::DeviceType,
            K::If,
            K::IfPresent,
            K::SelfClause,
            K::Host,
            K::Device,
        ],
        D::Declare => &[
            K::Copy,
            K::Copyin,
            K::Copyout,
            K::Create,
            K::Present,
            K::Deviceptr,
            K::DeviceResident,
            K::Link,
        ],
        D::Routine => &[
            K::Gang,
            K::Worker,
            K::Vector,
            K::Seq,
            K::Bind,
            K::DeviceType,
            K::Nohost,
        ],
        D::Atomic => &[K::If],
        D::Cache => &[],
        D::Wait => &[K::Async, K::If],
        D::Init | D::Shutdown => &[K::DeviceType, K::DeviceNum, K::If],
        D::Set => &[K::DefaultAsync, K::DeviceNum, K::DeviceType, K::If],
        D::ParallelLoop | D::SerialLoop | D::KernelsLoop => &[],
    }
}

/// The clauses that may follow `device_type` on a directive that is not
/// combined.
pub(super) fn after_device_type(dir: DirectiveKind) -> &'static [ClauseKind] {
    match dir {
        D::Parallel | D::Kernels => &[
            K::Async,
            K::Wait,
            K::NumGangs,
            K::NumWorkers,
            K::VectorLength,
        ],
        D::Serial | D::Data | D::Update => &[K::Async, K::Wait],
        D::Loop => &[
            K::Collapse,
            K::Gang,
            K::Worker,
            K::Vector,
            K::Seq,
            K::Independent,
            K::Auto,
            K::Tile,
        ],
        D::Routine => &[K::Gang, K::Worker, K::Vector, K::Seq, K::Bind],
        _ => &[],
    }
}

/// The parts a directive's clause tables come from: itself, or for a
/// combined construct its compute part and `loop`.
pub(super) fn parts(dir: DirectiveKind) -> Vec<DirectiveKind> {
    match dir.compute_part() {
        Some(c) if dir.is_combined() => vec![c, D::Loop],
        _ => vec![dir],
    }
}

pub(super) fn is_allowed(dir: DirectiveKind, clause: ClauseKind) -> bool {
    parts(dir)
        .into_iter()
        .any(|p| allowed_clauses(p).contains(&clause))
}

pub(super) fn may_follow_device_type(dir: DirectiveKind, clause: ClauseKind) -> bool {
    parts(dir)
        .into_iter()
        .any(|p| after_device_type(p).contains(&clause))
}

/// `device_type` selects devices on `init`, `shutdown` and `set` instead of
/// opening a section of device-specific clauses.
pub(super) fn has_device_type_sections(dir: DirectiveKind) -> bool {
    !matches!(dir, D::Init | D::Shutdown | D::Set)
}

/// List clauses and `device_type` may repeat; every other clause may
/// appear once per `device_type` section.
pub(super) fn may_repeat(dir: DirectiveKind, clause: ClauseKind) -> bool {
    match clause {
        K::DeviceType => dir != D::Set,
        K::SelfClause => dir == D::Update,
        // Several `wait` clauses wait for all their queues (GCC and flang accept them;
        // OpenACC 3.3 2.16.3 limits no count).
        K::Reduction | K::Wait => true,
        _ => matches!(
            clause,
            K::Copy
                | K::Copyin
                | K::Copyout
                | K::Create
                | K::NoCreate
                | K::Present
                | K::Deviceptr
                | K::Attach
                | K::Detach
                | K::Delete
                | K::Private
                | K::Firstprivate
                | K::UseDevice
                | K::DeviceResident
                | K::Link
                | K::Host
                | K::Device
        ),
    }
}

pub(super) const LEVELS: [ClauseKind; 4] = [K::Gang, K::Worker, K::Vector, K::Seq];

/// The modifiers each clause accepts (3.3 gives `readonly` and `zero`;
/// `always`, `alwaysin`, `alwaysout` and `capture` follow the 3.4 tables).
pub(super) fn allowed_modifiers(clause: ClauseKind) -> &'static [DataModifier] {
    use DataModifier as M;
    match clause {
        K::Copy => &[M::Always, M::AlwaysIn, M::AlwaysOut, M::Capture],
        K::Copyin => &[M::Readonly, M::Always, M::AlwaysIn, M::Capture],
        K::Copyout => &[M::Zero, M::Always, M::AlwaysOut, M::Capture],
        K::Create => &[M::Zero, M::Capture],
        _ => &[],
    }
}
