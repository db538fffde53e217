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

/// What every reading command shares; the arguments of the commands that flatten it
/// (`--from`, `--rules`, `--names`).
#[derive(Clone, Debug, Default, clap::Args)]
pub(crate) struct InputOptions {
    /// Read as this format (`FORMAT[:DIALECT]`) instead of detecting it.
    #[arg(long, value_parser = parse_format)]
    pub(crate) from: Option<Format>,
    /// Rules for records that do not state them.
    #[arg(long, value_parser = super::parse_rules)]
    pub(crate) rules: Option<Rules>,
    /// Directory of the WTHOR name files (WTHOR.JOU, WTHOR.TRN), or the two files by any
    /// names, players first; default: beside the game file.
    #[arg(long, value_name = "DIR|PLAYERS,TOURNAMENTS")]
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

/// The inputs `paths` name, folders walked: a folder stands for the record files below
/// it, in name order, each of them recognised by its content (a notes file named `.txt` is
/// not read as move strings); the other files are skipped, each with a note (unless
/// `quiet`), and so are hidden files and WTHOR name files, which a game file's reader
/// finds by itself. Files named on the command line are taken as they are.
pub(crate) fn expand(paths: &[PathBuf], quiet: bool) -> io::Result<Vec<PathBuf>> {
    let expanded = expand_event(paths, quiet)?;
    expanded.skip_event_files(true, true, quiet);
    Ok(expanded.inputs)
}

/// What an event's folders hold: the record files, and the player registers and pairings
/// files found among the other files (by content).
pub(crate) struct Expanded {
    pub(crate) inputs: Vec<PathBuf>,
    pub(crate) registers: Vec<PathBuf>,
    pub(crate) pairings: Vec<PathBuf>,
}

impl Expanded {
    /// Notes that the registers and pairings tables found (those `registers` and
    /// `pairings` say) are not read, for a command that has no use for them.
    pub(crate) fn skip_event_files(&self, registers: bool, pairings: bool, quiet: bool) {
        if quiet {
            return;
        }
        let registers = self.registers.iter().filter(|_| registers);
        for path in registers {
            super::stderr_line(format_args!(
                "note: {}: skipped, a player register, not game records",
                path.display()
            ));
        }
        for path in self.pairings.iter().filter(|_| pairings) {
            super::stderr_line(format_args!(
                "note: {}: skipped, a pairings or results table, not game records",
                path.display()
            ));
        }
    }
}

/// [`expand`], keeping the player registers and pairings files found in the folders apart.
pub(crate) fn expand_event(paths: &[PathBuf], quiet: bool) -> io::Result<Expanded> {
    let mut out = Expanded {
        inputs: Vec::with_capacity(paths.len()),
        registers: Vec::new(),
        pairings: Vec::new(),
    };
    for path in paths {
        if path == Path::new("-") || !path.is_dir() {
            out.inputs.push(path.clone());
            continue;
        }
        let mut files = Vec::new();
        let mut seen = std::collections::HashSet::new();
        walk(path, &mut files, &mut seen)?;
        files.sort_by(|a, b| a.0.cmp(&b.0));
        for (file, kind) in files {
            let found = match kind {
                Entry::File => found(&file),
                Entry::Special(what) => Found::Skipped(what),
                Entry::Cycle => Found::Skipped("a folder already walked (by another path)"),
            };
            match found {
                Found::Record => out.inputs.push(file),
                Found::Register => out.registers.push(file),
                Found::Pairings => out.pairings.push(file),
                Found::Skipped(why) if !quiet => {
                    super::stderr_line(format_args!("note: {}: skipped, {why}", file.display()))
                }
                Found::Skipped(_) | Found::Quiet => {}
            }
        }
    }
    Ok(out)
}

/// The player register: the file `given`, or the one register found in the folders (with
/// a note); none without either. Two found are a usage error: `--players` names one.
pub(crate) fn register(
    given: Option<&Path>,
    found: &[PathBuf],
    quiet: bool,
) -> io::Result<Option<reversi_record::event::Register>> {
    let path = match (given, found) {
        (Some(path), _) => path,
        (None, []) => return Ok(None),
        (None, [one]) => {
            if !quiet {
                super::stderr_line(format_args!(
                    "note: {}: read as the player register (names are read through it)",
                    one.display()
                ));
            }
            one
        }
        (None, several) => {
            let names: Vec<String> = several.iter().map(|p| p.display().to_string()).collect();
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{} player registers found ({}): name the one to use with --players",
                    several.len(),
                    names.join(", ")
                ),
            ));
        }
    };
    reversi_record::event::Register::read(path).map(Some)
}

