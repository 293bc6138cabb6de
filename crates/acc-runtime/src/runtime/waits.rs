//! Async arguments and waits: this thread's default async queue (`acc_set_default_async`),
//! resolving an async argument to a queue, `wait`, `wait_all` and `async_test` on a device.
//!
//! Nothing here touches a present table; waits raise the profiling wait events.

use super::DeviceState;
use crate::error::{Error, ErrorKind, Result, Site};
use crate::prof;
use crate::queue::{QueueSel, NOVAL_QUEUE};
use std::cell::Cell;

thread_local! {
    /// This thread's default async queue (acc-default-async-var).
    static DEFAULT_ASYNC: Cell<i32> = const { Cell::new(NOVAL_QUEUE) };
}

/// `acc_async_noval` and `acc_async_sync` (the values `openacc.h` gives them).
pub const ASYNC_NOVAL: i32 = -1;
pub const ASYNC_SYNC: i32 = -2;

pub fn default_async() -> i32 {
    DEFAULT_ASYNC.with(Cell::get)
}

/// Sets this thread's default async queue; `acc_async_noval` restores the initial one.
pub fn set_default_async(v: i32, site: &Site<'_>) -> Result<()> {
    let q = match v {
        ASYNC_NOVAL => NOVAL_QUEUE,
        v if v >= 0 => v,
        _ => return Err(bad_async(v, site)),
    };
    DEFAULT_ASYNC.with(|c| c.set(q));
    Ok(())
}

fn bad_async(v: i32, site: &Site<'_>) -> Error {
    Error::new(
        ErrorKind::InvalidArgument,
        site,
        format!(
            "{v} is not an async value: use a queue number >= 0, acc_async_noval or acc_async_sync"
        ),
    )
}

/// Resolves an async argument to where the work runs.
pub fn queue_sel(async_arg: i32, site: &Site<'_>) -> Result<QueueSel> {
    match async_arg {
        ASYNC_SYNC => Ok(QueueSel::Sync),
        ASYNC_NOVAL => Ok(QueueSel::Async(default_async())),
        v if v >= 0 => Ok(QueueSel::Async(v)),
        v => Err(bad_async(v, site)),
    }
}

impl DeviceState {
    /// `acc_wait(_async)` and the wait directive for one async argument.
    pub fn wait(&self, wait_arg: i32, async_arg: Option<i32>, site: &Site<'_>) -> Result<()> {
        let QueueSel::Async(key) = queue_sel(wait_arg, site)? else {
            return Ok(());
        };
        if !prof::active() {
            return self.wait_on(key, async_arg, site);
        }
        let at = self.prof_origin(QueueSel::Async(key), site);
        prof::other(prof::Event::WaitStart, &at, None);
        let done = self.wait_on(key, async_arg, site);
        prof::other(prof::Event::WaitEnd, &at, None);
        done
    }

    pub(super) fn wait_on(&self, key: i32, async_arg: Option<i32>, site: &Site<'_>) -> Result<()> {
        match async_arg.map(|a| queue_sel(a, site)).transpose()? {
            None | Some(QueueSel::Sync) => self.queues.wait(key),
            Some(QueueSel::Async(on)) => self.queues.wait_async(key, on),
        }
        Ok(())
    }

    pub fn wait_all(&self, async_arg: Option<i32>, site: &Site<'_>) -> Result<()> {
        let on = async_arg.map(|a| queue_sel(a, site)).transpose()?;
        let at = self.prof_origin(QueueSel::Sync, site);
        prof::other(prof::Event::WaitStart, &at, None);
        match on {
            None | Some(QueueSel::Sync) => self.queues.wait_all(),
            Some(QueueSel::Async(on)) => self.queues.wait_all_async(on),
        }
        prof::other(prof::Event::WaitEnd, &at, None);
        Ok(())
    }

    pub fn async_test(&self, wait_arg: i32, site: &Site<'_>) -> Result<bool> {
        Ok(match queue_sel(wait_arg, site)? {
            QueueSel::Sync => true,
            QueueSel::Async(k) => self.queues.test(k),
        })
    }
}
