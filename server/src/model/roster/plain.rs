//! A plain CSV planned (`username,first_name,last_name,email,group`): one row per
//! participant and group; a participant in two groups has two rows, which must
//! agree on their names. Participants are known by username and groups by name,
//! and applying it only adds: nobody leaves a group because a row is missing.

use std::collections::{HashMap, HashSet};

use super::{bounded, PlainRow, PlannedGroup, PlannedParticipant, RosterPlan, RosterProblem};

pub fn plan_plain(rows: &[PlainRow]) -> Result<RosterPlan, RosterProblem> {
    let mut plan = RosterPlan::default();
    let mut participant_at: HashMap<String, usize> = HashMap::new();
    let mut group_at: HashMap<String, usize> = HashMap::new();
    let mut members = HashSet::new();
    for row in rows {
        let username = row.username.trim();
        if username.is_empty() {
            return Err(RosterProblem::at(&row.place, "username", "is empty"));
        }
        for (column, value) in [
            ("username", username),
            ("first_name", row.first_name.as_str()),
            ("last_name", row.last_name.as_str()),
            ("email", row.email.as_str()),
            ("group", row.group.as_str()),
        ] {
            bounded(&row.place, column, value.trim())?;
        }
        let planned = PlannedParticipant {
            key: None,
            username: username.to_owned(),
            first_name: row.first_name.trim().to_owned(),
            last_name: row.last_name.trim().to_owned(),
            email: row.email.trim().to_owned(),
        };
        let participant = match participant_at.get(&username.to_lowercase()) {
            Some(&at) => {
                if plan.participants[at] != planned {
                    return Err(RosterProblem::at(
                        &row.place,
                        "username",
                        format!("\"{username}\" is on an earlier row with other names or e-mail"),
                    ));
                }
                at
            }
            None => {
                participant_at.insert(username.to_lowercase(), plan.participants.len());
                plan.participants.push(planned);
                plan.participants.len() - 1
            }
        };
        let group = row.group.trim();
        if group.is_empty() {
            continue;
        }
        let at = *group_at.entry(group.to_lowercase()).or_insert_with(|| {
            plan.groups.push(PlannedGroup {
                key: None,
                name: group.to_owned(),
                code: None,
            });
            plan.groups.len() - 1
        });
        if members.insert((at, participant)) {
            plan.memberships.push((at, participant));
        }
    }
    if plan.participants.is_empty() {
        return Err(RosterProblem::in_file(
            rows.first()
                .map(|r| r.place.file.as_str())
                .unwrap_or("the file"),
            "has no participant rows",
        ));
    }
    Ok(plan)
}
