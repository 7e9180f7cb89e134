//! A OneRoster export planned: active students become participants, active
//! classes groups, and students' active enrolments memberships. Teachers,
//! guardians and the like are counted, not brought in; what is `tobedeleted`
//! leaves its groups. Every reference is checked: an enrolment of an unknown class
//! or user, a sourcedId twice, a student without a username, two students with one
//! username are problems naming their line, and nothing is stored.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::{
    bounded, OneRosterExport, Place, PlannedGroup, PlannedParticipant, RosterPlan, RosterProblem,
    Status, UserRecord,
};

const STUDENT: &str = "student";

/// Checks that every `sourcedId` of one file is there once.
fn unique_ids<'a>(
    records: impl Iterator<Item = (&'a Place, &'a str)>,
) -> Result<HashSet<&'a str>, RosterProblem> {
    let mut seen = HashMap::new();
    for (place, id) in records {
        if id.trim().is_empty() {
            return Err(RosterProblem::at(place, "sourcedId", "is empty"));
        }
        if let Some(first) = seen.insert(id, place.line) {
            return Err(RosterProblem::at(
                place,
                "sourcedId",
                format!("\"{id}\" is already on line {first}"),
            ));
        }
    }
    Ok(seen.into_keys().collect())
}

/// The users who are students: by 1.1's `role` column, by 1.2's `roles.csv`, or,
/// where the export says neither, by a student enrolment.
fn students(export: &OneRosterExport) -> HashSet<&str> {
    let by_column = export.users.iter().any(|u| u.role.is_some());
    if let Some(roles) = &export.roles {
        return roles
            .iter()
            .filter(|r| r.status == Status::Active && r.role.eq_ignore_ascii_case(STUDENT))
            .map(|r| r.user.as_str())
            .collect();
    }
    if by_column {
        return export
            .users
            .iter()
            .filter(|u| {
                u.role
                    .as_deref()
                    .is_some_and(|r| r.eq_ignore_ascii_case(STUDENT))
            })
            .map(|u| u.sourced_id.as_str())
            .collect();
    }
    export
        .enrollments
        .iter()
        .filter(|e| e.role.eq_ignore_ascii_case(STUDENT))
        .map(|e| e.user.as_str())
        .collect()
}

/// What a user who is no participant is counted as.
fn role_of(user: &UserRecord, export: &OneRosterExport) -> String {
    let from_roles = export.roles.as_ref().and_then(|roles| {
        roles
            .iter()
            .find(|r| r.user == user.sourced_id)
            .map(|r| r.role.to_ascii_lowercase())
    });
    from_roles
        .or_else(|| user.role.as_ref().map(|r| r.to_ascii_lowercase()))
        .filter(|r| !r.is_empty())
        .unwrap_or_else(|| "no role".to_owned())
}

