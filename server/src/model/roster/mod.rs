//! A school's roster as the service takes it in (docs/rosters.md): who the
//! participants are, which groups (classes) there are, and who belongs to which.
//! The records come from a file (documents::roster: a OneRoster 1.1 or 1.2 bulk CSV
//! export, or a plain CSV); the rules that turn them into a plan are here, as pure
//! functions; the store applies the plan in one transaction.

mod matching;
mod oneroster;
mod plain;

pub use matching::{group_fate, participant_fate, Fate, StoredGroup, StoredParticipant};
pub use oneroster::plan_oneroster;
pub use plain::plan_plain;

use std::collections::BTreeMap;

/// Where a record was read: the file inside the export and its line (1: the header).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    pub file: String,
    pub line: u64,
}

/// What is wrong with a roster, and where: nothing of it is stored.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}{}: {message}", line.map(|l| format!(", line {l}")).unwrap_or_default(), column.as_ref().map(|c| format!(", column {c}")).unwrap_or_default())]
pub struct RosterProblem {
    pub file: String,
    pub line: Option<u64>,
    /// The column's name, as the file's header spells it.
    pub column: Option<String>,
    pub message: String,
}

impl RosterProblem {
    pub fn at(place: &Place, column: &str, message: impl Into<String>) -> Self {
        RosterProblem {
            file: place.file.clone(),
            line: Some(place.line),
            column: Some(column.to_owned()),
            message: message.into(),
        }
    }

    pub fn in_file(file: &str, message: impl Into<String>) -> Self {
        RosterProblem {
            file: file.to_owned(),
            line: None,
            column: None,
            message: message.into(),
        }
    }
}

/// The most characters a name, username, e-mail, title or code may have (as an
/// assessment's name): a roster is bounded by its file's size, each field by this.
pub const MAX_FIELD_CHARS: usize = 256;

/// Checks that `value` of `column` is at most [`MAX_FIELD_CHARS`] long.
pub fn bounded(place: &Place, column: &str, value: &str) -> Result<(), RosterProblem> {
    let chars = value.chars().count();
    if chars <= MAX_FIELD_CHARS {
        return Ok(());
    }
    Err(RosterProblem::at(
        place,
        column,
        format!("is {chars} characters; at most {MAX_FIELD_CHARS}"),
    ))
}

/// A OneRoster record's `status`: an empty one (bulk files may leave it out) is active.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Active,
    /// `tobedeleted` (or 1.0's `inactive`): gone from the school's system.
    Gone,
}

impl Status {
    pub fn parse(text: &str, place: &Place) -> Result<Status, RosterProblem> {
        match text.trim().to_ascii_lowercase().as_str() {
            "" | "active" => Ok(Status::Active),
            "tobedeleted" | "inactive" => Ok(Status::Gone),
            other => Err(RosterProblem::at(
                place,
                "status",
                format!("\"{other}\" is not a status (active or tobedeleted)"),
            )),
        }
    }
}

/// A row of `users.csv`.
#[derive(Debug, Clone)]
pub struct UserRecord {
    pub place: Place,
    pub sourced_id: String,
    pub status: Status,
    /// 1.1's `role` column; 1.2 moved roles to `roles.csv`.
    pub role: Option<String>,
    pub username: String,
    pub given_name: String,
    pub family_name: String,
    pub email: String,
}

/// A row of `classes.csv`.
#[derive(Debug, Clone)]
pub struct ClassRecord {
    pub place: Place,
    pub sourced_id: String,
    pub status: Status,
    pub title: String,
    pub class_code: String,
}

/// A row of `enrollments.csv`.
#[derive(Debug, Clone)]
pub struct EnrollmentRecord {
    pub place: Place,
    pub sourced_id: String,
    pub status: Status,
    pub class: String,
    pub user: String,
    pub role: String,
}

/// A row of 1.2's `roles.csv`: a user's role at an org.
#[derive(Debug, Clone)]
pub struct RoleRecord {
    pub user: String,
    pub role: String,
    pub status: Status,
}

/// A OneRoster export's records.
#[derive(Debug, Clone, Default)]
pub struct OneRosterExport {
    /// `oneroster.version` from `manifest.csv`.
    pub version: String,
    pub users: Vec<UserRecord>,
    pub classes: Vec<ClassRecord>,
    pub enrollments: Vec<EnrollmentRecord>,
    /// None when the export has no `roles.csv`.
    pub roles: Option<Vec<RoleRecord>>,
}

/// A row of the plain CSV (`username,first_name,last_name,email,group`).
#[derive(Debug, Clone)]
pub struct PlainRow {
    pub place: Place,
    pub username: String,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub group: String,
}

/// A participant the roster brings in or updates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedParticipant {
    /// The school system's key (OneRoster's sourcedId); none from a plain CSV,
    /// whose participants are known by their username.
    pub key: Option<String>,
    pub username: String,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
}

/// A group (a class) the roster brings in or updates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedGroup {
    /// The class's sourcedId; none from a plain CSV (known by name).
    pub key: Option<String>,
    pub name: String,
    pub code: Option<String>,
}

/// What applying a roster does.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RosterPlan {
    /// Whether records carry the school system's keys (OneRoster): then a
    /// participant's memberships of roster groups become exactly the file's, and
    /// what is gone from the school's system leaves its groups. A plain CSV only adds.
    pub keyed: bool,
    pub participants: Vec<PlannedParticipant>,
    pub groups: Vec<PlannedGroup>,
    /// (group, participant), as indexes into the lists above.
    pub memberships: Vec<(usize, usize)>,
    /// Participants gone from the school's system, by key: removed from their
    /// groups, never their results.
    pub gone_participants: Vec<String>,
    /// Classes gone, by key: their groups are emptied, and kept for their results.
    pub gone_groups: Vec<String>,
    /// Records that are no participant, counted by why ("teacher", "guardian" …).
    pub not_participants: BTreeMap<String, usize>,
}

/// What applying a roster did (or, previewed, would do).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RosterCounts {
    pub participants_created: usize,
    pub participants_updated: usize,
    pub participants_unchanged: usize,
    pub groups_created: usize,
    pub groups_updated: usize,
    pub groups_unchanged: usize,
    pub memberships_added: usize,
    pub memberships_removed: usize,
    /// Participants gone from the school's system who were taken out of their groups.
    pub participants_left: usize,
    /// Groups of classes gone, emptied.
    pub groups_emptied: usize,
}
