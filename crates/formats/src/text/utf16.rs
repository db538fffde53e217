//! UTF-16 input, recognised by its byte-order mark and read as UTF-8.

use std::io::{self, Read};

/// The encoding a byte-order mark at the start of `head` names, if it is UTF-16.
pub fn utf16_bom(head: &[u8]) -> Option<Utf16> {
    match head {
        [0xFF, 0xFE, ..] => Some(Utf16::Le),
        [0xFE, 0xFF, ..] => Some(Utf16::Be),
        _ => None,
    }
}

/// A byte order of UTF-16.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Utf16 {
    /// Little-endian (`FF FE`), what Windows writes.
    Le,
    /// Big-endian (`FE FF`).
    Be,
}

impl Utf16 {
    /// The encoding's name.
    pub const fn name(self) -> &'static str {
        match self {
            Utf16::Le => "UTF-16LE",
            Utf16::Be => "UTF-16BE",
        }
    }
}

/// Reads UTF-16 (its byte-order mark first) as UTF-8, streaming; unpaired surrogates
/// become U+FFFD. Offsets in what it gives are offsets in the UTF-8 text.
///
/// ```
/// use std::io::Read;
/// use reversi_formats::text::{Utf16, Utf16Reader};
/// let bytes: Vec<u8> = [0xFF, 0xFE].into_iter()
///     .chain("f5d6é".encode_utf16().flat_map(u16::to_le_bytes))
///     .collect();
/// let mut text = String::new();
/// Utf16Reader::new(&bytes[..], Utf16::Le).read_to_string(&mut text).unwrap();
/// assert_eq!(text, "f5d6é");
/// ```
#[derive(Debug)]
pub struct Utf16Reader<R> {
    input: R,
    order: Utf16,
    bom_skipped: bool,
    /// A byte read without its pair.
    odd: Option<u8>,
    /// A high surrogate waiting for its low half.
    high: Option<u16>,
    /// UTF-8 bytes decoded but not yet handed out.
    pending: Vec<u8>,
    at: usize,
    raw: Vec<u8>,
    done: bool,
}

impl<R: Read> Utf16Reader<R> {
    /// UTF-8 from `input`, which starts with a byte-order mark of `order`.
    pub fn new(input: R, order: Utf16) -> Utf16Reader<R> {
        Utf16Reader {
            input,
            order,
            bom_skipped: false,
            odd: None,
            high: None,
            pending: Vec::new(),
            at: 0,
            raw: vec![0; 16 * 1024],
            done: false,
        }
    }

    fn unit(&self, pair: [u8; 2]) -> u16 {
        match self.order {
            Utf16::Le => u16::from_le_bytes(pair),
            Utf16::Be => u16::from_be_bytes(pair),
        }
    }

    fn push_char(&mut self, c: char) {
        let mut buf = [0; 4];
        self.pending
            .extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }

    fn push_unit(&mut self, unit: u16) {
        if !self.bom_skipped {
            self.bom_skipped = true;
            if unit == 0xFEFF {
                return;
            }
        }
        if let Some(high) = self.high.take() {
            if (0xDC00..0xE000).contains(&unit) {
                let c = 0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(unit) - 0xDC00);
                self.push_char(char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER));
                return;
            }
            self.push_char(char::REPLACEMENT_CHARACTER);
        }
        match unit {
            0xD800..=0xDBFF => self.high = Some(unit),
            0xDC00..=0xDFFF => self.push_char(char::REPLACEMENT_CHARACTER),
            _ => self
                .push_char(char::from_u32(u32::from(unit)).unwrap_or(char::REPLACEMENT_CHARACTER)),
        }
    }

    /// Decodes the next block of input into `pending`; false at the end.
    fn refill(&mut self) -> io::Result<bool> {
        self.pending.clear();
        self.at = 0;
        while self.pending.is_empty() {
            if self.done {
                return Ok(false);
            }
            let n = match self.input.read(&mut self.raw) {
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if n == 0 {
                self.done = true;
                if self.high.take().is_some() || self.odd.take().is_some() {
                    self.push_char(char::REPLACEMENT_CHARACTER);
                }
                continue;
            }
            let raw = std::mem::take(&mut self.raw);
            let mut bytes = &raw[..n];
            if let Some(first) = self.odd.take() {
                let unit = self.unit([first, bytes[0]]);
                self.push_unit(unit);
                bytes = &bytes[1..];
            }
            let mut pairs = bytes.chunks_exact(2);
            for pair in pairs.by_ref() {
                let unit = self.unit([pair[0], pair[1]]);
                self.push_unit(unit);
            }
            self.odd = pairs.remainder().first().copied();
            self.raw = raw;
        }
        Ok(true)
    }
}

impl<R: Read> Read for Utf16Reader<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.at == self.pending.len() && !self.refill()? {
            return Ok(0);
        }
        let n = out.len().min(self.pending.len() - self.at);
        out[..n].copy_from_slice(&self.pending[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_both_orders_and_split_reads() {
        let text = "[Black \"Zoë\"] 𝄞\nf5";
        for order in [Utf16::Le, Utf16::Be] {
            let mut bytes = match order {
                Utf16::Le => vec![0xFF, 0xFE],
                Utf16::Be => vec![0xFE, 0xFF],
            };
            for unit in text.encode_utf16() {
                bytes.extend(match order {
                    Utf16::Le => unit.to_le_bytes(),
                    Utf16::Be => unit.to_be_bytes(),
                });
            }
            assert_eq!(utf16_bom(&bytes), Some(order));
            // One byte at a time: pairs and surrogates split across reads.
            struct OneByte<'a>(&'a [u8]);
            impl Read for OneByte<'_> {
                fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
                    let Some((&first, rest)) = self.0.split_first() else {
                        return Ok(0);
                    };
                    out[0] = first;
                    self.0 = rest;
                    Ok(1)
                }
            }
            let mut out = String::new();
            Utf16Reader::new(OneByte(&bytes), order)
                .read_to_string(&mut out)
                .unwrap();
            assert_eq!(out, text);
        }
    }
}
