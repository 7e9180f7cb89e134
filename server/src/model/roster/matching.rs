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

/// The planned participant's fate, given the stored one with its key and the one
/// with its username.
pub fn participant_fate(
    planned: &PlannedParticipant,
    by_key: Option<&StoredParticipant>,
    by_username: Option<&StoredParticipant>,
) -> Result<Fate, String> {
    let stored = match (by_key, by_username) {
        (Some(keyed), Some(named)) if keyed.id != named.id => {
            return Err(format!(
                "username \"{}\" is already another participant's (ID {}); the roster's {} would take it",
                planned.username,
                named.id,
                planned.key.as_deref().unwrap_or(""),
            ))
        }
        (Some(keyed), _) => keyed,
        (None, Some(named)) => match (&named.key, &planned.key) {
            (Some(theirs), Some(ours)) if theirs != ours => {
                return Err(format!(
                    "username \"{}\" belongs to the school system's {theirs}, not {ours}",
                    planned.username
                ))
            }
            _ => named,
        },
        (None, None) => return Ok(Fate::Created),
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
    let stored = match (by_key, by_name) {
        (Some(keyed), Some(named)) if keyed.id != named.id => {
            return Err(format!(
                "a group is already named \"{}\" (ID {}); rename it or the class",
                planned.name, named.id
            ))
        }
        (Some(keyed), _) => keyed,
        (None, Some(named)) => match (&named.key, &planned.key) {
            (Some(theirs), Some(ours)) if theirs != ours => {
                return Err(format!(
                    "a group is already named \"{}\", for the school system's class {theirs}",
                    planned.name
                ))
            }
            _ => named,
        },
        (None, None) => return Ok(Fate::Created),
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
}
