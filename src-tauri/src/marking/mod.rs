//! Marking quality on the desktop (docs/marking-quality.md): a marker flags the
//! script in front of him to the lead marker; the lead's desk lists the flags and
//! answers them, releasing a task or taking it over.

pub mod commands;
mod flags;

pub use flags::FlagDesk;
