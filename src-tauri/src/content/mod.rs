//! Bringing content in, for administrators (docs/desktop.md, "Content"): a QTI
//! package previewed, then imported, through the server's `ImportQtiPackage`
//! action, so that the server's rules judge it. The server's 403 is the fence.

pub mod commands;
mod import;

pub use import::{import_package, PackageReport};
