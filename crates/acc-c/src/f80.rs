//! `long double` constants as the GPU's `__acc_f80` needs them: the exact bits of x86-64's
//! 80-bit extended format that the host compiler gives a constant such as `0.1L` (rounded to
//! nearest, ties to even, 64-bit significand, gradual underflow), computed here because the
//! CUDA module cannot spell such a value any other way. Decimal and hexadecimal constants.
//!
//! Arbitrary precision with a few lines of base-2^32 arithmetic: a constant's digits can
//! number in the hundreds and its exponent in the thousands.

use std::cmp::Ordering;

/// A natural number, least significant 32-bit word first, no high zero words.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Big(Vec<u32>);

impl Big {
    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }
    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }
    fn bits(&self) -> usize {
        self.0.last().map_or(0, |&w| {
            32 * (self.0.len() - 1) + (32 - w.leading_zeros() as usize)
        })
    }
    fn bit(&self, i: usize) -> bool {
        self.0.get(i / 32).is_some_and(|w| w >> (i % 32) & 1 == 1)
    }
    fn mul_add(&mut self, m: u32, a: u32) {
        let mut carry = u64::from(a);
        for w in &mut self.0 {
            let v = u64::from(*w) * u64::from(m) + carry;
            *w = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
        self.trim();
    }
    fn shl(&self, n: usize) -> Big {
        let (words, bits) = (n / 32, n % 32);
        let mut out = vec![0u32; words];
        let mut carry = 0u32;
        for &w in &self.0 {
            out.push(if bits == 0 { w } else { w << bits | carry });
            carry = if bits == 0 { 0 } else { w >> (32 - bits) };
        }
        out.push(carry);
        let mut b = Big(out);
        b.trim();
        b
    }
    fn cmp(&self, o: &Big) -> Ordering {
        self.0
            .len()
            .cmp(&o.0.len())
            .then_with(|| self.0.iter().rev().cmp(o.0.iter().rev()))
    }
    /// `self -= o`, where `o <= self`.
    fn sub(&mut self, o: &Big) {
        let mut borrow = 0i64;
        for i in 0..self.0.len() {
            let v = i64::from(self.0[i]) - i64::from(o.0.get(i).copied().unwrap_or(0)) - borrow;
            self.0[i] = v.rem_euclid(1 << 32) as u32;
            borrow = i64::from(v < 0);
        }
        self.trim();
    }
    /// The bits `[from, from + 64)` as a number (bits below 0 are zero).
    fn window(&self, from: isize) -> u64 {
        (0..64)
            .filter(|&i| from + i >= 0 && self.bit((from + i) as usize))
            .fold(0u64, |acc, i| acc | 1 << i)
    }
    /// Whether any bit below `to` is set.
    fn any_below(&self, to: isize) -> bool {
        let to = to.max(0) as usize;
        let whole = (to / 32).min(self.0.len());
        self.0[..whole].iter().any(|&w| w != 0) || (whole * 32..to).any(|i| self.bit(i))
    }
}

/// The value `n * 2^e2` (n > 0) rounded to the format: (significand, sign-less exponent
/// field).
fn round(n: &Big, e2: i64) -> (u64, u16) {
    let len = n.bits() as i64;
    // The value is in [2^(len - 1 + e2), 2^(len + e2)); normal exponent field len - 1 + e2 + bias.
    let mut be = len - 1 + e2 + 16383;
    // The significand's lowest bit, as a bit position of n: 64 bits, or fewer for a denormal.
    let low = if be >= 1 {
        len - 64
    } else {
        let low = len - 64 + (1 - be);
        be = 0;
        low
    };
    let mut m = n.window(low as isize);
    let half = low >= 1 && n.bit((low - 1) as usize);
    let sticky = n.any_below(low as isize - 1);
    if half && (sticky || m & 1 == 1) {
        m = m.wrapping_add(1);
        if m == 0 {
            m = 1 << 63;
            be += 1;
        } else if be == 0 && m >> 63 == 1 {
            be = 1;
        }
    }
    if be >= 0x7fff {
        return (1 << 63, 0x7fff);
    }
    (m, be as u16)
}

