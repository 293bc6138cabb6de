//! Source files as text, whatever their bytes: a C compiler takes any bytes in comments, string
//! and character literals (a Latin-1 `é` in a comment, Windows-1252 quotes), and so must acc.
//!
//! The rest of acc-c works on `&str`, so a file that is not UTF-8 is decoded with each byte of
//! an invalid sequence mapped to one character of its own at the top of plane 16
//! (U+10FF80 + (byte − 0x80), code points no real source uses), and every output is encoded back
//! with those characters turned into their bytes again: what acc copies from the file comes out
//! byte for byte, and the lowering's spans and a diagnostic's columns count such a byte as one
//! character, as an editor showing the file in Latin-1 does.
//!
//! Must not: change a byte of a file that is UTF-8 already (it is decoded as it stands).

use std::borrow::Cow;

/// The first character standing for a raw byte (0x80).
const BASE: u32 = 0x10FF80;

/// The character standing for raw byte `b` (0x80..=0xFF).
fn stand_in(b: u8) -> char {
    char::from_u32(BASE + u32::from(b - 0x80)).expect("plane 16 code points are characters")
}

/// The raw byte that `c` stands for, if it is one of the stand-ins.
pub fn raw_byte(c: char) -> Option<u8> {
    let v = c as u32;
    (BASE..BASE + 0x80)
        .contains(&v)
        .then(|| (v - BASE) as u8 + 0x80)
}

/// `bytes` as text: unchanged when they are UTF-8, else with each byte that is not part of a
/// valid UTF-8 sequence as its stand-in.
pub fn decode(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => {
            let bytes = e.into_bytes();
            let mut out = String::with_capacity(bytes.len() + bytes.len() / 4);
            for chunk in bytes.utf8_chunks() {
                out.push_str(chunk.valid());
                for &b in chunk.invalid() {
                    out.push(stand_in(b));
                }
            }
            out
        }
    }
}

/// The bytes of `s` with every stand-in turned back into its raw byte (borrowed when there is
/// none, which is every file that was UTF-8).
pub fn encode(s: &str) -> Cow<'_, [u8]> {
    if !s.chars().any(|c| raw_byte(c).is_some()) {
        return Cow::Borrowed(s.as_bytes());
    }
    let mut out = Vec::with_capacity(s.len());
    let mut buf = [0u8; 4];
    for c in s.chars() {
        match raw_byte(c) {
            Some(b) => out.push(b),
            None => out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes()),
        }
    }
    Cow::Owned(out)
}

/// What [`prepare`] took out of a file's text, for [`restore`] to put back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// The file started with a UTF-8 byte order mark.
    pub bom: bool,
    /// The file ended its lines with a carriage return alone (old Mac OS), and no line with a
    /// newline.
    pub cr_lines: bool,
}

/// The text acc analyses: without a byte order mark (a compiler skips it at the start of a
/// file only, and acc's output does not start with the user's text), and with a carriage
/// return that ends a line alone made a newline, as the C preprocessor reads it (a directive
/// ends there; tree-sitter would read on). Both keep every other offset of the text.
pub fn prepare(text: String) -> (String, Layout) {
    let (text, bom) = match text.strip_prefix('\u{feff}') {
        Some(rest) => (rest.to_string(), true),
        None => (text, false),
    };
    let lone = |b: &[u8], i: usize| b[i] == b'\r' && b.get(i + 1) != Some(&b'\n');
    let bytes = text.as_bytes();
    if !(0..bytes.len()).any(|i| lone(bytes, i)) {
        return (
            text,
            Layout {
                bom,
                cr_lines: false,
            },
        );
    }
    let cr_lines = !bytes.contains(&b'\n');
    let mut out = text.into_bytes();
    for i in 0..out.len() {
        if lone(&out, i) {
            out[i] = b'\n';
        }
    }
    let text = String::from_utf8(out).expect("an ASCII byte for another keeps UTF-8");
    (text, Layout { bom, cr_lines })
}

/// Printed text in the file's own layout again: its byte order mark, and carriage returns for
/// line ends where the file used them alone.
pub fn restore(text: &str, layout: Layout) -> String {
    let mut out = String::with_capacity(text.len() + 3);
    if layout.bom {
        out.push('\u{feff}');
    }
    if layout.cr_lines {
        out.extend(text.chars().map(|c| if c == '\n' { '\r' } else { c }));
    } else {
        out.push_str(text);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_is_unchanged_and_other_bytes_survive_the_round_trip() {
        let utf8 = "/* café */ int x;\r\n".as_bytes().to_vec();
        assert_eq!(decode(utf8.clone()).as_bytes(), utf8.as_slice());
        let latin1 =
            b"/* caf\xe9 \x93quoted\x94 */\r\nint x; /* \xff\x80 */ char *s = \"\xe9\";\n".to_vec();
        let text = decode(latin1.clone());
        assert!(text.contains("int x;"));
        assert_eq!(encode(&text).as_ref(), latin1.as_slice());
        // One character per raw byte, so columns count it as one.
        assert_eq!(text.chars().filter(|&c| raw_byte(c).is_some()).count(), 6);
    }

    #[test]
    fn a_bom_and_lone_carriage_returns_are_prepared_away_and_restored() {
        let (t, l) = prepare("\u{feff}#pragma acc parallel\r{ }\r".to_string());
        assert_eq!(t, "#pragma acc parallel\n{ }\n");
        assert_eq!(
            l,
            Layout {
                bom: true,
                cr_lines: true
            }
        );
        assert_eq!(restore(&t, l), "\u{feff}#pragma acc parallel\r{ }\r");
        let crlf = "a\r\nb\r\n".to_string();
        assert_eq!(prepare(crlf.clone()), (crlf, Layout::default()));
        let (t, l) = prepare("a\rb\r\nc".to_string());
        assert_eq!((t.as_str(), l.cr_lines), ("a\nb\r\nc", false));
    }

    #[test]
    fn a_truncated_utf8_sequence_is_raw_bytes() {
        let bytes = b"a\xc3 b\xe2\x82".to_vec();
        assert_eq!(encode(&decode(bytes.clone())).as_ref(), bytes.as_slice());
    }
}
