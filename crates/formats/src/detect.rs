//! Telling an input's format: by what it looks like, then by its name.

use super::*;

/// The start of an input, for content detection.
#[derive(Clone, Copy, Debug)]
pub struct Sniff<'a> {
    /// The first bytes (up to 4 KiB).
    pub head: &'a [u8],
    /// The whole input's length, when known.
    pub len: Option<u64>,
}

/// How [`Format::detect`] chose a format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detection {
    /// The caller named it.
    Given,
    /// The content looks like it ([`Format::sniff`]).
    Content,
    /// The file name's extension suggests it ([`Format::from_extension`]).
    Extension,
}

impl Detection {
    /// How the format was chosen, in words (`detected from its content`).
    pub const fn phrase(self) -> &'static str {
        match self {
            Detection::Given => "as given",
            Detection::Content => "detected from its content",
            Detection::Extension => "detected from its extension",
        }
    }
}

/// An input whose format [`Format::detect`] has chosen, ready for [`Format::read`].
pub struct Detected<'a> {
    /// The format to read it as.
    pub format: Format,
    /// How the format was chosen.
    pub detection: Detection,
    /// The encoding the input is decoded from, when it is UTF-16 (recognised by its
    /// byte-order mark); `input` then gives UTF-8.
    pub decoded_from: Option<text::Utf16>,
    /// The input, from its first byte (decoded to UTF-8 when it was UTF-16).
    pub input: Box<dyn BufRead + Send + 'a>,
}

impl fmt::Debug for Detected<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Detected")
            .field("format", &self.format)
            .field("detection", &self.detection)
            .field("decoded_from", &self.decoded_from)
            .finish_non_exhaustive()
    }
}

/// Why [`Format::detect`] found no format.
#[derive(Debug)]
pub enum DetectError {
    /// Reading the start of the input failed.
    Read(io::Error),
    /// Neither the content nor the name tells the format.
    Unknown,
}

impl fmt::Display for DetectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DetectError::Read(e) => write!(f, "reading failed: {e}"),
            DetectError::Unknown => {
                f.write_str("cannot tell the format from the content or the name")
            }
        }
    }
}

impl std::error::Error for DetectError {}

/// Buffer size of the readers [`Format::detect`] builds.
const DETECT_BUFFER: usize = 64 * 1024;

impl Format {
    /// Chooses the format of `input`: `given` when set, else what the content looks like
    /// (the first 4 KiB; `len` is the whole input's length when known), else what the
    /// extension of `name` suggests. UTF-16 input (byte-order mark) is decoded to UTF-8,
    /// except when WTHOR, a binary format, is given.
    ///
    /// ```
    /// use reversi_formats::{Detection, Format};
    /// let detected = Format::detect(Box::new(&b"f5d6c3d3c4\n"[..]), "games.dat", None, None).unwrap();
    /// assert_eq!((detected.format, detected.detection), (Format::MoveString, Detection::Content));
    /// ```
    pub fn detect<'a>(
        input: Box<dyn io::Read + Send + 'a>,
        name: &str,
        len: Option<u64>,
        given: Option<Format>,
    ) -> Result<Detected<'a>, DetectError> {
        let mut reader = io::BufReader::with_capacity(DETECT_BUFFER, input);
        let decoded_from = match given {
            Some(Format::Wthor) => None,
            _ => text::utf16_bom(reader.fill_buf().map_err(DetectError::Read)?),
        };
        let mut input: Box<dyn BufRead + Send + 'a> = match decoded_from {
            Some(order) => Box::new(io::BufReader::with_capacity(
                DETECT_BUFFER,
                text::Utf16Reader::new(reader, order),
            )),
            None => Box::new(reader),
        };
        let (format, detection) = match given {
            Some(f) => (f, Detection::Given),
            None => {
                let head = input.fill_buf().map_err(DetectError::Read)?;
                let sniffed = Format::sniff(&Sniff {
                    head: &head[..head.len().min(4096)],
                    len,
                });
                let by_extension = std::path::Path::new(name)
                    .extension()
                    .and_then(|e| e.to_str())
                    .and_then(Format::from_extension);
                match (sniffed, by_extension) {
                    (Some(f), _) => (f, Detection::Content),
                    (None, Some(f)) => (f, Detection::Extension),
                    (None, None) => return Err(DetectError::Unknown),
                }
            }
        };
        Ok(Detected {
            format,
            detection,
            decoded_from,
            input,
        })
    }
}