/// The event's pairings: the file `given`, or the first pairings table found in the
/// folders (in path order, as the desk takes the first in its folder), with a note naming
/// it and any other left aside; none without either.
pub(crate) fn pairings(
    given: Option<&Path>,
    found: &[PathBuf],
    quiet: bool,
) -> io::Result<Option<reversi_record::event::Schedule>> {
    let note = |line: std::fmt::Arguments<'_>| {
        if !quiet {
            super::stderr_line(line);
        }
    };
    let path = match (given, found) {
        (Some(path), _) => {
            for other in found.iter().filter(|f| f.as_path() != path) {
                note(format_args!(
                    "note: {}: skipped, a pairings table (--pairings names another)",
                    other.display()
                ));
            }
            path
        }
        (None, []) => return Ok(None),
        (None, [first, others @ ..]) => {
            note(format_args!(
                "note: {}: read as the pairings (--pairings FILE names another)",
                first.display()
            ));
            for other in others {
                note(format_args!(
                    "note: {}: skipped, a second pairings or results table (--pairings names the one to use)",
                    other.display()
                ));
            }
            first
        }
    };
    reversi_record::event::Schedule::read(path).map(Some)
}

/// What a folder walk found at a path.
enum Entry {
    /// A regular file, or a link to one.
    File,
    /// Something that is not a file: never opened (a FIFO would wait for a writer).
    Special(&'static str),
    /// A link to a folder walked already (a loop, or the same folder twice).
    Cycle,
}

/// Every file below `dir`: regular files (and links to them) to read, folders walked (a
/// link to a folder once: `seen` holds the folders walked), anything else named as what it
/// is, without opening it.
fn walk(
    dir: &Path,
    out: &mut Vec<(PathBuf, Entry)>,
    seen: &mut std::collections::HashSet<PathBuf>,
) -> io::Result<()> {
    let cannot = |e: io::Error| {
        io::Error::new(
            e.kind(),
            format!("{}: cannot read the folder: {e}", dir.display()),
        )
    };
    if let Ok(real) = std::fs::canonicalize(dir) {
        if !seen.insert(real) {
            out.push((dir.to_path_buf(), Entry::Cycle));
            return Ok(());
        }
    }
    for entry in std::fs::read_dir(dir).map_err(cannot)? {
        let entry = entry.map_err(cannot)?;
        let path = entry.path();
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        // What a link points to; a broken link is read as named, to report its error.
        let kind = match entry.file_type() {
            Ok(kind) if kind.is_symlink() => std::fs::metadata(&path).map(|m| m.file_type()),
            other => other,
        };
        match kind {
            Ok(kind) if kind.is_dir() => walk(&path, out, seen)?,
            Ok(kind) if kind.is_file() => out.push((path, Entry::File)),
            Ok(kind) => out.push((path, Entry::Special(special(&kind)))),
            Err(_) => out.push((path, Entry::File)),
        }
    }
    Ok(())
}

/// What a file that is neither a regular file nor a folder is, for the note that skips it.
fn special(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "not a regular file (a FIFO)";
        }
        if kind.is_socket() {
            return "not a regular file (a socket)";
        }
        if kind.is_block_device() || kind.is_char_device() {
            return "not a regular file (a device)";
        }
    }
    let _ = kind;
    "not a regular file"
}

/// What becomes of a file found in a folder.
enum Found {
    /// A record file: read.
    Record,
    /// Left out without a word: a hidden file, or a WTHOR name file (read with the game
    /// files beside it).
    Quiet,
    /// A player register: read as one, not as games.
    Register,
    /// A pairings (or results) table: the event's pairings, not games.
    Pairings,
    /// Left out with a note saying why.
    Skipped(&'static str),
}

/// What becomes of the file `path`, found in a folder.
fn found(path: &Path) -> Found {
    use std::io::Read;
    let hidden = path
        .file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with('.'));
    if hidden || wthor::is_name_file(path) {
        return Found::Quiet;
    }
    let mut head = Vec::with_capacity(4096);
    let opened = File::open(path).and_then(|file| {
        let len = file.metadata().ok().map(|m| m.len());
        file.take(4096).read_to_end(&mut head)?;
        Ok(len)
    });
    let Ok(len) = opened else {
        // Read as named, to report its error.
        return Found::Record;
    };
    let sniff = reversi_record::formats::Sniff { head: &head, len };
    if reversi_record::event::Register::looks_like(&head) {
        return Found::Register;
    }
    if reversi_record::event::Schedule::looks_like(&head) {
        return Found::Pairings;
    }
    match Format::sniff(&sniff) {
        Some(_) => Found::Record,
        // A file that should hold games and does not is read as named, so that its error
        // is reported and changes the exit code: one named as a record format (a notes
        // file named `.txt` aside), or a table.
        None if claims_records(path) || looks_like_a_table(&head) => Found::Record,
        None => Found::Skipped("its content is not a game record of any format"),
    }
}

