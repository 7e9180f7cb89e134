//! Malformed rosters (issue 34): each kind of fault a school's export or a
//! hand-made CSV can have is refused with the file, line and column it is at, and
//! nothing is planned. A small sound export is spoiled one way per case.

use std::path::Path;

use super::{read_roster, MAX_FILE_BYTES};
use crate::model::roster::RosterProblem;

pub(super) const MANIFEST: &str = "propertyName,value\nmanifest.version,1.0\noneroster.version,1.1\nfile.users,bulk\nfile.classes,bulk\nfile.enrollments,bulk\n";
pub(super) const USERS: &str = "sourcedId,status,role,username,givenName,familyName,email\nu1,active,student,ana,Ana,Ruiz,\nu2,active,student,ben,Ben,Ode,\nu3,active,teacher,tia,Tia,Kay,\n";
pub(super) const CLASSES: &str =
    "sourcedId,status,title,classCode\nc1,active,Maths,M1\nc2,active,Art,A1\n";
pub(super) const ENROLLMENTS: &str = "sourcedId,status,classSourcedId,userSourcedId,role\ne1,active,c1,u1,student\ne2,active,c2,u2,student\ne3,active,c1,u3,teacher\n";

/// The sound export with `file` replaced by `bytes` (None: left out).
fn export(dir: &Path, file: &str, bytes: Option<&[u8]>) {
    for (name, text) in [
        ("manifest.csv", MANIFEST),
        ("users.csv", USERS),
        ("classes.csv", CLASSES),
        ("enrollments.csv", ENROLLMENTS),
    ] {
        if name != file {
            std::fs::write(dir.join(name), text).unwrap();
        }
    }
    if let Some(bytes) = bytes {
        std::fs::write(dir.join(file), bytes).unwrap();
    }
}

fn refused(file: &str, bytes: Option<&[u8]>) -> RosterProblem {
    let dir = tempfile::tempdir().unwrap();
    export(dir.path(), file, bytes);
    match read_roster(dir.path()).and_then(|source| source.plan()) {
        Ok(plan) => panic!("{file} was accepted: {plan:?}"),
        Err(problem) => problem,
    }
}

#[track_caller]
pub(super) fn says(
    problem: &RosterProblem,
    file: &str,
    line: Option<u64>,
    column: Option<&str>,
    words: &str,
) {
    assert_eq!(problem.file, file, "{problem}");
    assert_eq!(problem.line, line, "{problem}");
    assert_eq!(problem.column.as_deref(), column, "{problem}");
    assert!(problem.message.contains(words), "{problem}");
}

#[test]
fn the_sound_export_is_planned() {
    let dir = tempfile::tempdir().unwrap();
    export(dir.path(), "", None);
    let plan = read_roster(dir.path()).unwrap().plan().unwrap();
    assert_eq!(plan.participants.len(), 2);
    assert_eq!(plan.groups.len(), 2);
    assert_eq!(plan.memberships.len(), 2);
}

#[test]
fn a_missing_manifest_or_file_is_named() {
    says(
        &refused("manifest.csv", None),
        "manifest.csv",
        None,
        None,
        "is missing from the export",
    );
    says(
        &refused("enrollments.csv", None),
        "enrollments.csv",
        None,
        None,
        "is missing",
    );
}

#[test]
fn an_unknown_version_and_a_delta_export_are_refused() {
    let version = MANIFEST.replace("oneroster.version,1.1", "oneroster.version,2.0");
    says(
        &refused("manifest.csv", Some(version.as_bytes())),
        "manifest.csv",
        Some(3),
        Some("value"),
        "OneRoster 2.0 is not read here",
    );
    let delta = MANIFEST.replace("file.users,bulk", "file.users,delta");
    says(
        &refused("manifest.csv", Some(delta.as_bytes())),
        "manifest.csv",
        Some(4),
        Some("value"),
        "export the roster in bulk",
    );
}

#[test]
fn a_missing_column_is_named_with_the_header() {
    let users = USERS.replace("username,", "login,");
    says(
        &refused("users.csv", Some(users.as_bytes())),
        "users.csv",
        Some(1),
        None,
        "has no column username",
    );
}

#[test]
fn an_enrolment_of_an_unknown_class_or_user_names_its_line() {
    let class = ENROLLMENTS.replace("e2,active,c2,", "e2,active,c9,");
    says(
        &refused("enrollments.csv", Some(class.as_bytes())),
        "enrollments.csv",
        Some(3),
        Some("classSourcedId"),
        "no class \"c9\"",
    );
    let user = ENROLLMENTS.replace("c2,u2,", "c2,u7,");
    says(
        &refused("enrollments.csv", Some(user.as_bytes())),
        "enrollments.csv",
        Some(3),
        Some("userSourcedId"),
        "no user \"u7\"",
    );
}

#[test]
fn a_sourced_id_twice_names_both_lines() {
    let users = USERS.replace("u2,active", "u1,active");
    says(
        &refused("users.csv", Some(users.as_bytes())),
        "users.csv",
        Some(3),
        Some("sourcedId"),
        "already on line 2",
    );
    let empty = USERS.replace("u2,active", ",active");
    says(
        &refused("users.csv", Some(empty.as_bytes())),
        "users.csv",
        Some(3),
        Some("sourcedId"),
        "is empty",
    );
}

