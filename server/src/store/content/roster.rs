//! A roster applied in the caller's transaction (model::roster decides what each
//! record becomes): groups and participants created, updated in place or left
//! unchanged, memberships made to match, and what is gone from the school's
//! system taken out of its groups. The area's groups, participants and
//! memberships are read once each, so a roster of thousands costs a few reads and
//! one write per change.

use std::collections::{HashMap, HashSet};

use sea_query::{Expr, Query};

use crate::model::area::CustomerArea;
use crate::model::roster::{
    group_fate, participant_fate, Fate, RosterCounts, RosterPlan, StoredGroup, StoredParticipant,
};
use crate::store::schema::{GroupParticipants, Groups, Participants};
use crate::store::{StoreError, Tx};

/// The advisory lock roster imports hold on PostgreSQL: two imports of one area
/// must not both create the same participant.
const ROSTER_LOCK: i64 = 0x5344_524f_5354_0001;

/// Applying a roster: what it did, or why it cannot be applied.
pub enum RosterApplied {
    Done(RosterCounts),
    /// A record conflicts with one stored (its message); the caller rolls back.
    Conflict(String),
}

impl Tx {
    /// Applies `plan` to `area`.
    pub async fn apply_roster(
        &mut self,
        area: CustomerArea,
        plan: &RosterPlan,
    ) -> Result<RosterApplied, StoreError> {
        self.advisory_lock(ROSTER_LOCK).await?;
        let mut counts = RosterCounts::default();
        let groups = match self.roster_groups(area, plan, &mut counts).await? {
            Ok(ids) => ids,
            Err(conflict) => return Ok(RosterApplied::Conflict(conflict)),
        };
        let participants = match self.roster_participants(area, plan, &mut counts).await? {
            Ok(ids) => ids,
            Err(conflict) => return Ok(RosterApplied::Conflict(conflict)),
        };
        self.roster_memberships(area, plan, &groups, &participants, &mut counts)
            .await?;
        Ok(RosterApplied::Done(counts))
    }

    async fn stored_groups(&mut self, area: CustomerArea) -> Result<Vec<StoredGroup>, StoreError> {
        let rows: Vec<(i32, String, Option<String>, Option<String>)> = self
            .fetch_all(
                &Query::select()
                    .columns([Groups::Id, Groups::Name, Groups::ExternalKey, Groups::Code])
                    .from(Groups::Table)
                    .and_where(Expr::col(Groups::CustomerId).eq(area.id()))
                    .to_owned(),
            )
            .await?;
        Ok(rows
            .into_iter()
            .map(|(id, name, key, code)| StoredGroup {
                id,
                name,
                key,
                code,
            })
            .collect())
    }

    /// The plan's groups, created or updated; their IDs in the plan's order.
    async fn roster_groups(
        &mut self,
        area: CustomerArea,
        plan: &RosterPlan,
        counts: &mut RosterCounts,
    ) -> Result<Result<Vec<i32>, String>, StoreError> {
        let stored = self.stored_groups(area).await?;
        let by_key: HashMap<&str, &StoredGroup> = stored
            .iter()
            .filter_map(|g| g.key.as_deref().map(|k| (k, g)))
            .collect();
        let by_name: HashMap<String, &StoredGroup> =
            stored.iter().map(|g| (g.name.to_lowercase(), g)).collect();
        let mut ids = Vec::with_capacity(plan.groups.len());
        for planned in &plan.groups {
            let keyed = planned.key.as_deref().and_then(|k| by_key.get(k).copied());
            let named = by_name.get(&planned.name.to_lowercase()).copied();
            let fate = match group_fate(planned, keyed, named) {
                Ok(fate) => fate,
                Err(conflict) => return Ok(Err(conflict)),
            };
            let id = match fate {
                Fate::Created => {
                    counts.groups_created += 1;
                    self.fetch_scalar(
                        &Query::insert()
                            .into_table(Groups::Table)
                            .columns([
                                Groups::CustomerId,
                                Groups::Name,
                                Groups::Description,
                                Groups::ExternalKey,
                                Groups::Code,
                            ])
                            .values_panic([
                                area.id().into(),
                                planned.name.clone().into(),
                                "From a roster".into(),
                                planned.key.clone().into(),
                                planned.code.clone().into(),
                            ])
                            .returning_col(Groups::Id)
                            .to_owned(),
                    )
                    .await?
                }
                Fate::Updated(id) => {
                    counts.groups_updated += 1;
                    let mut update = Query::update();
                    update
                        .table(Groups::Table)
                        .value(Groups::Name, planned.name.clone())
                        .and_where(Expr::col(Groups::Id).eq(id))
                        .and_where(Expr::col(Groups::CustomerId).eq(area.id()));
                    if planned.key.is_some() {
                        update
                            .value(Groups::ExternalKey, planned.key.clone())
                            .value(Groups::Code, planned.code.clone());
                    }
                    self.execute(&update).await?;
                    id
                }
                Fate::Unchanged(id) => {
                    counts.groups_unchanged += 1;
                    id
                }
            };
            ids.push(id);
        }
        Ok(Ok(ids))
    }

