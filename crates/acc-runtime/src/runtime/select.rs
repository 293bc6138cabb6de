//! Device selection: the devices of the process (`host`, `host_discrete` from
//! `ACC_HOST_DISCRETE_DEVICES`, `nvidia` probed once), the default device from
//! `ACC_DEVICE_TYPE`/`ACC_DEVICE_NUM`, and each thread's current device.
//!
//! Invariants: the [`Runtime`] and the `nvidia` devices are made once and live for the
//! process, so a `&'static DeviceState` may be kept anywhere; the current device is
//! per-thread and starts as the default. Nothing here touches a present table.

use super::DeviceState;
use crate::device::host::HostDevice;
use crate::device::host_discrete::HostDiscreteDevice;
use crate::device::{Device, DeviceKind};
use crate::error::{Error, ErrorKind, Result, Site};
use crate::prof;
use std::cell::Cell;
use std::sync::OnceLock;

/// Every device of the process.
pub struct Runtime {
    pub host: DeviceState,
    pub discrete: Vec<DeviceState>,
    /// The device `ACC_DEVICE_TYPE`/`ACC_DEVICE_NUM` select (host when unset).
    pub default_kind: DeviceKind,
    pub default_num: usize,
}

static RUNTIME: OnceLock<Result<Runtime>> = OnceLock::new();

thread_local! {
    /// This thread's current device (OpenACC's per-thread current device ICVs), once set.
    static CURRENT: Cell<Option<&'static DeviceState>> = const { Cell::new(None) };
}

/// The process's runtime, created on first use from the environment.
pub fn runtime() -> Result<&'static Runtime> {
    if let Some(rt) = RUNTIME.get() {
        return rt.as_ref().map_err(Clone::clone);
    }
    // Before the runtime starts, so that the libraries see its device initialisation; a
    // library that calls the API while it registers starts the runtime from here.
    prof::load_env_libraries();
    RUNTIME
        .get_or_init(|| {
            let rt = Runtime::from_env();
            if let Ok(rt) = &rt {
                prof::register_at_exit(rt.default_kind, rt.default_num);
            }
            rt
        })
        .as_ref()
        .map_err(Clone::clone)
}

type Gpus = std::result::Result<Vec<DeviceState>, String>;

static NVIDIA: OnceLock<Gpus> = OnceLock::new();

/// The `nvidia` devices of this process (one per GPU), or why there are none: probed on first
/// use (`cuInit`, device count and properties; contexts are created when a device is first
/// used).
pub fn nvidia() -> &'static Gpus {
    NVIDIA.get_or_init(|| {
        // A missing GPU is reported where it matters: the default device, `not_host`.
        let found = crate::device::cuda::probe();
        for g in found.iter().flatten() {
            crate::error::verbose(&format!(
                "device nvidia {}: {}",
                g.number(),
                g.properties().description
            ))
        }
        found.map(|gpus| {
            gpus.into_iter()
                .map(|g| DeviceState::new(Box::new(g)))
                .collect()
        })
    })
}

/// Why this process has no `nvidia` device, or `None` when it has one.
pub fn nvidia_unavailable() -> Option<&'static str> {
    match nvidia() {
        Ok(v) if !v.is_empty() => None,
        Ok(_) => Some("the NVIDIA driver reports no CUDA device"),
        Err(why) => Some(why),
    }
}

/// The kind `acc_device_not_host` means: the GPU when there is one, else `host_discrete`.
pub fn not_host_kind() -> DeviceKind {
    if nvidia_unavailable().is_none() {
        DeviceKind::Nvidia
    } else {
        DeviceKind::HostDiscrete
    }
}

/// Parses a device type as `ACC_DEVICE_TYPE` spells it.
pub fn parse_device_type(s: &str, site: &Site<'_>) -> Result<DeviceKind> {
    match s.trim().to_ascii_lowercase().replace('-', "_").as_str() {
        // nvc's `multicore` is its host target, the host's cores: acc's `host`.
        "host" | "multicore" => Ok(DeviceKind::Host),
        "host_discrete" => Ok(DeviceKind::HostDiscrete),
        "nvidia" => Ok(DeviceKind::Nvidia),
        "not_host" => {
            let kind = not_host_kind();
            if let Some(why) = nvidia_unavailable() {
                crate::error::verbose(&format!(
                    "not_host is host_discrete (no nvidia device: {why})"
                ));
            }
            Ok(kind)
        }
        other => Err(Error::new(
            ErrorKind::NoDevice,
            site,
            format!(
                "ACC_DEVICE_TYPE={other}: unknown device type; use host, host_discrete or nvidia"
            ),
        )),
    }
}

/// The error for using the `nvidia` device in a process that has none.
pub fn no_nvidia(site: &Site<'_>) -> Error {
    Error::new(
        ErrorKind::NoDevice,
        site,
        format!(
            "no nvidia (CUDA) device is available: {}; use ACC_DEVICE_TYPE=host or host_discrete",
            nvidia_unavailable().unwrap_or("none was found")
        ),
    )
}

