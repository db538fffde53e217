//! Where a conversion writes: the output set (one output, or one per name the output
//! template gives), each output staged, read back and put in place at the end, all or none.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::formats::{wthor, Format, RecordWriter, Renderer, WriteOptions};
use crate::pipeline::conversion::Outputs;

use super::super::output::{Output, SharedOutput};

/// The most files an output template may give in one run (each holds a few open files
/// until the end): a template that gives more is most likely not what was meant.
pub(super) const MOST_FILES: usize = 512;

/// Where a conversion writes: one output, or one per file name the `-o` template gives a
/// game (each opened when its first game is written), each with its writer.
pub(super) struct Files<'a> {
    pub(super) target: Format,
    /// The options every writer shares (its names and staging folders are its own).
    pub(super) options: WriteOptions,
    /// The names folder `--names` gives; else each output's own folder.
    pub(super) names_dir: Option<PathBuf>,
    /// The inputs, which no output may replace.
    pub(super) guarded: &'a [&'a Path],
    pub(super) renderer: Option<Renderer>,
    pub(super) open: Vec<OpenFile>,
    pub(super) by_name: HashMap<String, usize>,
    /// The output the last game went to, which an error of the run names.
    pub(super) current: Option<usize>,
    /// The folders the template's names made.
    pub(super) created: Vec<PathBuf>,
}

impl Drop for Files<'_> {
    /// A run that put nothing in a folder it made (it failed, or refused that folder's
    /// games) leaves no empty folder behind.
    fn drop(&mut self) {
        self.open.clear();
        // Deepest first: a folder is empty only once the ones in it are gone.
        self.created
            .sort_by_key(|d| std::cmp::Reverse(d.components().count()));
        for dir in &self.created {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// An output being written, with its writer.
pub(super) struct OpenFile {
    /// What the template gave (`""` for a single output).
    pub(super) name: String,
    pub(super) output: SharedOutput,
    /// The writer's options.
    pub(super) options: WriteOptions,
    pub(super) writer: Box<dyn RecordWriter>,
}

/// An output whose writer finished: to be read back and committed.
pub(super) struct Finished {
    pub(super) name: String,
    pub(super) output: Output,
}

impl<'a> Files<'a> {
    pub(super) fn new(
        target: Format,
        options: WriteOptions,
        names_dir: Option<PathBuf>,
        guarded: &'a [&'a Path],
    ) -> Files<'a> {
        Files {
            target,
            renderer: target.renderer(&options),
            options,
            names_dir,
            guarded,
            open: Vec::new(),
            by_name: HashMap::new(),
            current: None,
            created: Vec::new(),
        }
    }

    /// Opens the one output `path` (`-`: standard output); returns whether it is staged
    /// (a file put in place at the end, which can be read back first).
    pub(super) fn open_single(&mut self, path: &Path) -> io::Result<bool> {
        self.current = Some(self.open("", path)?);
        Ok(self.open[0].output.is_staged())
    }

    /// Opens the output at `path` for the games the template names `name`.
    pub(super) fn open(&mut self, name: &str, path: &Path) -> io::Result<usize> {
        if self.target == Format::Wthor && wthor::is_name_file(path) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{}: a WTHOR game file cannot have the name of a WTHOR name file, which is written beside it",
                    path.display()
                ),
            ));
        }
        if self.open.len() == MOST_FILES {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{}: the output template gives more than {MOST_FILES} files; nothing was written (a template with fewer fields, such as `{{year}}` or `{{event}}`, gives fewer)",
                    path.display()
                ),
            ));
        }
        let dir = output_dir(path);
        if let Some(dir) = dir.as_deref().filter(|_| !name.is_empty()) {
            // The folders made here are removed again if they stay empty.
            let missing: Vec<PathBuf> = dir
                .ancestors()
                .take_while(|d| !d.as_os_str().is_empty() && !d.exists())
                .map(Path::to_path_buf)
                .collect();
            std::fs::create_dir_all(dir).map_err(|e| {
                io::Error::new(e.kind(), format!("cannot create {}: {e}", dir.display()))
            })?;
            self.created.extend(missing);
        }
        let output = Output::create(path, self.guarded)?;
        let options = WriteOptions {
            names_dir: self.names_dir.clone().or_else(|| dir.clone()),
            staging_dir: dir,
            ..self.options.clone()
        };
        if self.target == Format::Wthor {
            wthor::prepare_names(&options)?;
        }
        let output = SharedOutput::new(output);
        let writer = self.target.writer(Box::new(output.handle()), &options);
        self.open.push(OpenFile {
            name: name.to_owned(),
            output,
            options,
            writer,
        });
        self.by_name.insert(name.to_owned(), self.open.len() - 1);
        Ok(self.open.len() - 1)
    }

    /// Hands every writer the WTHOR year headers decided from all the games: a writer
    /// already open has written nothing yet and is made again with them.
    pub(super) fn settle_years(&mut self, years: wthor::YearHeaders) {
        let years = Some(Arc::new(years));
        self.options.year_headers.clone_from(&years);
        for file in &mut self.open {
            file.options.year_headers.clone_from(&years);
            file.writer = self
                .target
                .writer(Box::new(file.output.handle()), &file.options);
        }
    }

    /// The error that stopped a run, naming the output the last game went to (a closed
    /// standard output stays a plain broken pipe).
    pub(super) fn failed(&self, e: io::Error) -> io::Error {
        if e.kind() == io::ErrorKind::BrokenPipe {
            return e;
        }
        match self.current.and_then(|at| self.open.get(at)) {
            Some(file) => file.output.failed(e),
            None => e,
        }
    }

    /// Finishes every writer, in the order the outputs were opened. An error names the
    /// output; the outputs not yet finished are abandoned with the rest.
    pub(super) fn finish(&mut self) -> io::Result<Vec<Finished>> {
        let mut finished = Vec::with_capacity(self.open.len());
        for OpenFile {
            name,
            output,
            mut writer,
            ..
        } in std::mem::take(&mut self.open)
        {
            let result = writer.finish();
            drop(writer);
            let output = output.into_output()?;
            match result {
                Ok(()) => finished.push(Finished { name, output }),
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Err(e),
                Err(e) => return Err(output.write_failed(e)),
            }
        }
        Ok(finished)
    }

    /// What becomes of each output, abandoned (notes for the ones that existed or were
    /// staged).
    pub(super) fn abandoned(&mut self) -> Vec<String> {
        std::mem::take(&mut self.open)
            .into_iter()
            .filter_map(|file| {
                drop(file.writer);
                file.output.into_output().ok()?.abandoned()
            })
            .collect()
    }
}

impl Outputs for Files<'_> {
    fn renderer(&self) -> Option<Renderer> {
        self.renderer.clone()
    }

    fn writer(&mut self, name: &str) -> io::Result<&mut dyn RecordWriter> {
        let at = match self.by_name.get(name) {
            Some(&at) => at,
            None => {
                // An output that cannot be opened names itself.
                self.current = None;
                self.open(name, Path::new(name))?
            }
        };
        self.current = Some(at);
        Ok(&mut *self.open[at].writer)
    }
}

/// The folder of `output` (WTHOR's name files go beside it), `None` for standard output.
pub(super) fn output_dir(output: &Path) -> Option<PathBuf> {
    if output == Path::new("-") {
        return None;
    }
    match output.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => Some(dir.to_path_buf()),
        _ => Some(PathBuf::from(".")),
    }
}