/// Plans a OneRoster export.
pub fn plan_oneroster(export: &OneRosterExport) -> Result<RosterPlan, RosterProblem> {
    let user_ids = unique_ids(
        export
            .users
            .iter()
            .map(|u| (&u.place, u.sourced_id.as_str())),
    )?;
    let class_ids = unique_ids(
        export
            .classes
            .iter()
            .map(|c| (&c.place, c.sourced_id.as_str())),
    )?;
    unique_ids(
        export
            .enrollments
            .iter()
            .map(|e| (&e.place, e.sourced_id.as_str())),
    )?;
    let students = students(export);
    let mut plan = RosterPlan {
        keyed: true,
        ..RosterPlan::default()
    };

    let mut participant_at = HashMap::new();
    let mut usernames: HashMap<String, u64> = HashMap::new();
    let mut not_participants: BTreeMap<String, usize> = BTreeMap::new();
    for user in &export.users {
        if !students.contains(user.sourced_id.as_str()) {
            *not_participants.entry(role_of(user, export)).or_default() += 1;
            continue;
        }
        if user.status == Status::Gone {
            plan.gone_participants.push(user.sourced_id.clone());
            continue;
        }
        let username = user.username.trim();
        if username.is_empty() {
            return Err(RosterProblem::at(
                &user.place,
                "username",
                "a student needs a username",
            ));
        }
        if let Some(first) = usernames.insert(username.to_lowercase(), user.place.line) {
            return Err(RosterProblem::at(
                &user.place,
                "username",
                format!("\"{username}\" is already the username of the student on line {first}"),
            ));
        }
        for (column, value) in [
            ("username", username),
            ("givenName", user.given_name.as_str()),
            ("familyName", user.family_name.as_str()),
            ("email", user.email.as_str()),
        ] {
            bounded(&user.place, column, value.trim())?;
        }
        participant_at.insert(user.sourced_id.as_str(), plan.participants.len());
        plan.participants.push(PlannedParticipant {
            key: Some(user.sourced_id.clone()),
            username: username.to_owned(),
            first_name: user.given_name.trim().to_owned(),
            last_name: user.family_name.trim().to_owned(),
            email: user.email.trim().to_owned(),
        });
    }
    plan.not_participants = not_participants;

    let group_at = plan_groups(export, &mut plan)?;
    let mut seen = HashSet::new();
    for enrollment in &export.enrollments {
        if !class_ids.contains(enrollment.class.as_str()) {
            return Err(RosterProblem::at(
                &enrollment.place,
                "classSourcedId",
                format!("no class \"{}\" in classes.csv", enrollment.class),
            ));
        }
        if !user_ids.contains(enrollment.user.as_str()) {
            return Err(RosterProblem::at(
                &enrollment.place,
                "userSourcedId",
                format!("no user \"{}\" in users.csv", enrollment.user),
            ));
        }
        if enrollment.status == Status::Gone || !enrollment.role.eq_ignore_ascii_case(STUDENT) {
            continue;
        }
        let (Some(&group), Some(&participant)) = (
            group_at.get(enrollment.class.as_str()),
            participant_at.get(enrollment.user.as_str()),
        ) else {
            // A class or a user gone, or a student enrolment of a teacher.
            continue;
        };
        if seen.insert((group, participant)) {
            plan.memberships.push((group, participant));
        }
    }
    Ok(plan)
}

/// Active classes become groups named by their title; two of one title are told
/// apart by their class code. Returns each class's group, by sourcedId.
fn plan_groups<'a>(
    export: &'a OneRosterExport,
    plan: &mut RosterPlan,
) -> Result<HashMap<&'a str, usize>, RosterProblem> {
    let active: Vec<_> = export
        .classes
        .iter()
        .filter(|class| {
            let gone = class.status == Status::Gone;
            if gone {
                plan.gone_groups.push(class.sourced_id.clone());
            }
            !gone
        })
        .collect();
    let mut titles: HashMap<String, usize> = HashMap::new();
    for class in &active {
        *titles.entry(class.title.trim().to_lowercase()).or_default() += 1;
    }
    let mut names: HashMap<String, u64> = HashMap::new();
    let mut group_at = HashMap::new();
    for class in active {
        let title = class.title.trim();
        if title.is_empty() {
            return Err(RosterProblem::at(
                &class.place,
                "title",
                "a class needs a title",
            ));
        }
        let code = class.class_code.trim();
        bounded(&class.place, "title", title)?;
        bounded(&class.place, "classCode", code)?;
        let name = if titles[&title.to_lowercase()] > 1 && !code.is_empty() {
            format!("{title} ({code})")
        } else {
            title.to_owned()
        };
        if let Some(first) = names.insert(name.to_lowercase(), class.place.line) {
            return Err(RosterProblem::at(
                &class.place,
                "title",
                format!("\"{name}\" is also the class on line {first}; give them different titles or class codes"),
            ));
        }
        group_at.insert(class.sourced_id.as_str(), plan.groups.len());
        plan.groups.push(PlannedGroup {
            key: Some(class.sourced_id.clone()),
            name,
            code: (!code.is_empty()).then(|| code.to_owned()),
        });
    }
    Ok(group_at)
}
