//! The package's exceptions are Python classes (`reversi_record/errors.py`), each carrying
//! the diagnostic code; these build them from the library's errors.

use pyo3::prelude::*;
use pyo3::types::PyDict;

/// An exception of class `class` (in `reversi_record.errors`) with `message` and `code`,
/// and keyword attributes `extra`.
pub(crate) fn raise(
    py: Python<'_>,
    class: &str,
    message: impl Into<String>,
    code: &str,
    extra: Option<Bound<'_, PyDict>>,
) -> PyErr {
    let made = (|| -> PyResult<PyErr> {
        let class = py.import("reversi_record.errors")?.getattr(class)?;
        let value = class.call((message.into(), code), extra.as_ref())?;
        Ok(PyErr::from_value(value))
    })();
    made.unwrap_or_else(|e| e)
}

/// A ValueError-like refusal of an argument: `UsageError`.
pub(crate) fn usage(py: Python<'_>, message: impl Into<String>) -> PyErr {
    raise(py, "UsageError", message, "usage", None)
}

/// An I/O failure: `ReadError` (also an `OSError`).
pub(crate) fn io(py: Python<'_>, what: &str, e: &std::io::Error) -> PyErr {
    raise(py, "ReadError", naming(what, e), "io", None)
}

/// A file that could not be written: `WriteError` (also an `OSError`), the path named once.
pub(crate) fn write(py: Python<'_>, path: &str, e: &std::io::Error) -> PyErr {
    raise(py, "WriteError", naming(path, e), "io", None)
}

/// `what: e`, unless the error names `what` already.
fn naming(what: &str, e: &std::io::Error) -> String {
    let message = e.to_string();
    if message.contains(what) {
        message
    } else {
        format!("{what}: {message}")
    }
}

/// A `str` argument whose TypeError says what it takes (`expected str, got int`), where
/// pyo3's says "cannot be converted to 'PyString'".
pub(crate) struct Text(pub(crate) String);

impl std::ops::Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl<'py> FromPyObject<'py> for Text {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        match ob.downcast::<pyo3::types::PyString>() {
            Ok(s) => Ok(Text(s.to_cow()?.into_owned())),
            Err(_) => Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "expected str, got {}",
                type_name(ob)
            ))),
        }
    }
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// A TypeError for argument `name`, which expected `expected` and was given `value`.
pub(crate) fn wrong_type(name: &str, expected: &str, value: &Bound<'_, PyAny>) -> PyErr {
    let given = value
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into());
    pyo3::exceptions::PyTypeError::new_err(format!("{name}: expected {expected}, got {given}"))
}