    async fn stored_participants(
        &mut self,
        area: CustomerArea,
    ) -> Result<Vec<StoredParticipant>, StoreError> {
        type Row = (
            i32,
            String,
            Option<String>,
            Option<String>,
            Option<String>,
            Option<String>,
        );
        let rows: Vec<Row> = self
            .fetch_all(
                &Query::select()
                    .columns([
                        Participants::Id,
                        Participants::Name,
                        Participants::FirstName,
                        Participants::LastName,
                        Participants::PrimaryEmail,
                        Participants::ExternalKey,
                    ])
                    .from(Participants::Table)
                    .and_where(Expr::col(Participants::CustomerId).eq(area.id()))
                    .to_owned(),
            )
            .await?;
        Ok(rows
            .into_iter()
            .map(
                |(id, username, first_name, last_name, email, key)| StoredParticipant {
                    id,
                    username,
                    first_name,
                    last_name,
                    email,
                    key,
                },
            )
            .collect())
    }

    /// The plan's participants, created or updated; their IDs in the plan's order.
    async fn roster_participants(
        &mut self,
        area: CustomerArea,
        plan: &RosterPlan,
        counts: &mut RosterCounts,
    ) -> Result<Result<Vec<i32>, String>, StoreError> {
        let stored = self.stored_participants(area).await?;
        let by_key: HashMap<&str, &StoredParticipant> = stored
            .iter()
            .filter_map(|p| p.key.as_deref().map(|k| (k, p)))
            .collect();
        let by_username: HashMap<&str, &StoredParticipant> =
            stored.iter().map(|p| (p.username.as_str(), p)).collect();
        let mut ids = Vec::with_capacity(plan.participants.len());
        for planned in &plan.participants {
            let keyed = planned.key.as_deref().and_then(|k| by_key.get(k).copied());
            let named = by_username.get(planned.username.as_str()).copied();
            let fate = match participant_fate(planned, keyed, named) {
                Ok(fate) => fate,
                Err(conflict) => return Ok(Err(conflict)),
            };
            let text = |value: &str| (!value.is_empty()).then(|| value.to_owned());
            let id = match fate {
                Fate::Created => {
                    counts.participants_created += 1;
                    self.fetch_scalar(
                        &Query::insert()
                            .into_table(Participants::Table)
                            .columns([
                                Participants::CustomerId,
                                Participants::Name,
                                Participants::FirstName,
                                Participants::LastName,
                                Participants::PrimaryEmail,
                                Participants::ExternalKey,
                            ])
                            .values_panic([
                                area.id().into(),
                                planned.username.clone().into(),
                                text(&planned.first_name).into(),
                                text(&planned.last_name).into(),
                                text(&planned.email).into(),
                                planned.key.clone().into(),
                            ])
                            .returning_col(Participants::Id)
                            .to_owned(),
                    )
                    .await?
                }
                Fate::Updated(id) => {
                    counts.participants_updated += 1;
                    let mut update = Query::update();
                    update
                        .table(Participants::Table)
                        .value(Participants::Name, planned.username.clone())
                        .value(Participants::FirstName, text(&planned.first_name))
                        .value(Participants::LastName, text(&planned.last_name))
                        .value(Participants::PrimaryEmail, text(&planned.email))
                        .and_where(Expr::col(Participants::Id).eq(id))
                        .and_where(Expr::col(Participants::CustomerId).eq(area.id()));
                    if planned.key.is_some() {
                        update.value(Participants::ExternalKey, planned.key.clone());
                    }
                    self.execute(&update).await?;
                    id
                }
                Fate::Unchanged(id) => {
                    counts.participants_unchanged += 1;
                    id
                }
            };
            ids.push(id);
        }
        Ok(Ok(ids))
    }

