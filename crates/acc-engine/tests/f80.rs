//! The prelude's `__acc_f80` (C's `long double` on the GPU) against the host's own x87
//! arithmetic: random operands of every kind (normal, denormal, near overflow, infinities,
//! NaNs, rounding ties, near cancellation), each operation's bits compared with the host's.
//! The type is plain C++ apart from `__device__`, so the host C++ compiler runs it; without
//! one the test skips, unless `ACC_REQUIRE_TOOLS` is set.

use std::path::PathBuf;
use std::process::Command;

const DRIVER: &str = r##"#include <cstdio>
#include <cstring>
#include <cstdint>
#include <cmath>
#include <random>
#define __device__
#include "f80.h"
static std::mt19937_64 rng(12345);
static long double native(const __acc_f80 &x) { long double d; memset(&d, 0, 16); memcpy(&d, &x, 10); return d; }
static __acc_f80 mine(long double d) { __acc_f80 x; memset(&x, 0, 16); memcpy(&x, &d, 10); return x; }
static bool same(long double a, const __acc_f80 &b) {
  long double c = native(b);
  if (std::isnan(a) || std::isnan(c)) return std::isnan(a) && std::isnan(c);
  return memcmp(&a, &c, 10) == 0;
}
static long double random_value() {
  unsigned long long r = rng();
  __acc_f80 x;
  memset(&x, 0, 16);
  switch (r % 10) {
  case 8: x.m = (rng() & ~0x7ffull) | 0x400 | 0x8000000000000000ull; x.se = (unsigned short)((rng() % 2) << 15 | (16383 + (int)(rng() % 40) - 20)); break; // double tie
  case 9: x.m = (rng() & ~0xffffffffffull) | 0x8000000000ull | 0x8000000000000000ull; x.se = (unsigned short)((rng() % 2) << 15 | (16383 + (int)(rng() % 40) - 20)); break; // float tie
  case 0: { double d; unsigned long long b = rng(); memcpy(&d, &b, 8); return d; }
  case 1: x.m = rng() | 0x8000000000000000ull; x.se = (unsigned short)((rng() % 2) << 15 | (16383 + (int)(rng() % 40) - 20)); break;
  case 2: x.m = rng() >> (rng() % 64); x.se = (unsigned short)((rng() % 2) << 15); break; // denormal
  case 3: x.m = rng() | 0x8000000000000000ull; x.se = (unsigned short)((rng() % 2) << 15 | (1 + rng() % 80)); break; // near min
  case 4: x.m = rng() | 0x8000000000000000ull; x.se = (unsigned short)((rng() % 2) << 15 | (0x7ffe - rng() % 80)); break; // near max
  case 5: { static const long double sp[] = {0.0L, -0.0L, INFINITY, -INFINITY, NAN, 1.0L, -1.0L, 0.5L, 3.0L, 1e-4950L}; return sp[rng() % 10]; }
  case 6: return (long double)(long long)rng() / (long double)(1 + rng() % 1000);
  default: x.m = rng() | 0x8000000000000000ull; x.se = (unsigned short)((rng() % 2) << 15 | (rng() % 0x7fff)); break;
  }
  if ((x.se & 0x7fff) == 0x7fff) x.se--; // keep finite here
  return native(x);
}
static long double mixed() {
  __acc_f80 x(2.5), y(4);
  __acc_f80 z = x + 1 - 0.5 * y / 2.0f + (x < 3 ? x : y);
  z += 1; z *= 2; z -= y; z /= 4; z++; --z;
  double d = z; int i = z; long long ll = -z; unsigned u = z;
  double dd = 1.5; dd += z; dd *= z; int ii = 7; ii -= z; ii /= z;
  bool b = (bool)z && !(z == 0) && z != 1 && 1 < z && z >= 2 && (double)z > 0;
  return native(z) + d + i + ll + u + b + dd + ii;
}
int main() {
  if (mixed() != (long double)0) { long double w = 2.5L + 1 - 0.5L * 4 / 2.0L + 2.5L; w += 1; w *= 2; w -= 4; w /= 4; 
    double wd = 1.5; wd += w; wd *= w; int wi = 7; wi -= w; wi /= w;
    long double want = w + (double)w + (int)w + (long long)-w + (unsigned)w + 1 + wd + wi; if (mixed() != want) { printf("mixed %Lg %Lg\n", mixed(), want); return 1; } }
  long fails = 0, n = 2000000;
  for (long i = 0; i < n && fails < 20; i++) {
    long double a = random_value(), b = random_value();
    // Make operands close sometimes, for cancellation.
    if (i % 7 == 0) b = a * (1 + (long double)(int)(rng() % 5 - 2) * 0x1p-60L);
    if (i % 11 == 0 && std::isfinite(a) && a != 0) { int e; frexpl(a, &e); b = ldexpl((long double)(int)(rng() % 7) - 3, e - 64 - (int)(rng() % 3)); }
    if (i % 13 == 0 && std::isfinite(a)) { b = a * 0x1p-64L * (rng() % 2 ? 1 : -1); }
    __acc_f80 x = mine(a), y = mine(b);
    volatile long double va = a, vb = b;
    long double s = va + vb, d = va - vb, p = va * vb, q = va / vb;
    const char *what = nullptr;
    __acc_f80 got;
    if (!same(s, got = __acc_f80::add(x, y, false))) what = "+";
    else if (!same(d, got = __acc_f80::add(x, y, true))) what = "-";
    else if (!same(p, got = __acc_f80::mul(x, y))) what = "*";
    else if (!same(q, got = __acc_f80::div(x, y))) what = "/";
    else if (!same(sqrtl(va), got = __acc_f80::root(x))) what = "sqrt";
    else if ((a < b) != (x < y) || (a == b) != (x == y) || (a > b) != (x > y) || (a <= b) != (x <= y) || (a != b) != (x != y)) what = "compare";
    else {
      double dn = (double)va, dm = (double)x; float fn = (float)va, fm = (float)x;
      if (memcmp(&dn, &dm, 8) && !(std::isnan(dn) && std::isnan(dm))) what = "to double";
      else if (memcmp(&fn, &fm, 4) && !(std::isnan(fn) && std::isnan(fm))) what = "to float";
      else {
        double dd; unsigned long long bits = rng(); memcpy(&dd, &bits, 8);
        if (!same((long double)dd, __acc_f80(dd))) what = "from double";
        long long ll = (long long)rng() >> (rng() % 64);
        if (!same((long double)ll, __acc_f80(ll))) what = "from long long";
        unsigned long long ull = rng();
        if (!same((long double)ull, __acc_f80(ull))) what = "from unsigned long long";
        if (std::fabs(a) < 9e18L && (long long)va != (long long)x) what = "to long long";
      }
    }
    if (what) {
      fails++;
      unsigned long long am, bm; unsigned short ae, be; memcpy(&am, &a, 8); memcpy(&ae, (char*)&a + 8, 2); memcpy(&bm, &b, 8); memcpy(&be, (char*)&b + 8, 2);
      printf("%s: a=%Lg [%04x %016llx] b=%Lg [%04x %016llx]\n", what, a, ae, am, b, be, bm);
    }
  }
  printf("%ld failures in %ld\n", fails, n);
  return fails != 0;
}
"##;

fn compiler() -> Option<String> {
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".into());
    let found = Command::new(&cxx)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found && std::env::var_os("ACC_REQUIRE_TOOLS").is_some() {
        panic!("a C++ compiler ({cxx}) is required (ACC_REQUIRE_TOOLS is set)");
    }
    found.then_some(cxx)
}

#[test]
fn long_double_on_the_gpu_rounds_as_the_host_does() {
    if !cfg!(all(target_arch = "x86_64", target_os = "linux")) {
        return; // the reference is the x87's 80-bit long double
    }
    let Some(cxx) = compiler() else {
        eprintln!("skipped: no C++ compiler");
        return;
    };
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("f80");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("f80.h"),
        format!("#include <cstring>\n{}", acc_engine::cuda::PRELUDE_F80),
    )
    .unwrap();
    std::fs::write(dir.join("test.cpp"), DRIVER).unwrap();
    let exe = dir.join("test");
    let out = Command::new(&cxx)
        .args(["-std=c++17", "-O2", "-o"])
        .arg(&exe)
        .arg(dir.join("test.cpp"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe).output().unwrap();
    let printed = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{printed}");
    assert!(printed.contains("0 failures in 2000000"), "{printed}");
}