#[test]
fn text_not_in_utf8_names_its_field() {
    let mut users = USERS.replace("Ben,Ode", "Ben,ODE").into_bytes();
    let at = users.windows(3).position(|w| w == b"ODE").unwrap();
    users[at + 1] = 0xD6; // Latin-1's Ö
    says(
        &refused("users.csv", Some(&users)),
        "users.csv",
        Some(3),
        Some("familyName"),
        "is not UTF-8",
    );
}

#[test]
fn a_row_of_another_width_and_an_open_quote_are_refused() {
    let wide = USERS.replace(
        "u2,active,student,ben,Ben,Ode,",
        "u2,active,student,ben,Ben,Ode,,extra",
    );
    // Trailing empty header names and empty fields past them are tolerated, as
    // exports in the wild have them; a short row is not.
    let trailing = USERS
        .replace(
            "givenName,familyName,email\n",
            "givenName,familyName,email,,\n",
        )
        .replace("Ana,Ruiz,\n", "Ana,Ruiz,,\n");
    let dir = tempfile::tempdir().unwrap();
    export(dir.path(), "users.csv", Some(trailing.as_bytes()));
    assert_eq!(
        read_roster(dir.path())
            .unwrap()
            .plan()
            .unwrap()
            .participants
            .len(),
        2
    );
    let short = USERS.replace(
        "u2,active,student,ben,Ben,Ode,",
        "u2,active,student,ben,Ben",
    );
    says(
        &refused("users.csv", Some(short.as_bytes())),
        "users.csv",
        Some(3),
        None,
        "has 5 fields where the header has 7",
    );
    says(
        &refused("users.csv", Some(wide.as_bytes())),
        "users.csv",
        Some(3),
        None,
        "has 8 fields where the header has 7",
    );
    let open = USERS.replace("Ben,Ode", "\"Ben,Ode");
    let problem = refused("users.csv", Some(open.as_bytes()));
    assert_eq!(problem.file, "users.csv", "{problem}");
    assert!(problem.line.is_some(), "{problem}");
}

#[test]
fn a_status_the_standard_does_not_have_is_named() {
    let users = USERS.replace("u2,active", "u2,archived");
    says(
        &refused("users.csv", Some(users.as_bytes())),
        "users.csv",
        Some(3),
        Some("status"),
        "\"archived\" is not a status",
    );
}

#[test]
fn a_student_without_a_username_or_with_anothers_is_refused() {
    let none = USERS.replace("student,ben,", "student,,");
    says(
        &refused("users.csv", Some(none.as_bytes())),
        "users.csv",
        Some(3),
        Some("username"),
        "needs a username",
    );
    let twice = USERS.replace("student,ben,", "student,ANA,");
    says(
        &refused("users.csv", Some(twice.as_bytes())),
        "users.csv",
        Some(3),
        Some("username"),
        "already the username of the student on line 2",
    );
}

#[test]
fn classes_without_a_title_or_with_one_title_and_no_code_are_refused() {
    let untitled = CLASSES.replace("c2,active,Art,", "c2,active,,");
    says(
        &refused("classes.csv", Some(untitled.as_bytes())),
        "classes.csv",
        Some(3),
        Some("title"),
        "needs a title",
    );
    let same = CLASSES
        .replace("Maths,M1", "Maths,")
        .replace("c2,active,Art,A1", "c2,active,maths,");
    says(
        &refused("classes.csv", Some(same.as_bytes())),
        "classes.csv",
        Some(3),
        Some("title"),
        "also the class on line 2",
    );
}

#[test]
fn an_empty_file_is_refused() {
    says(
        &refused("classes.csv", Some(b"")),
        "classes.csv",
        None,
        None,
        "is empty",
    );
    says(
        &refused("users.csv", Some(b"\xEF\xBB\xBF")),
        "users.csv",
        None,
        None,
        "is empty",
    );
}

#[test]
fn a_file_over_the_limit_is_refused_before_it_is_read() {
    let dir = tempfile::tempdir().unwrap();
    export(dir.path(), "users.csv", None);
    let big = std::fs::File::create(dir.path().join("users.csv")).unwrap();
    big.set_len(MAX_FILE_BYTES + 1).unwrap();
    let problem = read_roster(dir.path()).err().unwrap();
    says(
        &problem,
        "users.csv",
        None,
        None,
        "a roster's file may be at most 64 MB",
    );
}

#[test]
fn a_field_longer_than_a_name_can_be_is_refused_by_column() {
    let long = "x".repeat(300);
    let users = USERS.replace("Ben,Ode", &format!("{long},Ode"));
    says(
        &refused("users.csv", Some(users.as_bytes())),
        "users.csv",
        Some(3),
        Some("givenName"),
        "is 300 characters; at most 256",
    );
    let classes = CLASSES.replace("Art,A1", &format!("{long},A1"));
    says(
        &refused("classes.csv", Some(classes.as_bytes())),
        "classes.csv",
        Some(3),
        Some("title"),
        "is 300 characters",
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("class.csv");
    std::fs::write(&path, format!("username,group\nana,{long}\n")).unwrap();
    says(
        &read_roster(&path).unwrap().plan().unwrap_err(),
        "class.csv",
        Some(2),
        Some("group"),
        "at most 256",
    );
}
