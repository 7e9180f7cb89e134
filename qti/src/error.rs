//! Why a package is refused: the part of it (a file, and where useful the element
//! in it) and what is wrong there. Refusals are whole: nothing of a refused package
//! is imported.

/// A package that cannot be imported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{part}: {message}")]
pub struct PackageError {
    /// The file in the package (`items/q1.xml`), or the element in it
    /// (`items/q1.xml <img src="../../etc/passwd">`), or `package` for the zip itself.
    pub part: String,
    pub message: String,
}

impl PackageError {
    pub(crate) fn new(part: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            part: part.into(),
            message: message.into(),
        }
    }

    /// The zip as a whole.
    pub(crate) fn package(message: impl Into<String>) -> Self {
        Self::new("package", message)
    }

    /// A path problem, named at the element that holds the path
    /// (`items/q1.xml <img src="../x.png">`).
    pub(crate) fn at_path(
        file: &str,
        what: &str,
        value: &str,
        problem: &crate::names::PathProblem,
    ) -> Self {
        Self::new(format!("{file} <{what}=\"{value}\">"), problem.describe())
    }
}
