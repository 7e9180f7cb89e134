//! Participants and Groups written by administrators (our extension, issue 34,
//! docs/odata.md "Participants and Groups"): POST to add one, PATCH or MERGE to
//! change one (what is not sent stays), and memberships as links from either end:
//! `POST Groups(<ID>)/$links/Participants` with the participant's URL,
//! `DELETE Groups(<ID>)/$links/Participants(<ID>)`, and the same from
//! `Participants(<ID>)/$links/Groups`. The spec's reads are unchanged.

use crate::feeds::handler::write_handler;
use crate::feeds::handler::{check_unchanged, Feed, WriteRequest, Written};
use crate::model::people;
use crate::odata::body::EntityBody;
use crate::odata::filter::Literal;
use crate::odata::model::EntitySet;
use crate::odata::path::{parse_key, EntityPath, Suffix};
use crate::odata::value::Value;
use crate::odata::ApiError;
use crate::store::{GroupFields, PersonFields, WriteScope};

use super::links::{link_key, linked_key};
use super::sets::{GROUPS, PARTICIPANTS};

pub static PARTICIPANTS_FEED: Feed = Feed {
    post: Some(write_handler!(post_participant)),
    merge: Some(write_handler!(merge_participant)),
    delete: Some(write_handler!(unlink)),
    ..Feed::read_only(&PARTICIPANTS)
};

pub static GROUPS_FEED: Feed = Feed {
    post: Some(write_handler!(post_group)),
    merge: Some(write_handler!(merge_group)),
    delete: Some(write_handler!(unlink)),
    ..Feed::read_only(&GROUPS)
};

/// A text property as sent: absent (`None`), null or a string; anything else is a
/// 400 (the body's types are checked against `$metadata` before this).
fn sent<'b>(body: &'b EntityBody, property: &str) -> Option<Option<&'b str>> {
    body.get(property).map(|value| match value {
        Value::String(text) => Some(text.as_str()),
        _ => None,
    })
}

fn bad(message: String) -> ApiError {
    ApiError::bad_request(message)
}

/// The entity's own URL key (`Participants(5)`); a write through a navigation is
/// refused, as everywhere.
fn own_key(request: &WriteRequest<'_>, set: &EntitySet) -> Result<i32, ApiError> {
    if !request.path.steps.is_empty() {
        return Err(bad(format!(
            "{} are written at {}(<ID>); memberships are $links",
            set.name, set.name
        )));
    }
    match request.path.key.as_ref().and_then(|key| key.0.first()) {
        Some((_, Literal::Int32(id))) => Ok(*id),
        _ => Err(request.missing()),
    }
}

fn created(set: &'static EntitySet, id: i32) -> Result<Written, ApiError> {
    Ok(Written::Created {
        path: EntityPath {
            set,
            key: Some(parse_key(set, &id.to_string())?),
            steps: Vec::new(),
            suffix: Suffix::None,
            links: false,
        },
        key: id.to_string(),
    })
}

/// The participant the body describes, over `base` (PATCH) or nothing (POST).
fn person(body: &EntityBody, base: Option<PersonFields>) -> Result<PersonFields, ApiError> {
    let keep = |property: &str, stored: Option<String>| -> Option<String> {
        match sent(body, property) {
            None => stored,
            Some(value) => value.map(str::to_owned),
        }
    };
    let base = base.unwrap_or(PersonFields {
        name: String::new(),
        first_name: None,
        last_name: None,
        email: None,
    });
    let name = keep("Name", Some(base.name));
    Ok(PersonFields {
        name: people::required(
            "Participant",
            "Name",
            name.as_deref(),
            "the participant's username, unique in the area",
        )
        .map_err(bad)?,
        first_name: people::text(
            "Participant",
            "FirstName",
            keep("FirstName", base.first_name).as_deref(),
        )
        .map_err(bad)?,
        last_name: people::text(
            "Participant",
            "LastName",
            keep("LastName", base.last_name).as_deref(),
        )
        .map_err(bad)?,
        email: people::email(keep("PrimaryEmail", base.email).as_deref()).map_err(bad)?,
    })
}

fn group(body: &EntityBody, base: Option<GroupFields>) -> Result<GroupFields, ApiError> {
    let base = base.unwrap_or(GroupFields {
        name: String::new(),
        description: None,
    });
    let name = match sent(body, "Name") {
        None => Some(base.name),
        Some(value) => value.map(str::to_owned),
    };
    let description = match sent(body, "Description") {
        None => base.description,
        Some(value) => value.map(str::to_owned),
    };
    Ok(GroupFields {
        name: people::required(
            "Group",
            "Name",
            name.as_deref(),
            "the group's name, unique in the area",
        )
        .map_err(bad)?,
        description: people::text("Group", "Description", description.as_deref()).map_err(bad)?,
    })
}

