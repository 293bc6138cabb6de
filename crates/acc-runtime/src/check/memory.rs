//! Which host memory the process can read and write now, from `/proc/self/maps` (Linux): the
//! checking mode reads the host copy of every present range at every event, and a buggy
//! program may have freed (and the allocator unmapped) data it never unmapped from the device.
//! Such a range is skipped instead of read. Where there is no `/proc/self/maps`, every range
//! counts as accessible.
//!
//! Owns only that reading; it knows nothing of entries or devices.

/// Address ranges `[start, end)`, sorted and merged.
type Ranges = Vec<(usize, usize)>;

/// The readable and the writable address ranges.
pub struct Access {
    ranges: Option<(Ranges, Ranges)>,
}

impl Access {
    /// The process's mappings as they are now.
    pub fn now() -> Access {
        Access {
            ranges: std::fs::read_to_string("/proc/self/maps")
                .ok()
                .map(|m| parse(&m)),
        }
    }

    /// Whether `[at, at + bytes)` can be read.
    pub fn readable(&self, at: usize, bytes: usize) -> bool {
        self.ranges
            .as_ref()
            .is_none_or(|(r, _)| covers(r, at, bytes))
    }

    /// Whether `[at, at + bytes)` can be written.
    pub fn writable(&self, at: usize, bytes: usize) -> bool {
        self.ranges
            .as_ref()
            .is_none_or(|(_, w)| covers(w, at, bytes))
    }
}

/// The readable and writable ranges of a `/proc/self/maps` text (`start-end perms …` lines).
fn parse(maps: &str) -> (Ranges, Ranges) {
    let mut read = Vec::new();
    let mut write = Vec::new();
    for line in maps.lines() {
        let mut f = line.split_whitespace();
        let (Some(range), Some(perms)) = (f.next(), f.next()) else {
            continue;
        };
        let Some((a, b)) = range.split_once('-') else {
            continue;
        };
        let (Ok(a), Ok(b)) = (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16)) else {
            continue;
        };
        if perms.starts_with('r') {
            read.push((a, b));
        }
        if perms.as_bytes().get(1) == Some(&b'w') {
            write.push((a, b));
        }
    }
    (merge(read), merge(write))
}

fn merge(mut v: Ranges) -> Ranges {
    v.sort_unstable();
    let mut out: Ranges = Vec::with_capacity(v.len());
    for (a, b) in v {
        match out.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
}

/// Whether one merged range holds `[at, at + bytes)`.
fn covers(ranges: &[(usize, usize)], at: usize, bytes: usize) -> bool {
    let end = at.saturating_add(bytes.max(1));
    let i = ranges.partition_point(|&(_, b)| b <= at);
    ranges.get(i).is_some_and(|&(a, b)| a <= at && end <= b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_lines_give_merged_ranges() {
        let maps = "1000-2000 r--p 00000000 00:00 0\n2000-3000 rw-p 00000000 00:00 0 [heap]\n\
                    5000-6000 ---p 00000000 00:00 0\nnonsense\n7000-8000 -w-p 0 0:0 0\n";
        let (r, w) = parse(maps);
        assert_eq!(r, vec![(0x1000, 0x3000)]);
        assert_eq!(w, vec![(0x2000, 0x3000), (0x7000, 0x8000)]);
        assert!(covers(&r, 0x1800, 0x1000));
        assert!(!covers(&r, 0x2800, 0x1000));
        assert!(!covers(&r, 0x5000, 8));
        assert!(!covers(&r, 0, 8));
    }

    #[test]
    fn this_process_can_read_its_own_stack() {
        let x = [7u8; 64];
        let a = Access::now();
        assert!(a.readable(x.as_ptr() as usize, x.len()));
        assert!(!a.readable(8, 8), "page zero is never mapped");
    }
}