/// A floating constant (no suffix, no sign) as the x87 format: (significand, exponent field).
/// `None` for text that is not a floating constant.
pub fn constant_bits(text: &str) -> Option<(u64, u16)> {
    let hex = text.starts_with("0x") || text.starts_with("0X");
    let (digits, radix, exp_char) = if hex {
        (&text[2..], 16u32, ['p', 'P'])
    } else {
        (text, 10, ['e', 'E'])
    };
    let (mantissa, exp) = match digits.find(exp_char) {
        Some(at) => (&digits[..at], digits[at + 1..].parse::<i64>().ok()?),
        None if hex => return None,
        None => (digits, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let mut n = Big(Vec::new());
    for c in int.chars().chain(frac.chars()) {
        n.mul_add(radix, c.to_digit(radix)?);
    }
    if n.is_zero() {
        return Some((0, 0));
    }
    if hex {
        return Some(round(&n, exp - 4 * frac.len() as i64));
    }
    let e10 = exp - frac.len() as i64;
    if e10.unsigned_abs() > 20_000 {
        // Far outside the format: infinity or zero.
        return Some(if e10 > 0 { (1 << 63, 0x7fff) } else { (0, 0) });
    }
    if e10 >= 0 {
        times_ten_to(&mut n, e10 as u64);
        return Some(round(&n, 0));
    }
    let mut pow = Big(vec![1]);
    times_ten_to(&mut pow, e10.unsigned_abs());
    // n / 10^k: a quotient of at least 66 bits, and whether a remainder is left.
    let shift = (66 + pow.bits() as i64 - n.bits() as i64).max(0) as usize;
    let mut rem = n.shl(shift);
    let qbits = rem.bits().saturating_sub(pow.bits()) + 1;
    let mut q = Big(Vec::new());
    for i in (0..qbits).rev() {
        let d = pow.shl(i);
        q = q.shl(1);
        if rem.cmp(&d) != Ordering::Less {
            rem.sub(&d);
            q.mul_add(1, 1);
        }
    }
    // A remainder is a set bit far below the quotient's last: enough for the rounding.
    let mut q = q.shl(2);
    if !rem.is_zero() {
        q.mul_add(1, 1);
    }
    Some(round(&q, -(shift as i64) - 2))
}

/// Whether the value of the format's bits `(m, se)` is also a `double` (zero, or finite with
/// no more significant bits than a `double`'s at its exponent, denormals included).
pub fn is_a_double(m: u64, se: u16) -> bool {
    let be = i32::from(se & 0x7fff);
    if m == 0 {
        return true;
    }
    if be == 0 || be == 0x7fff {
        return false; // far below a double's denormals; infinity or NaN
    }
    let e = be - 16383;
    if !(-1074..=1023).contains(&e) {
        return false;
    }
    // A double keeps 53 bits of the significand (fewer below its normal range).
    let dropped = 11 + (-1022 - e).max(0);
    m.trailing_zeros() as i32 >= dropped
}

/// `n *= 10^k`, nine digits at a time.
fn times_ten_to(n: &mut Big, k: u64) {
    for _ in 0..k / 9 {
        n.mul_add(1_000_000_000, 0);
    }
    for _ in 0..k % 9 {
        n.mul_add(10, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_round_as_the_host_compiler_does() {
        assert_eq!(constant_bits("1.0"), Some((1 << 63, 16383)));
        assert_eq!(constant_bits("0.5"), Some((1 << 63, 16382)));
        assert_eq!(constant_bits("3."), Some((3 << 62, 16384)));
        assert_eq!(constant_bits("0.0"), Some((0, 0)));
        assert_eq!(constant_bits("0x1.8p1"), Some((3 << 62, 16384)));
        // 0.1L = 0xcccccccccccccccd * 2^-67
        assert_eq!(constant_bits("0.1"), Some((0xcccc_cccc_cccc_cccd, 16379)));
        assert_eq!(constant_bits("1e5000"), Some((1 << 63, 0x7fff)));
        assert_eq!(constant_bits("1e-5000"), Some((0, 0)));
        assert_eq!(constant_bits("."), None);
        assert_eq!(constant_bits("0x1.8"), None);
    }

    /// Random constants of every size, near the ends of the range and in between, against
    /// the host C compiler's own `long double` (x86-64 only).
    #[test]
    fn random_constants_match_the_host_compiler() {
        if !cfg!(all(target_arch = "x86_64", target_os = "linux")) {
            return;
        }
        let found = std::process::Command::new("cc").arg("--version").output();
        if !found.is_ok_and(|o| o.status.success()) {
            assert!(
                std::env::var_os("ACC_REQUIRE_TOOLS").is_none(),
                "cc is required (ACC_REQUIRE_TOOLS is set)"
            );
            return;
        }
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let mut lits: Vec<String> = [
            "0.1",
            "1e-4951",
            "3.6451995318824746025e-4951",
            "1.8225997659412373012e-4951",
            "1.18973149535723176502e+4932",
            "1.18973149535723176508e+4932",
            "3.3621031431120935063e-4932",
            "3.3621031431120935062e-4932",
            "9007199254740993.",
            "18446744073709551615.",
            "18446744073709551617.",
            "0x1.fffffffffffffffep16383",
            "0x1.ffffffffffffffffp16383",
            "0x1p-16445",
            "0x1p-16446",
            "0x3p-16447",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for _ in 0..1500 {
            let digits: String = (0..1 + next(45))
                .map(|_| char::from(b'0' + next(10) as u8))
                .collect();
            let point = next(digits.len() as u64 + 1) as usize;
            let exp = match next(4) {
                0 => next(60) as i64 - 30,
                1 => -4960 + next(40) as i64,
                2 => 4900 + next(40) as i64,
                _ => next(9800) as i64 - 4900,
            };
            lits.push(format!("{}.{}e{exp}", &digits[..point], &digits[point..]));
            let hex: String = (0..1 + next(20))
                .map(|_| char::from_digit(next(16) as u32, 16).unwrap())
                .collect();
            lits.push(format!("0x{hex}.p{}", next(33000) as i64 - 16500));
        }
        let dir = std::env::temp_dir().join(format!("acc-f80-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let list: Vec<String> = lits.iter().map(|l| format!("{l}L")).collect();
        let c = format!(
            "#include <stdio.h>\n#include <string.h>\nstatic const long double v[] = {{{}}};\n\
             int main(void) {{ for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++) {{ \
             unsigned long long m; unsigned short e; memcpy(&m, &v[i], 8); memcpy(&e, (char *)&v[i] + 8, 2); \
             printf(\"%llx %x\\n\", m, e); }} return 0; }}\n",
            list.join(",\n")
        );
        std::fs::write(dir.join("lits.c"), c).unwrap();
        let out = std::process::Command::new("cc")
            .args(["-w", "-o"])
            .arg(dir.join("lits"))
            .arg(dir.join("lits.c"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let run = std::process::Command::new(dir.join("lits"))
            .output()
            .unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        let printed = String::from_utf8_lossy(&run.stdout);
        let mut failures = Vec::new();
        for (lit, line) in lits.iter().zip(printed.lines()) {
            let (m, e) = line.split_once(' ').unwrap();
            let want = (
                u64::from_str_radix(m, 16).unwrap(),
                u16::from_str_radix(e, 16).unwrap(),
            );
            if constant_bits(lit) != Some(want) {
                failures.push(format!(
                    "{lit}: {:x?}, the host {want:x?}",
                    constant_bits(lit)
                ));
            }
        }
        assert_eq!(printed.lines().count(), lits.len());
        assert!(
            failures.is_empty(),
            "{}",
            failures[..failures.len().min(10)].join("\n")
        );
    }
}
