//! The people desk's side (issue 34, docs/rosters.md): a school's roster sent to
//! the server's `ImportRoster` (previewed, then imported), the area's participants
//! and groups read for searching, one participant's groups, attempts and results,
//! a participant added or changed with their memberships in one change set, and a
//! group's class list opened in a print window.

pub mod commands;
mod directory;
mod person;
mod roster;

pub use directory::{people_directory, PeopleDirectory};
pub use person::{person_card, save_person, PersonCard, PersonForm};
pub use roster::{import_roster, RosterReport};
