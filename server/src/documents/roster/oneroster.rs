//! A OneRoster bulk CSV export's files read into records: the manifest first (a
//! version this reader knows, and bulk files: a delta export is refused, as it
//! only says what changed), then users, classes, enrolments and, for 1.2, roles.

use super::table::{Row, Table};
use crate::model::roster::{
    ClassRecord, EnrollmentRecord, OneRosterExport, RoleRecord, RosterProblem, Status, UserRecord,
};

const VERSIONS: [&str; 3] = ["1.0", "1.1", "1.2"];

type Files<'a> = dyn FnMut(&str) -> Result<Option<Vec<u8>>, RosterProblem> + 'a;

fn required(files: &mut Files, name: &str) -> Result<Table, RosterProblem> {
    match files(name)? {
        Some(bytes) => Table::read(name, &bytes),
        None => Err(RosterProblem::in_file(name, "is missing from the export")),
    }
}

/// The manifest's `oneroster.version`, once its files are known to be bulk.
fn check_manifest(files: &mut Files) -> Result<String, RosterProblem> {
    let manifest = required(files, "manifest.csv")?;
    manifest.require(&["propertyName", "value"])?;
    let mut version = None;
    for row in manifest.rows() {
        let property = row.get("propertyName").trim();
        let value = row.get("value").trim();
        if property.eq_ignore_ascii_case("oneroster.version") {
            if !VERSIONS.contains(&value) {
                return Err(RosterProblem::at(
                    &row.place,
                    "value",
                    format!("OneRoster {value} is not read here (1.0, 1.1 or 1.2 are)"),
                ));
            }
            version = Some(value.to_owned());
        }
        let file = property.strip_prefix("file.").unwrap_or("");
        if ["users", "classes", "enrollments"].contains(&file)
            && value.eq_ignore_ascii_case("delta")
        {
            return Err(RosterProblem::at(
                &row.place,
                "value",
                format!("{file}.csv is a delta file: export the roster in bulk"),
            ));
        }
    }
    version.ok_or_else(|| RosterProblem::in_file("manifest.csv", "has no oneroster.version"))
}

fn status(table_row: &Row) -> Result<Status, RosterProblem> {
    Status::parse(table_row.get("status"), &table_row.place)
}

/// Reads an export whose files `files` gives by name.
pub fn read(files: &mut Files) -> Result<OneRosterExport, RosterProblem> {
    let version = check_manifest(files)?;
    let users_table = required(files, "users.csv")?;
    users_table.require(&["sourcedId", "username", "givenName", "familyName"])?;
    let mut users = Vec::new();
    for row in users_table.rows() {
        users.push(UserRecord {
            sourced_id: row.get("sourcedId").trim().to_owned(),
            status: status(&row)?,
            role: users_table
                .has("role")
                .then(|| row.get("role").trim().to_owned()),
            username: row.get("username").to_owned(),
            given_name: row.get("givenName").to_owned(),
            family_name: row.get("familyName").to_owned(),
            email: row.get("email").to_owned(),
            place: row.place,
        });
    }
    let classes_table = required(files, "classes.csv")?;
    classes_table.require(&["sourcedId", "title"])?;
    let mut classes = Vec::new();
    for row in classes_table.rows() {
        classes.push(ClassRecord {
            sourced_id: row.get("sourcedId").trim().to_owned(),
            status: status(&row)?,
            title: row.get("title").to_owned(),
            class_code: row.get("classCode").to_owned(),
            place: row.place,
        });
    }
    let enrollments_table = required(files, "enrollments.csv")?;
    enrollments_table.require(&["sourcedId", "classSourcedId", "userSourcedId", "role"])?;
    let mut enrollments = Vec::new();
    for row in enrollments_table.rows() {
        enrollments.push(EnrollmentRecord {
            sourced_id: row.get("sourcedId").trim().to_owned(),
            status: status(&row)?,
            class: row.get("classSourcedId").trim().to_owned(),
            user: row.get("userSourcedId").trim().to_owned(),
            role: row.get("role").trim().to_owned(),
            place: row.place,
        });
    }
    let roles = match files("roles.csv")? {
        None => None,
        Some(bytes) => {
            let table = Table::read("roles.csv", &bytes)?;
            table.require(&["userSourcedId", "role"])?;
            let mut roles = Vec::new();
            for row in table.rows() {
                roles.push(RoleRecord {
                    user: row.get("userSourcedId").trim().to_owned(),
                    role: row.get("role").trim().to_owned(),
                    status: status(&row)?,
                });
            }
            Some(roles)
        }
    };
    Ok(OneRosterExport {
        version,
        users,
        classes,
        enrollments,
        roles,
    })
}
