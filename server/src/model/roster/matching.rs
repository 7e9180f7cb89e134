//! Which stored participant or group a planned one is: by the school system's key
//! when it has one, else by username or name. A stored one without a key is taken
//! over by the roster (its key set); one with another key is a conflict, named, and
//! nothing is stored.

use super::{PlannedGroup, PlannedParticipant};

/// A participant as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredParticipant {
    pub id: i32,
    pub username: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub email: Option<String>,
    pub key: Option<String>,
}

/// A group as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredGroup {
    pub id: i32,
    pub name: String,
    pub key: Option<String>,
    pub code: Option<String>,
}

/// What becomes of a planned record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fate {
    Created,
    /// The stored one (its id), changed to what the roster says.
    Updated(i32),
    Unchanged(i32),
}

/// A stored record the roster may match: its ID and its key in the school's system.
trait Keyed {
    fn id(&self) -> i32;
    fn key(&self) -> Option<&str>;
}

impl Keyed for StoredParticipant {
    fn id(&self) -> i32 {
        self.id
    }
    fn key(&self) -> Option<&str> {
        self.key.as_deref()
    }
}

impl Keyed for StoredGroup {
    fn id(&self) -> i32 {
        self.id
    }
    fn key(&self) -> Option<&str> {
        self.key.as_deref()
    }
}

/// The stored record a planned one with `key` is: the one with its key, else the
/// one with its name unless that one has another key. `taken` says what holds the
/// name (the stored one's ID); `claimed`, whose key the name has.
fn stored<'a, T: Keyed>(
    key: Option<&str>,
    by_key: Option<&'a T>,
    by_name: Option<&'a T>,
    taken: impl Fn(i32) -> String,
    claimed: impl Fn(&str, &str) -> String,
) -> Result<Option<&'a T>, String> {
    match (by_key, by_name) {
        (Some(keyed), Some(named)) if keyed.id() != named.id() => Err(taken(named.id())),
        (Some(keyed), _) => Ok(Some(keyed)),
        (None, Some(named)) => match (named.key(), key) {
            (Some(theirs), Some(ours)) if theirs != ours => Err(claimed(theirs, ours)),
            _ => Ok(Some(named)),
        },
        (None, None) => Ok(None),
    }
}

/// The planned participant's fate, given the stored one with its key and the one
/// with its username.
pub fn participant_fate(
    planned: &PlannedParticipant,
    by_key: Option<&StoredParticipant>,
    by_username: Option<&StoredParticipant>,
) -> Result<Fate, String> {
    let name = &planned.username;
    let found = stored(
        planned.key.as_deref(),
        by_key,
        by_username,
        |id| {
            format!("username \"{name}\" is already another participant's (ID {id}); the roster's {} would take it", planned.key.as_deref().unwrap_or(""))
        },
        |theirs, ours| {
            format!("username \"{name}\" belongs to the school system's {theirs}, not {ours}")
        },
    )?;
    let Some(stored) = found else {
        return Ok(Fate::Created);
    };
    let text = |value: &Option<String>| value.clone().unwrap_or_default();
    let same = stored.username == planned.username
        && text(&stored.first_name) == planned.first_name
        && text(&stored.last_name) == planned.last_name
        && text(&stored.email) == planned.email
        && (planned.key.is_none() || stored.key == planned.key);
    Ok(if same {
        Fate::Unchanged(stored.id)
    } else {
        Fate::Updated(stored.id)
    })
}

