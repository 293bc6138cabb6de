//! Profiling regions of Rust compute functions: a [`Region`] raises the compute construct's
//! enter events when a function starts and the exit events when it ends (its [`RegionExit`]),
//! naming the function's lines.
//!
//! Nothing but one atomic load unless a profiling tool listens; it touches no present table.

use super::{current, Loc};
use crate::prof;
use crate::queue::QueueSel;
use crate::runtime::DeviceState;

/// The profiling events of an `#[acc::parallel]`/`kernels`/`serial`/`data` function's region:
/// made before its data clauses' guards (the construct's start and its data's entry start),
/// told when they are in place ([`Region::entered`]: entry end), and dropped after them (exit
/// end and the construct's end); [`RegionExit`], made after the guards, is dropped before
/// them (exit start). Nothing but one atomic load unless a profiling tool listens.
pub struct Region {
    loc: Loc,
    construct: prof::Construct,
    device: Option<&'static DeviceState>,
}

/// The start of a [`Region`]'s exit, when dropped.
pub struct RegionExit {
    loc: Loc,
    construct: prof::Construct,
    device: Option<&'static DeviceState>,
}

impl Region {
    /// `construct`: `acc_construct_t` of the function's directive; `function`: its name and
    /// its first and last lines.
    pub fn enter(loc: Loc, construct: u8, function: &'static str, lines: (u32, u32)) -> Region {
        let construct = match construct {
            1 => prof::Construct::Kernels,
            3 => prof::Construct::Data,
            16 => prof::Construct::Serial,
            _ => prof::Construct::Parallel,
        };
        let device = prof::active().then(|| current(&loc.site("")));
        if device.is_some() {
            prof::register_rust_site(loc.file, loc.line, construct, function, lines);
        }
        let region = Region {
            loc,
            construct,
            device,
        };
        region.raise(&[
            prof::Event::ComputeConstructStart,
            prof::Event::EnterDataStart,
        ]);
        region
    }

    /// The data clauses' guards are in place.
    pub fn entered(&self) -> RegionExit {
        self.raise(&[prof::Event::EnterDataEnd]);
        RegionExit {
            loc: self.loc,
            construct: self.construct,
            device: self.device,
        }
    }

    fn raise(&self, events: &[prof::Event]) {
        raise_region_events(self.loc, self.construct, self.device, events)
    }
}

/// Raises a Rust region's `events` (the construct's own only for a compute construct), when
/// a tool listened as it started (`device`).
fn raise_region_events(
    loc: Loc,
    construct: prof::Construct,
    device: Option<&'static DeviceState>,
    events: &[prof::Event],
) {
    let Some(d) = device else { return };
    let site = loc.site("");
    let at = d.prof_origin(QueueSel::Sync, &site);
    for &ev in events {
        let own = matches!(
            ev,
            prof::Event::ComputeConstructStart | prof::Event::ComputeConstructEnd
        );
        if !own || construct.is_compute() {
            prof::other(ev, &at, Some(construct));
        }
    }
}

impl Drop for RegionExit {
    fn drop(&mut self) {
        let exit = [prof::Event::ExitDataStart];
        raise_region_events(self.loc, self.construct, self.device, &exit);
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        self.raise(&[prof::Event::ExitDataEnd, prof::Event::ComputeConstructEnd]);
    }
}