async fn post_participant(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    if request.path.links {
        return link(request, writes).await;
    }
    if request.path.key.is_some() || !request.path.steps.is_empty() {
        return Err(bad("a participant is added by POST to Participants".into()));
    }
    let fields = person(&request.entity(&PARTICIPANTS)?, None)?;
    let tx = writes.tx().await?;
    if let Some(other) = tx.person_named(request.area, &fields.name).await? {
        return Err(ApiError::Conflict(format!(
            "Participant.Name \"{}\" is participant {other}'s: usernames are unique in an area",
            fields.name
        )));
    }
    let id = tx.insert_person(request.area, &fields).await?;
    created(&PARTICIPANTS, id)
}

async fn merge_participant(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    let id = own_key(request, &PARTICIPANTS)?;
    let body = request.entity(&PARTICIPANTS)?;
    check_unchanged(
        &body,
        &PARTICIPANTS,
        &[("ID", Value::Int32(id))],
        &["Name", "FirstName", "LastName", "PrimaryEmail"],
    )?;
    let tx = writes.tx().await?;
    let stored = tx
        .person(request.area, id)
        .await?
        .ok_or_else(|| request.missing())?;
    let fields = person(&body, Some(stored))?;
    if let Some(other) = tx
        .person_named(request.area, &fields.name)
        .await?
        .filter(|other| *other != id)
    {
        return Err(ApiError::Conflict(format!(
            "Participant.Name \"{}\" is participant {other}'s: usernames are unique in an area",
            fields.name
        )));
    }
    tx.update_person(request.area, id, &fields).await?;
    Ok(Written::Replaced { etag: None })
}

async fn post_group(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    if request.path.links {
        return link(request, writes).await;
    }
    if request.path.key.is_some() || !request.path.steps.is_empty() {
        return Err(bad("a group is added by POST to Groups".into()));
    }
    let fields = group(&request.entity(&GROUPS)?, None)?;
    let tx = writes.tx().await?;
    if let Some(other) = tx.group_named(request.area, &fields.name).await? {
        return Err(ApiError::Conflict(format!(
            "Group.Name \"{}\" is group {other}'s: group names are unique in an area",
            fields.name
        )));
    }
    let id = tx.insert_group_fields(request.area, &fields).await?;
    created(&GROUPS, id)
}

async fn merge_group(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    let id = own_key(request, &GROUPS)?;
    let body = request.entity(&GROUPS)?;
    check_unchanged(
        &body,
        &GROUPS,
        &[("ID", Value::Int32(id))],
        &["Name", "Description"],
    )?;
    let tx = writes.tx().await?;
    let stored = tx
        .group_fields(request.area, id)
        .await?
        .ok_or_else(|| request.missing())?;
    let fields = group(&body, Some(stored))?;
    if let Some(other) = tx
        .group_named(request.area, &fields.name)
        .await?
        .filter(|other| *other != id)
    {
        return Err(ApiError::Conflict(format!(
            "Group.Name \"{}\" is group {other}'s: group names are unique in an area",
            fields.name
        )));
    }
    tx.update_group(request.area, id, &fields).await?;
    Ok(Written::Replaced { etag: None })
}

/// The group and the participant a link joins, whichever end the path starts at:
/// the path's entity, and the other named by `other`. 404 for a path entity not in
/// the area; 400 for a linked one not in it.
async fn ends(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
    other: i32,
) -> Result<(i32, i32), ApiError> {
    let this = link_key(request)?;
    let from_group = request.path.set.name == GROUPS.name;
    let (group, participant) = if from_group {
        (this, other)
    } else {
        (other, this)
    };
    let tx = writes.tx().await?;
    let group_found = tx.group_fields(request.area, group).await?.is_some();
    let participant_found = tx.person(request.area, participant).await?.is_some();
    let (path_found, linked_found) = if from_group {
        (group_found, participant_found)
    } else {
        (participant_found, group_found)
    };
    if !path_found {
        return Err(request.missing());
    }
    if !linked_found {
        let (kind, id) = if from_group {
            ("participant", participant)
        } else {
            ("group", group)
        };
        return Err(bad(format!(
            "the link names {kind} {id}, which is not in this customer area"
        )));
    }
    Ok((group, participant))
}

async fn link(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    let other = linked_key(request)?;
    let (group, participant) = ends(request, writes, other).await?;
    writes
        .tx()
        .await?
        .add_member(request.area, group, participant)
        .await?;
    Ok(Written::Replaced { etag: None })
}

async fn unlink(
    request: &WriteRequest<'_>,
    writes: &mut WriteScope<'_>,
) -> Result<Written, ApiError> {
    let other = match request
        .path
        .steps
        .first()
        .and_then(|s| s.key.as_ref())
        .and_then(|k| k.0.first())
    {
        Some((_, Literal::Int32(id))) if request.path.links => *id,
        _ => {
            return Err(bad(
                "only a link is deleted here: DELETE Groups(<ID>)/$links/Participants(<ID>)".into(),
            ))
        }
    };
    let (group, participant) = ends(request, writes, other).await?;
    if !writes
        .tx()
        .await?
        .remove_member(request.area, group, participant)
        .await?
    {
        return Err(ApiError::not_found(format!(
            "participant {participant} is not a member of group {group}"
        )));
    }
    Ok(Written::Deleted)
}
