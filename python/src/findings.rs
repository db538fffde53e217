//! `validate()`'s `diagnostics`: a sequence of `Diagnostic`s kept on disk, not in memory.
//! The run writes each game's diagnostics as a line of JSON (the shape of `reversi validate
//! --format jsonl`) into an unnamed temporary file and keeps where each line starts (8
//! bytes a finding); a `Diagnostic` is made when it is asked for. A run of a million
//! findings holds 8 MB, where a list of `Diagnostic`s held 1.3 GB.

use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::sync::Mutex;

use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PySlice};

use crate::convert::to_py;
use crate::games::diagnostic_class;

/// The diagnostics being written, before they become [`Findings`].
pub(crate) struct Spool {
    out: BufWriter<File>,
    /// Where each line starts, and the end of the last.
    offsets: Vec<u64>,
    at: u64,
}

impl Spool {
    /// A spool in the system's temporary folder (an unnamed file: nothing is left behind).
    pub(crate) fn new() -> io::Result<Spool> {
        let file = reversi_formats::output::unnamed_in(&std::env::temp_dir())?;
        Ok(Spool {
            out: BufWriter::with_capacity(256 * 1024, file),
            offsets: vec![0],
            at: 0,
        })
    }

    /// One more finding, in its JSON shape.
    pub(crate) fn push(&mut self, value: &impl serde::Serialize) -> io::Result<()> {
        let mut line = serde_json::to_vec(value).map_err(io::Error::other)?;
        line.push(b'\n');
        self.out.write_all(&line)?;
        self.at += line.len() as u64;
        self.offsets.push(self.at);
        Ok(())
    }

    /// The findings written, to be read back one at a time.
    pub(crate) fn finish(self) -> io::Result<Findings> {
        let file = self.out.into_inner().map_err(|e| e.into_error())?;
        Ok(Findings {
            file: Mutex::new(file),
            offsets: self.offsets,
        })
    }
}

/// The diagnostics of a `validate()` run, in order: a read-only sequence of `Diagnostic`s
/// (`len`, indexing, slices, iteration, `==` with any sequence), kept on disk; `list()`
/// makes a list of them.
#[pyclass(module = "reversi_record", name = "Findings", sequence, frozen)]
pub(crate) struct Findings {
    file: Mutex<File>,
    offsets: Vec<u64>,
}

impl Findings {
    fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// The `i`-th finding as a `Diagnostic`.
    fn get(&self, py: Python<'_>, i: usize) -> PyResult<PyObject> {
        let (start, end) = match (self.offsets.get(i), self.offsets.get(i + 1)) {
            (Some(&start), Some(&end)) => (start, end),
            _ => return Err(PyIndexError::new_err("finding index out of range")),
        };
        let mut bytes = vec![0; usize::try_from(end - start).unwrap_or(0)];
        {
            let mut file = self
                .file
                .lock()
                .map_err(|_| PyRuntimeError::new_err("the findings' file is poisoned"))?;
            file.seek(SeekFrom::Start(start))
                .and_then(|_| file.read_exact(&mut bytes))
                .map_err(|e| PyRuntimeError::new_err(format!("reading the findings back: {e}")))?;
        }
        let value: serde_json::Value = serde_json::from_slice(&bytes)
            .map_err(|e| PyRuntimeError::new_err(format!("reading the findings back: {e}")))?;
        Ok(diagnostic_class(py)?.call1((to_py(py, &value)?,))?.unbind())
    }
}

#[pymethods]
impl Findings {
    fn __len__(&self) -> usize {
        self.len()
    }

    fn __getitem__(&self, py: Python<'_>, index: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        if let Ok(slice) = index.downcast::<PySlice>() {
            let len = isize::try_from(self.len()).unwrap_or(isize::MAX);
            let indices = slice.indices(len)?;
            let list = PyList::empty(py);
            let mut at = indices.start;
            for _ in 0..indices.slicelength {
                list.append(self.get(py, usize::try_from(at).unwrap_or(usize::MAX))?)?;
                at += indices.step;
            }
            return Ok(list.into_any().unbind());
        }
        let i: isize = index
            .extract()
            .map_err(|_| PyTypeError::new_err("findings are indexed by an int or a slice"))?;
        let len = self.len() as isize;
        let at = if i < 0 { i + len } else { i };
        if at < 0 || at >= len {
            return Err(PyIndexError::new_err("finding index out of range"));
        }
        self.get(py, at as usize)
    }

    fn __iter__(slf: Py<Self>) -> FindingsIter {
        FindingsIter {
            findings: slf,
            next: 0,
        }
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(len) = other.len() else {
            return Ok(false);
        };
        if len != self.len() {
            return Ok(false);
        }
        for (i, theirs) in other.try_iter()?.enumerate() {
            if !self.get(py, i)?.bind(py).eq(theirs?)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Pickled (and copied) as the list of its `Diagnostic`s.
    fn __reduce__(&self, py: Python<'_>) -> PyResult<(PyObject, (PyObject,))> {
        let list = PyList::empty(py);
        for i in 0..self.len() {
            list.append(self.get(py, i)?)?;
        }
        let builtins = py.import("builtins")?;
        Ok((
            builtins.getattr("list")?.unbind(),
            (list.into_any().unbind(),),
        ))
    }

    fn __repr__(&self) -> String {
        format!("<Findings: {} diagnostics, kept on disk>", self.len())
    }
}

/// Iterating over [`Findings`].
#[pyclass(module = "reversi_record", name = "FindingsIterator")]
pub(crate) struct FindingsIter {
    findings: Py<Findings>,
    next: usize,
}

#[pymethods]
impl FindingsIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<PyObject>> {
        let findings = self.findings.get();
        if self.next >= findings.len() {
            return Ok(None);
        }
        self.next += 1;
        findings.get(py, self.next - 1).map(Some)
    }
}
