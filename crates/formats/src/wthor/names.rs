//! The name files `WTHOR.JOU` (players, 20-byte records) and `WTHOR.TRN` (tournaments,
//! 26-byte records), and the Windows-1252 encoding their names use.

use std::collections::BTreeSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::Header;
use crate::text::{decode_cp1252, encode_cp1252, replace_controls};

/// The largest name file read: a real `WTHOR.JOU` takes 78 KB, and the most names an index
/// reaches (65,536) take 1.3 MiB in `WTHOR.JOU` and 1.7 MiB in `WTHOR.TRN`. A larger file
/// (a 200 MB file named `WTHOR.JOU`) is no name file: it is refused, unread, with a clear
/// error (the games are read with their players shown by number), rather than held whole.
pub(crate) const MAX_NAME_FILE_BYTES: u64 = 8 << 20;

/// Which name file: players or tournaments.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum NameKind {
    /// `WTHOR.JOU` (*joueurs*), 20-byte records.
    Player,
    /// `WTHOR.TRN` (*tournois*), 26-byte records.
    Tournament,
}

impl NameKind {
    /// The file name, as the FFO spells it.
    pub const fn file_name(self) -> &'static str {
        match self {
            NameKind::Player => "WTHOR.JOU",
            NameKind::Tournament => "WTHOR.TRN",
        }
    }

    /// Bytes per record, the terminating NUL included.
    pub const fn record_len(self) -> usize {
        match self {
            NameKind::Player => 20,
            NameKind::Tournament => 26,
        }
    }

    /// The longest name a record holds, in bytes (19 or 25).
    pub const fn max_name_len(self) -> usize {
        self.record_len() - 1
    }

    /// The entry at index 0 of a fresh table: the unknown player, the miscellaneous games.
    pub const fn placeholder(self) -> &'static str {
        match self {
            NameKind::Player => "???",
            NameKind::Tournament => "Diverses parties",
        }
    }

    /// "player" or "tournament", for messages.
    pub const fn noun(self) -> &'static str {
        match self {
            NameKind::Player => "player",
            NameKind::Tournament => "tournament",
        }
    }
}

/// A name table: the decoded names of a `WTHOR.JOU` or `WTHOR.TRN`, indexed from 0.
///
/// ```
/// use reversi_formats::wthor::{NameKind, NameTable};
/// let mut players = NameTable::new(NameKind::Player);
/// assert_eq!(players.get(0), Some("???"));
/// let index = players.push("Tastet Marc".into());
/// assert_eq!(players.find("Tastet Marc"), Some(index));
/// let bytes = players.to_bytes().unwrap();
/// assert_eq!(NameTable::parse(NameKind::Player, &bytes).unwrap().get(1), Some("Tastet Marc"));
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NameTable {
    kind: NameKind,
    header: Header,
    names: Vec<String>,
    /// How many names held control characters, read as U+FFFD.
    controls: usize,
}

impl NameTable {
    /// A fresh table holding only the conventional entry 0 (`???`, `Diverses parties`).
    pub fn new(kind: NameKind) -> NameTable {
        NameTable {
            kind,
            header: Header::names(0),
            names: vec![kind.placeholder().to_string()],
            controls: 0,
        }
    }

    /// Which file this is.
    pub fn kind(&self) -> NameKind {
        self.kind
    }

    /// The name at `index`.
    pub fn get(&self, index: u16) -> Option<&str> {
        self.names.get(usize::from(index)).map(String::as_str)
    }

    /// The first index holding exactly `name`.
    pub fn find(&self, name: &str) -> Option<u16> {
        let i = self.names.iter().position(|n| n == name)?;
        u16::try_from(i).ok()
    }

    /// Number of names.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the table holds no name.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Appends `name` and returns its index (the caller checks [`NameTable::len`] stays
    /// below 65,536 and the name fits).
    pub fn push(&mut self, name: String) -> u16 {
        let index = u16::try_from(self.names.len()).unwrap_or(u16::MAX);
        self.names.push(name);
        index
    }

