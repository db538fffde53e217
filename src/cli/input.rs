//! Opening inputs: files or standard input, with the format detected from content first,
//! the extension second, and `--from` overriding both.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use reversi_record::formats::text::{self, Utf16, Utf16Reader};
use reversi_record::formats::{wthor, Format, Games, ReadOptions, Sniff};
use reversi_record::Rules;

/// How an input's format was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Detection {
    Given,
    Content,
    Extension,
}

/// An opened input.
pub(crate) struct Input {
    pub(crate) name: Arc<str>,
    pub(crate) format: Format,
    pub(crate) detection: Detection,
    pub(crate) games: Games<'static>,
    /// The encoding the input was decoded from, when it was not UTF-8.
    pub(crate) decoded_from: Option<Utf16>,
    /// For WTHOR read without name files: where the reader looked.
    pub(crate) names_note: Option<String>,
}

impl Input {
    /// A note saying how the input will be read.
    pub(crate) fn note(&self) -> String {
        let how = match self.detection {
            Detection::Given => "as given by --from",
            Detection::Content => "detected from its content",
            Detection::Extension => "detected from its extension",
        };
        let mut note = format!("reading {} as {} ({how})", self.name, self.format);
        if let Some(encoding) = self.decoded_from {
            note.push_str(&format!(", decoded from {}", encoding.name()));
        }
        if let Some(names) = &self.names_note {
            note.push_str("; ");
            note.push_str(names);
        }
        note
    }
}

/// What every reading command shares.
#[derive(Clone, Debug, Default)]
pub(crate) struct InputOptions {
    pub(crate) from: Option<Format>,
    pub(crate) rules: Option<Rules>,
    pub(crate) names: Option<PathBuf>,
}

/// Opens `path` (`-` for standard input).
pub(crate) fn open(path: &str, options: &InputOptions) -> io::Result<Input> {
    let (reader, len, file_path): (Box<dyn io::Read + Send>, Option<u64>, Option<PathBuf>) =
        if path == "-" {
            (Box::new(io::stdin()), None, None)
        } else {
            let file = File::open(path)
                .map_err(|e| io::Error::new(e.kind(), format!("{path}: cannot open: {e}")))?;
            let len = file.metadata().ok().map(|m| m.len());
            (Box::new(file), len, Some(PathBuf::from(path)))
        };
    let mut reader = BufReader::with_capacity(64 * 1024, reader);
    let reading = |e: io::Error| io::Error::new(e.kind(), format!("{path}: reading failed: {e}"));
    // UTF-16 is recognised by its byte-order mark and read as UTF-8 (not for WTHOR, which
    // is binary).
    let utf16 = match options.from {
        Some(Format::Wthor) => None,
        _ => text::utf16_bom(reader.fill_buf().map_err(reading)?),
    };
    let mut reader: BufReader<Box<dyn io::Read + Send>> = match utf16 {
        Some(order) => {
            BufReader::with_capacity(64 * 1024, Box::new(Utf16Reader::new(reader, order)))
        }
        None => BufReader::with_capacity(64 * 1024, Box::new(reader)),
    };
    let (format, detection) = match options.from {
        Some(f) => (f, Detection::Given),
        None => {
            let head = reader.fill_buf().map_err(reading)?;
            let sniffed = Format::sniff(&Sniff {
                head: &head[..head.len().min(4096)],
                len,
            });
            let by_extension = Path::new(path)
                .extension()
                .and_then(|e| e.to_str())
                .and_then(Format::from_extension);
            match (sniffed, by_extension) {
                (Some(f), _) => (f, Detection::Content),
                (None, Some(f)) => (f, Detection::Extension),
                (None, None) => {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("{path}: cannot tell the format from the content or the name; give it with --from"),
                    ))
                }
            }
        }
    };
    let name: Arc<str> = Arc::from(path);
    let read_options = ReadOptions {
        name: name.clone(),
        path: file_path,
        rules: options.rules,
        names_dir: options.names.clone(),
    };
    let names_note = (format == Format::Wthor)
        .then(|| wthor::missing_names_note(&read_options))
        .flatten();
    let games = format.read(Box::new(reader), &read_options);
    Ok(Input {
        name,
        format,
        detection,
        games,
        decoded_from: utf16,
        names_note,
    })
}

/// Parses `FORMAT[:DIALECT]` for clap.
pub(crate) fn parse_format(s: &str) -> Result<Format, String> {
    s.parse()
}
