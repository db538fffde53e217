//! Opening inputs: files or standard input, read as `--from` says or as
//! [`Format::detect`] finds (content first, the extension second).

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use reversi_record::formats::text::Utf16;
use reversi_record::formats::{
    wthor, DetectError, Detection, Format, Games, ParseFormatError, ReadOptions,
};
use reversi_record::Rules;

/// An opened input.
pub(crate) struct Input {
    pub(crate) name: Arc<str>,
    pub(crate) format: Format,
    pub(crate) detection: Detection,
    /// The input from its first byte, for [`Input::games`].
    reader: Box<dyn io::BufRead + Send + 'static>,
    read_options: ReadOptions,
    /// The encoding the input was decoded from, when it was not UTF-8.
    pub(crate) decoded_from: Option<Utf16>,
    /// For WTHOR read without name files: where the reader looked.
    pub(crate) names_note: Option<String>,
    /// `--rules`, for records that do not state theirs.
    pub(crate) rules: Option<Rules>,
}

impl Input {
    /// The games, as the format's reader gives them.
    pub(crate) fn games(self) -> Games<'static> {
        self.format.read(self.reader, &self.read_options)
    }

    /// The input for the validation pipeline.
    pub(crate) fn into_validation(self) -> reversi_record::pipeline::Input {
        reversi_record::pipeline::Input {
            format: self.format,
            reader: self.reader,
            options: self.read_options,
        }
    }

    /// A note saying how the input will be read.
    pub(crate) fn note(&self) -> String {
        let how = match self.detection {
            Detection::Given => "as given by --from",
            other => other.phrase(),
        };
        let mut note = format!("reading {} as {} ({how})", self.name, self.format);
        if let Some(encoding) = self.decoded_from {
            note.push_str(&format!(", decoded from {}", encoding.name()));
        }
        if let Some(names) = &self.names_note {
            note.push_str("; ");
            note.push_str(names);
        }
        match (self.rules, self.format) {
            (Some(rules), _) => note.push_str(&format!(
                "; records that do not state their rules are read as {rules} (--rules)"
            )),
            (None, Format::MoveString) => note.push_str(
                "; lines without a `%% rules:` line above them are read as othello on 8x8 (give other rules with --rules)",
            ),
            (None, _) => {}
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

/// Opens `path` (`-` for standard input). The name need not be UTF-8: it is shown with
/// the bytes that are not replaced (`Path::display`).
pub(crate) fn open(path: impl AsRef<Path>, options: &InputOptions) -> io::Result<Input> {
    let file_path = path.as_ref();
    let shown = file_path.display().to_string();
    let path = shown.as_str();
    let (reader, len, file_path): (Box<dyn io::Read + Send>, Option<u64>, Option<PathBuf>) =
        if file_path == Path::new("-") {
            (Box::new(io::stdin()), None, None)
        } else {
            let file = File::open(file_path)
                .map_err(|e| io::Error::new(e.kind(), format!("{path}: cannot open: {e}")))?;
            let len = file.metadata().ok().map(|m| m.len());
            (Box::new(file), len, Some(file_path.to_path_buf()))
        };
    let detected = Format::detect(reader, path, len, options.from).map_err(|e| match e {
        DetectError::Read(e) => io::Error::new(e.kind(), format!("{path}: reading failed: {e}")),
        DetectError::Unknown => io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{path}: {e}; give it with --from"),
        ),
    })?;
    let format = detected.format;
    let name: Arc<str> = Arc::from(path);
    // `--names`: a directory, or the two name files.
    let names = options
        .names
        .as_deref()
        .map(wthor::Names::parse)
        .transpose();
    let names = names.map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    let read_options = ReadOptions {
        name: name.clone(),
        path: file_path,
        rules: options.rules,
        names_dir: names.as_ref().and_then(wthor::Names::dir).map(Into::into),
        name_files: names.as_ref().and_then(wthor::Names::files).cloned(),
    };
    let names_note = (format == Format::Wthor)
        .then(|| wthor::missing_names_note(&read_options))
        .flatten();
    Ok(Input {
        name,
        format,
        detection: detected.detection,
        reader: detected.input,
        read_options,
        decoded_from: detected.decoded_from,
        names_note,
        rules: options.rules,
    })
}

/// Parses `FORMAT[:DIALECT]` for clap.
pub(crate) fn parse_format(s: &str) -> Result<Format, String> {
    s.parse().map_err(|e: ParseFormatError| e.to_string())
}