    /// Parses a whole name file. Lenient as the FFO's own readers are: P1 and P3 are
    /// ignored (converters write odd values there), every complete record present is read
    /// whatever N2 says; a file shorter than its header or with N1 ≠ 0 or P2 ≠ 0 is refused.
    pub fn parse(kind: NameKind, bytes: &[u8]) -> Result<NameTable, String> {
        let head: &[u8; Header::LEN] = bytes
            .get(..Header::LEN)
            .and_then(|h| h.try_into().ok())
            .ok_or_else(|| {
                format!(
                    "expected a 16-byte header, but the file has only {} bytes",
                    bytes.len()
                )
            })?;
        let header = Header::parse(head);
        if header.n1 != 0 || header.p2 != 0 {
            return Err(format!(
                "expected a name file (N1 = 0, P2 = 0), but found N1 = {}, P2 = {}",
                header.n1, header.p2
            ));
        }
        let mut controls = 0;
        let names = bytes[Header::LEN..]
            .chunks_exact(kind.record_len())
            .map(|record| {
                let end = record.iter().position(|&b| b == 0).unwrap_or(record.len());
                let mut name = decode_cp1252(&record[..end]);
                controls += usize::from(replace_controls(&mut name).is_some());
                name
            })
            .collect();
        Ok(NameTable {
            kind,
            header,
            names,
            controls,
        })
    }

    /// How many names held control characters (a name file's bytes below 0x20), read with
    /// each replaced by U+FFFD so that no output or report carries one.
    pub fn names_with_controls(&self) -> usize {
        self.controls
    }

    /// Reads `path`; a file over `MAX_NAME_FILE_BYTES` is refused (`InvalidData`) without
    /// being read.
    pub fn read(kind: NameKind, path: &Path) -> io::Result<NameTable> {
        use std::io::Read;
        let mut bytes = Vec::new();
        fs::File::open(path)?
            .take(MAX_NAME_FILE_BYTES + 1)
            .read_to_end(&mut bytes)?;
        if bytes.len() as u64 > MAX_NAME_FILE_BYTES {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "it is over {} MiB, more than any name file holds (65,536 names take under 2 MiB); it is not read",
                    MAX_NAME_FILE_BYTES >> 20
                ),
            ));
        }
        NameTable::parse(kind, &bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
    }

    /// [`NameTable::read`], shared: a table read before from the same file, unchanged
    /// since (same length and modification time), is not read again. A collection of
    /// yearly game files shares one `WTHOR.JOU` and one `WTHOR.TRN`.
    pub(crate) fn read_shared(
        kind: NameKind,
        path: &Path,
    ) -> io::Result<std::sync::Arc<NameTable>> {
        use std::sync::{Arc, Mutex};
        type Key = (std::path::PathBuf, u64, Option<std::time::SystemTime>);
        /// The tables read last; a handful is all a run needs.
        static READ: Mutex<Vec<(Key, Arc<NameTable>)>> = Mutex::new(Vec::new());
        const KEPT: usize = 4;
        let meta = fs::metadata(path)?;
        if meta.len() > MAX_NAME_FILE_BYTES {
            return NameTable::read(kind, path).map(Arc::new);
        }
        let key: Key = (path.to_path_buf(), meta.len(), meta.modified().ok());
        if let Ok(read) = READ.lock() {
            if let Some((_, table)) = read.iter().find(|(k, t)| *k == key && t.kind == kind) {
                return Ok(table.clone());
            }
        }
        let table = Arc::new(NameTable::read(kind, path)?);
        if let Ok(mut read) = READ.lock() {
            if read.len() == KEPT {
                read.remove(0);
            }
            read.push((key, table.clone()));
        }
        Ok(table)
    }

    /// The file's bytes: the header (N2 updated, creation date today when the table changed
    /// since it was read) and one NUL-padded Windows-1252 record per name. Fails on a name
    /// that does not encode or fit.
    pub fn to_bytes(&self) -> Result<Vec<u8>, String> {
        let mut out = self.header_bytes()?.to_vec();
        for name in &self.names {
            self.push_record(&mut out, name)?;
        }
        Ok(out)
    }

    /// The bytes of `original`, the file this table was read from with its first `kept`
    /// names, extended by the names added since: the records already there are copied
    /// byte for byte (names keep their index), the header's N2 and date are updated.
    pub fn extended_bytes(&self, original: &[u8], kept: usize) -> Result<Vec<u8>, String> {
        let end = Header::LEN + kept * self.kind.record_len();
        let records = original
            .get(Header::LEN..end)
            .ok_or_else(|| format!("the {} changed while it was read", self.kind.file_name()))?;
        let mut out = self.header_bytes()?.to_vec();
        out.extend_from_slice(records);
        for name in self.names.iter().skip(kept) {
            self.push_record(&mut out, name)?;
        }
        Ok(out)
    }

    /// The header with N2 = the number of names (dated today when that changed).
    fn header_bytes(&self) -> Result<[u8; Header::LEN], String> {
        let mut header = self.header;
        let count = u16::try_from(self.names.len()).map_err(|_| {
            format!(
                "{} {}s do not fit WTHOR's 65,535",
                self.names.len(),
                self.kind.noun()
            )
        })?;
        if header.n2 != count {
            header.n2 = count;
            header.set_created(super::today());
        }
        Ok(header.to_bytes())
    }

    /// Appends the NUL-padded record of `name`.
    fn push_record(&self, out: &mut Vec<u8>, name: &str) -> Result<(), String> {
        let bytes = encode_cp1252(name).map_err(|c| {
            format!(
                "the {} name \"{name}\" has the character {c:?}, which Windows-1252 lacks",
                self.kind.noun()
            )
        })?;
        if bytes.len() > self.kind.max_name_len() {
            return Err(format!(
                "the {} name \"{name}\" has {} bytes; WTHOR holds {}",
                self.kind.noun(),
                bytes.len(),
                self.kind.max_name_len()
            ));
        }
        out.extend_from_slice(&bytes);
        out.resize(out.len() + self.kind.record_len() - bytes.len(), 0);
        Ok(())
    }
}