/// Whether the file's extension is a record format's (`.pgn`, `.ggf`, `.wtb`, ...), a
/// notes file's `.txt` aside.
fn claims_records(path: &Path) -> bool {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match ext.as_deref() {
        None | Some("txt") => false,
        Some(ext) => Format::from_extension(ext).is_some(),
    }
}

/// Whether `head` is a table: at least two lines, each with the same number (one or more)
/// of `,`, `;` or tab separators.
fn looks_like_a_table(head: &[u8]) -> bool {
    let text = String::from_utf8_lossy(head);
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    // The last line may be cut short by the head's end.
    let lines: Vec<&str> = lines.by_ref().take(6).collect();
    let complete = if lines.len() > 2 {
        &lines[..lines.len() - 1]
    } else {
        &lines[..]
    };
    if complete.len() < 2 {
        return false;
    }
    [',', ';', '\t'].iter().any(|&sep| {
        let count = |l: &str| l.matches(sep).count();
        let first = count(complete[0]);
        first > 0 && complete.iter().all(|l| count(l) == first)
    })
}

/// Parses `--to`: a format, with the dialects `json:lines` and `moves:nopass`.
pub(crate) fn parse_target(s: &str) -> Result<(Format, Option<String>), String> {
    match s.split_once(':') {
        Some((json, dialect)) if json.eq_ignore_ascii_case("json") => {
            if dialect.eq_ignore_ascii_case("lines") {
                Ok((Format::Json, Some("lines".into())))
            } else {
                Err(format!(
                    "expected `json` or `json:lines`, but found `{s}` instead"
                ))
            }
        }
        Some((moves, dialect)) if moves.parse() == Ok(Format::MoveString) => {
            match reversi_record::formats::movestr::dialect(dialect) {
                Some(d) => Ok((Format::MoveString, Some(d.into()))),
                None => Err(format!(
                    "expected `moves` or `moves:nopass`, but found `{s}` instead"
                )),
            }
        }
        _ => s
            .parse()
            .map(|f| (f, None))
            .map_err(|e: reversi_record::formats::ParseFormatError| e.to_string()),
    }
}

/// Parses `FORMAT[:DIALECT]` for clap (`--from`, repair's `--to`).
pub(crate) fn parse_format(s: &str) -> Result<Format, String> {
    s.parse().map_err(|e: ParseFormatError| e.to_string())
}

/// The facts of every game of `inputs` (their progress on standard error), and whether an
/// input could not be opened or read (each named in an error line).
pub(crate) fn gather(
    inputs: &[PathBuf],
    options: &InputOptions,
    jobs: Option<usize>,
    quiet: bool,
) -> io::Result<(reversi_record::event::Event, bool)> {
    let jobs = super::capped_jobs(jobs, quiet);
    let mut failed_inputs = false;
    let progress = super::progress::Progress::start(inputs, quiet, false);
    let counter = super::progress::Counter::of(progress.as_ref());
    let mut opened = Vec::new();
    for path in inputs {
        match open(path, options) {
            Ok(input) => {
                if !quiet {
                    super::stderr_line(format_args!("note: {}", input.note()));
                }
                opened.push((
                    input.name.clone(),
                    Some(counter.input(input.into_validation())),
                ));
            }
            Err(e) => {
                super::stderr_line(format_args!("error: {e}"));
                failed_inputs = true;
            }
        }
    }
    let gathered = reversi_record::pipeline::validation::Validation::new()
        .jobs(jobs)
        .collect(opened.into_iter())
        .map_err(|stopped| stopped.error)?;
    if let Some(p) = progress {
        p.finish();
    }
    for (name, e) in &gathered.failed {
        super::stderr_line(format_args!("error: {name}: reading failed: {e}"));
        failed_inputs = true;
    }
    Ok((gathered.event, failed_inputs))
}