/// The planned group's fate, given the stored one with its key and the one with its name.
pub fn group_fate(
    planned: &PlannedGroup,
    by_key: Option<&StoredGroup>,
    by_name: Option<&StoredGroup>,
) -> Result<Fate, String> {
    let name = &planned.name;
    let found = stored(
        planned.key.as_deref(),
        by_key,
        by_name,
        |id| format!("a group is already named \"{name}\" (ID {id}); rename it or the class"),
        |theirs, _| {
            format!("a group is already named \"{name}\", for the school system's class {theirs}")
        },
    )?;
    let Some(stored) = found else {
        return Ok(Fate::Created);
    };
    let same = stored.name == planned.name
        && (planned.key.is_none() || (stored.key == planned.key && stored.code == planned.code));
    Ok(if same {
        Fate::Unchanged(stored.id)
    } else {
        Fate::Updated(stored.id)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn planned(key: Option<&str>, username: &str) -> PlannedParticipant {
        PlannedParticipant {
            key: key.map(str::to_owned),
            username: username.to_owned(),
            first_name: "Ana".to_owned(),
            last_name: "Núñez".to_owned(),
            email: String::new(),
        }
    }

    fn stored(id: i32, key: Option<&str>, username: &str) -> StoredParticipant {
        StoredParticipant {
            id,
            username: username.to_owned(),
            first_name: Some("Ana".to_owned()),
            last_name: Some("Núñez".to_owned()),
            email: None,
            key: key.map(str::to_owned),
        }
    }

    #[test]
    fn a_keyed_participant_is_found_by_key_even_renamed() {
        let old = stored(4, Some("s1"), "ana.old");
        let fate = participant_fate(&planned(Some("s1"), "ana"), Some(&old), None);
        assert_eq!(fate, Ok(Fate::Updated(4)));
        let same = stored(4, Some("s1"), "ana");
        assert_eq!(
            participant_fate(&planned(Some("s1"), "ana"), Some(&same), Some(&same)),
            Ok(Fate::Unchanged(4))
        );
    }

    #[test]
    fn a_stored_participant_without_a_key_is_taken_over_and_one_with_another_key_is_a_conflict() {
        let loose = stored(5, None, "ana");
        assert_eq!(
            participant_fate(&planned(Some("s1"), "ana"), None, Some(&loose)),
            Ok(Fate::Updated(5))
        );
        let other = stored(6, Some("s9"), "ana");
        let refused = participant_fate(&planned(Some("s1"), "ana"), None, Some(&other));
        assert!(refused
            .unwrap_err()
            .contains("belongs to the school system's s9"));
        let keyed = stored(7, Some("s1"), "ana.b");
        assert!(participant_fate(&planned(Some("s1"), "ana"), Some(&keyed), Some(&other)).is_err());
    }

    #[test]
    fn a_plain_row_matches_by_username_whatever_the_key() {
        let keyed = stored(8, Some("s1"), "ana");
        assert_eq!(
            participant_fate(&planned(None, "ana"), None, Some(&keyed)),
            Ok(Fate::Unchanged(8))
        );
        assert_eq!(
            participant_fate(&planned(None, "new"), None, None),
            Ok(Fate::Created)
        );
    }

    fn group(id: i32, key: Option<&str>, name: &str) -> StoredGroup {
        StoredGroup {
            id,
            name: name.to_owned(),
            key: key.map(str::to_owned),
            code: None,
        }
    }

    #[test]
    fn a_class_renamed_keeps_its_group_and_a_name_held_by_another_class_is_a_conflict() {
        let planned = PlannedGroup {
            key: Some("c1".to_owned()),
            name: "Maths 2".to_owned(),
            code: None,
        };
        assert_eq!(
            group_fate(&planned, Some(&group(3, Some("c1"), "Maths")), None),
            Ok(Fate::Updated(3))
        );
        let held = group(4, Some("c9"), "Maths 2");
        assert!(group_fate(&planned, None, Some(&held))
            .unwrap_err()
            .contains("for the school system's class c9"));
        assert!(
            group_fate(&planned, Some(&group(3, Some("c1"), "Maths")), Some(&held))
                .unwrap_err()
                .contains("(ID 4)")
        );
        // A group made by hand with the class's name is taken over.
        assert_eq!(
            group_fate(&planned, None, Some(&group(5, None, "Maths 2"))),
            Ok(Fate::Updated(5))
        );
    }
}