/// Whether `path` names a WTHOR name file (`WTHOR.JOU` or `WTHOR.TRN`, any case).
///
/// ```
/// use std::path::Path;
/// assert!(reversi_formats::wthor::is_name_file(Path::new("db/wthor.jou")));
/// assert!(!reversi_formats::wthor::is_name_file(Path::new("db/WTH_2001.wtb")));
/// ```
pub fn is_name_file(path: &Path) -> bool {
    path.file_name()
        .map(|n| n.to_string_lossy())
        .is_some_and(|n| {
            [NameKind::Player, NameKind::Tournament]
                .iter()
                .any(|k| n.eq_ignore_ascii_case(k.file_name()))
        })
}

/// The WTHOR name files a reader of `inputs` may read: `WTHOR.JOU` and `WTHOR.TRN` (any
/// case) beside each input and in `names_dir`. They are inputs too: an output must not
/// replace them.
///
/// ```
/// use std::path::Path;
/// let dir = std::env::temp_dir().join(format!("names-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// std::fs::write(dir.join("WTHOR.JOU"), "")?;
/// let files = reversi_formats::wthor::name_files_beside(&[dir.join("a.wtb")], None);
/// assert_eq!(files, [dir.join("WTHOR.JOU")]);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn name_files_beside(inputs: &[impl AsRef<Path>], names_dir: Option<&Path>) -> Vec<PathBuf> {
    let dirs = inputs
        .iter()
        .map(AsRef::as_ref)
        .filter(|i| *i != Path::new("-"))
        .map(|i| {
            i.parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."))
                .to_path_buf()
        })
        .chain(names_dir.map(Path::to_path_buf))
        .collect::<BTreeSet<_>>();
    let mut files = Vec::new();
    for dir in dirs {
        if let Ok(entries) = fs::read_dir(&dir) {
            for entry in entries.flatten() {
                if is_name_file(Path::new(&entry.file_name())) {
                    files.push(entry.path());
                }
            }
        }
    }
    files.sort();
    files
}

/// The file named `kind.file_name()` in `dir`, in any case (`wthor.jou`, `WThor.Jou`).
pub(super) fn find_in(dir: &Path, kind: NameKind) -> Option<PathBuf> {
    let exact = dir.join(kind.file_name());
    if exact.is_file() {
        return Some(exact);
    }
    fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.eq_ignore_ascii_case(kind.file_name()))
                && p.is_file()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_round_trips() {
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(encode_cp1252(&decode_cp1252(&all)), Ok(all));
    }

    #[test]
    fn names_pad_with_nul_and_refuse_long_names() {
        let mut t = NameTable::new(NameKind::Tournament);
        t.push("Championnat de Suède".into());
        let bytes = t.to_bytes().unwrap();
        assert_eq!(bytes.len(), 16 + 2 * 26);
        assert_eq!(&bytes[8..10], &[2, 0]);
        assert_eq!(&bytes[42..62], b"Championnat de Su\xe8de");
        assert!(bytes[62..].iter().all(|&b| b == 0));
        t.push("x".repeat(26));
        assert!(t
            .to_bytes()
            .unwrap_err()
            .contains("26 bytes; WTHOR holds 25"));
    }

    #[test]
    fn finds_files_in_any_case() {
        let dir = std::env::temp_dir().join(format!("wthor-names-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        fs::write(
            dir.join("wthor.jou"),
            NameTable::new(NameKind::Player).to_bytes().unwrap(),
        )
        .unwrap();
        let found = find_in(&dir, NameKind::Player).unwrap();
        assert_eq!(
            NameTable::read(NameKind::Player, &found).unwrap().get(0),
            Some("???")
        );
        assert_eq!(find_in(&dir, NameKind::Tournament), None);
        fs::remove_dir_all(&dir).unwrap();
    }
}