    /// Memberships made to match: the file's added; for a keyed roster, a planned
    /// participant's other memberships of roster groups removed, and everything
    /// gone from the school's system taken out of its groups.
    async fn roster_memberships(
        &mut self,
        area: CustomerArea,
        plan: &RosterPlan,
        groups: &[i32],
        participants: &[i32],
        counts: &mut RosterCounts,
    ) -> Result<(), StoreError> {
        let rows: Vec<(i32, i32)> = self
            .fetch_all(
                &Query::select()
                    .columns([GroupParticipants::GroupId, GroupParticipants::ParticipantId])
                    .from(GroupParticipants::Table)
                    .and_where(Expr::col(GroupParticipants::CustomerId).eq(area.id()))
                    .to_owned(),
            )
            .await?;
        let current: HashSet<(i32, i32)> = rows.into_iter().collect();
        let wanted: HashSet<(i32, i32)> = plan
            .memberships
            .iter()
            .map(|&(g, p)| (groups[g], participants[p]))
            .collect();
        let mut removed: HashSet<(i32, i32)> = HashSet::new();
        if plan.keyed {
            let stored_groups = self.stored_groups(area).await?;
            let roster_groups: HashSet<i32> = stored_groups
                .iter()
                .filter(|g| g.key.is_some())
                .map(|g| g.id)
                .collect();
            let planned: HashSet<i32> = participants.iter().copied().collect();
            removed.extend(current.iter().copied().filter(|(g, p)| {
                planned.contains(p) && roster_groups.contains(g) && !wanted.contains(&(*g, *p))
            }));
            let stored_people = self.stored_participants(area).await?;
            let gone: HashSet<&str> = plan.gone_participants.iter().map(String::as_str).collect();
            let left: HashSet<i32> = stored_people
                .iter()
                .filter(|p| p.key.as_deref().is_some_and(|k| gone.contains(k)))
                .map(|p| p.id)
                .collect();
            let gone_classes: HashSet<&str> = plan.gone_groups.iter().map(String::as_str).collect();
            let emptied: HashSet<i32> = stored_groups
                .iter()
                .filter(|g| g.key.as_deref().is_some_and(|k| gone_classes.contains(k)))
                .map(|g| g.id)
                .collect();
            counts.participants_left = left
                .iter()
                .filter(|id| current.iter().any(|(_, p)| p == *id))
                .count();
            counts.groups_emptied = emptied
                .iter()
                .filter(|id| current.iter().any(|(g, _)| g == *id))
                .count();
            removed.extend(
                current
                    .iter()
                    .copied()
                    .filter(|(g, p)| left.contains(p) || emptied.contains(g)),
            );
        }
        for &(group, participant) in &removed {
            self.execute(
                &Query::delete()
                    .from_table(GroupParticipants::Table)
                    .and_where(Expr::col(GroupParticipants::GroupId).eq(group))
                    .and_where(Expr::col(GroupParticipants::ParticipantId).eq(participant))
                    .to_owned(),
            )
            .await?;
        }
        counts.memberships_removed = removed.len();
        for &(group, participant) in wanted.difference(&current) {
            self.insert_group_member(area, group, participant).await?;
            counts.memberships_added += 1;
        }
        Ok(())
    }
}