impl Runtime {
    fn from_env() -> Result<Runtime> {
        let site = Site::routine("acc runtime start-up");
        let default_kind = match std::env::var("ACC_DEVICE_TYPE") {
            Ok(s) if !s.trim().is_empty() => {
                let kind = parse_device_type(&s, &site)?;
                if kind == DeviceKind::Nvidia && nvidia_unavailable().is_some() {
                    let e = no_nvidia(&site);
                    return Err(Error::new(
                        ErrorKind::NoDevice,
                        &site,
                        format!("ACC_DEVICE_TYPE={}: {}", s.trim(), e.message()),
                    ));
                }
                kind
            }
            // The GPU when there is one, else the host.
            _ => match nvidia_unavailable() {
                None => DeviceKind::Nvidia,
                Some(why) => {
                    crate::error::verbose(&format!(
                        "default device: host (no nvidia device: {why})"
                    ));
                    DeviceKind::Host
                }
            },
        };
        let discrete_count = match std::env::var("ACC_HOST_DISCRETE_DEVICES") {
            Ok(s) => s
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|&n| (1..=64).contains(&n))
                .ok_or_else(|| {
                    Error::new(
                        ErrorKind::InvalidArgument,
                        &site,
                        format!("ACC_HOST_DISCRETE_DEVICES={s}: expected a count from 1 to 64"),
                    )
                })?,
            Err(_) => 1,
        };
        // The devices of the CPU are ready as they are made; a GPU's context is made on first
        // use, after the probe that chose the default device.
        prof::device_event(
            prof::Event::DeviceInitStart,
            default_kind,
            0,
            "acc runtime start-up",
        );
        let rt = Runtime::new(discrete_count, default_kind, 0);
        prof::device_event(
            prof::Event::DeviceInitEnd,
            default_kind,
            0,
            "acc runtime start-up",
        );
        let default_num = match std::env::var("ACC_DEVICE_NUM") {
            Ok(s) if !s.trim().is_empty() => {
                let n = s.trim().parse::<usize>().ok();
                match n {
                    Some(n) if n < rt.count(default_kind) => n,
                    _ => {
                        return Err(Error::new(
                            ErrorKind::NoDevice,
                            &site,
                            format!(
                            "ACC_DEVICE_NUM={s}: device type {} has {} device(s), numbered from 0",
                            default_kind.name(),
                            rt.count(default_kind)
                        ),
                        ))
                    }
                }
            }
            _ => 0,
        };
        Ok(Runtime { default_num, ..rt })
    }

    pub fn new(discrete_count: usize, default_kind: DeviceKind, default_num: usize) -> Runtime {
        Runtime {
            host: DeviceState::new(Box::new(HostDevice::new())),
            discrete: (0..discrete_count)
                .map(|i| DeviceState::new(Box::new(HostDiscreteDevice::new(i))))
                .collect(),
            default_kind,
            default_num,
        }
    }

    /// How many devices of `kind` there are.
    pub fn count(&self, kind: DeviceKind) -> usize {
        match kind {
            DeviceKind::Host => 1,
            DeviceKind::HostDiscrete => self.discrete.len(),
            DeviceKind::Nvidia => nvidia().as_ref().map_or(0, Vec::len),
        }
    }

    pub fn device(&self, kind: DeviceKind, num: usize, site: &Site<'_>) -> Result<&DeviceState> {
        let found = match kind {
            DeviceKind::Host => (num == 0).then_some(&self.host),
            DeviceKind::HostDiscrete => self.discrete.get(num),
            DeviceKind::Nvidia => match nvidia() {
                Ok(v) if !v.is_empty() => v.get(num),
                _ => return Err(no_nvidia(site)),
            },
        };
        found.ok_or_else(|| {
            Error::new(
                ErrorKind::NoDevice,
                site,
                format!(
                    "there is no {} device {num}; this process has {} of them, numbered from 0",
                    kind.name(),
                    self.count(kind)
                ),
            )
        })
    }

    /// Every device of the process (the `nvidia` ones only once they have been probed).
    pub fn all(&self) -> impl Iterator<Item = &DeviceState> {
        let gpus: &[DeviceState] = NVIDIA.get().and_then(|r| r.as_deref().ok()).unwrap_or(&[]);
        std::iter::once(&self.host)
            .chain(self.discrete.iter())
            .chain(gpus.iter())
    }
}

/// The calling thread's current device.
pub fn current(site: &Site<'_>) -> Result<&'static DeviceState> {
    if let Some(d) = CURRENT.with(Cell::get) {
        return Ok(d);
    }
    let rt = runtime()?;
    let d = rt.device(rt.default_kind, rt.default_num, site)?;
    CURRENT.with(|c| c.set(Some(d)));
    Ok(d)
}

/// Whether the calling thread has used a device already (the runtime has started).
pub fn thread_has_device() -> bool {
    CURRENT.with(Cell::get).is_some()
}

/// Makes device `num` of `kind` the calling thread's current device.
pub fn set_current(kind: DeviceKind, num: usize, site: &Site<'_>) -> Result<()> {
    let d = runtime()?.device(kind, num, site)?;
    CURRENT.with(|c| c.set(Some(d)));
    Ok(())
}

#[cfg(test)]
mod device_type_tests {
    use super::*;

    /// `ACC_DEVICE_TYPE` in any case, with `-` for `_`, and nvc's `multicore` (its name for
    /// the host's cores); an unknown name is an error.
    #[test]
    fn device_types_are_spelt_as_compilers_spell_them() {
        let site = Site::default();
        let kind = |s: &str| parse_device_type(s, &site).ok();
        assert_eq!(kind("HOST"), Some(DeviceKind::Host));
        assert_eq!(kind("multicore"), Some(DeviceKind::Host));
        assert_eq!(kind("host-discrete"), Some(DeviceKind::HostDiscrete));
        assert_eq!(kind("nvidia"), Some(DeviceKind::Nvidia));
        assert_eq!(kind("radeon"), None);
    }
}
