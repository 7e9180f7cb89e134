//! The area's participants and groups, read whole for the people desk, which
//! searches them as the user types (the OData feeds filter by equality only;
//! a school's few thousand people are one read).

use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

use crate::client::ODataClient;
use crate::error::CommandError;

/// The most participants the desk reads; beyond it the desk says the list is cut.
pub const MAX_PEOPLE: usize = 50_000;
const MAX_GROUPS: usize = 5_000;

#[derive(Debug, Clone, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct Person {
    pub id: String,
    pub username: String,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct GroupLine {
    pub id: String,
    pub name: String,
    pub description: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct PeopleDirectory {
    /// By family name, given name, username.
    pub people: Vec<Person>,
    /// By name.
    pub groups: Vec<GroupLine>,
    /// More participants than [`MAX_PEOPLE`]: the list holds the first of them.
    pub cut: bool,
}

fn text(entry: &Value, property: &str) -> String {
    entry[property].as_str().unwrap_or_default().to_owned()
}

pub(super) fn person_of(entry: &Value) -> Option<Person> {
    Some(Person {
        id: entry["ID"].as_i64()?.to_string(),
        username: text(entry, "Name"),
        first_name: text(entry, "FirstName"),
        last_name: text(entry, "LastName"),
        email: text(entry, "PrimaryEmail"),
    })
}

pub(super) fn group_of(entry: &Value) -> Option<GroupLine> {
    Some(GroupLine {
        id: entry["ID"].as_i64()?.to_string(),
        name: text(entry, "Name"),
        description: text(entry, "Description"),
    })
}

/// Everyone and every group of the area.
pub async fn people_directory(client: &ODataClient) -> Result<PeopleDirectory, CommandError> {
    let (people, groups) = futures::try_join!(
        client.get_all(
            "Participants",
            &[
                ("$select", "ID,Name,FirstName,LastName,PrimaryEmail"),
                ("$orderby", "ID"),
            ],
            MAX_PEOPLE + 1,
        ),
        client.get_all(
            "Groups",
            &[("$select", "ID,Name,Description"), ("$orderby", "Name")],
            MAX_GROUPS,
        ),
    )?;
    let cut = people.len() > MAX_PEOPLE;
    let mut people: Vec<Person> = people
        .iter()
        .take(MAX_PEOPLE)
        .filter_map(person_of)
        .collect();
    people.sort_by_cached_key(|p| {
        (
            p.last_name.to_lowercase(),
            p.first_name.to_lowercase(),
            p.username.clone(),
        )
    });
    Ok(PeopleDirectory {
        people,
        groups: groups.iter().filter_map(group_of).collect(),
        cut,
    })
}
