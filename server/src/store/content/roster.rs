//! A roster applied in the caller's transaction (model::roster decides what each
//! record becomes): groups and participants created, updated in place or left
//! unchanged, memberships made to match, and what is gone from the school's
//! system taken out of its groups. The area's groups, participants and
//! memberships are read once each, and what is new is inserted 500 rows a
//! statement, so a roster of thousands costs a few reads, one statement per update
//! and one per 500 new rows.

use std::collections::HashMap;

use sea_query::{Expr, Query};

use crate::model::area::CustomerArea;
use crate::model::roster::{
    group_fate, participant_fate, Fate, RosterCounts, RosterPlan, StoredGroup, StoredParticipant,
};
use crate::store::schema::{Groups, Participants};
use crate::store::{StoreError, Tx};

/// The advisory lock roster imports hold on PostgreSQL: two imports of one area
/// must not both create the same participant.
const ROSTER_LOCK: i64 = 0x5344_524f_5354_0001;

/// Rows per INSERT: one statement a chunk instead of one a row (a first import of
/// 20,000 students took 30 s on PostgreSQL in round trips). 500 rows of six values
/// stay far under SQLite's 32,766 bound parameters.
pub(super) const ROWS_PER_INSERT: usize = 500;

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

    pub(super) async fn stored_groups(
        &mut self,
        area: CustomerArea,
    ) -> Result<Vec<StoredGroup>, StoreError> {
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
        // IDs known now; the created ones are read back after one insert per chunk.
        let mut ids: Vec<Option<i32>> = Vec::with_capacity(plan.groups.len());
        let mut created = Vec::new();
        for planned in &plan.groups {
            let keyed = planned.key.as_deref().and_then(|k| by_key.get(k).copied());
            let named = by_name.get(&planned.name.to_lowercase()).copied();
            let fate = match group_fate(planned, keyed, named) {
                Ok(fate) => fate,
                Err(conflict) => return Ok(Err(conflict)),
            };
            ids.push(match fate {
                Fate::Created => {
                    counts.groups_created += 1;
                    created.push(planned);
                    None
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
                    Some(id)
                }
                Fate::Unchanged(id) => {
                    counts.groups_unchanged += 1;
                    Some(id)
                }
            });
        }
        for chunk in created.chunks(ROWS_PER_INSERT) {
            let mut insert = Query::insert();
            insert.into_table(Groups::Table).columns([
                Groups::CustomerId,
                Groups::Name,
                Groups::Description,
                Groups::ExternalKey,
                Groups::Code,
            ]);
            for planned in chunk {
                insert.values_panic([
                    area.id().into(),
                    planned.name.clone().into(),
                    "From a roster".into(),
                    planned.key.clone().into(),
                    planned.code.clone().into(),
                ]);
            }
            self.execute(&insert).await?;
        }
        if !created.is_empty() {
            // Names are unique in an area (migration 9): each new group by its name.
            let now: HashMap<String, i32> = self
                .stored_groups(area)
                .await?
                .into_iter()
                .map(|g| (g.name.to_lowercase(), g.id))
                .collect();
            for (id, planned) in ids.iter_mut().zip(&plan.groups) {
                if id.is_none() {
                    *id = now.get(&planned.name.to_lowercase()).copied();
                }
            }
        }
        Ok(Ok(ids
            .into_iter()
            .map(|id| id.unwrap_or_default())
            .collect()))
    }

    pub(super) async fn stored_participants(
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
        let text = |value: &str| (!value.is_empty()).then(|| value.to_owned());
        let mut ids: Vec<Option<i32>> = Vec::with_capacity(plan.participants.len());
        let mut created = Vec::new();
        for planned in &plan.participants {
            let keyed = planned.key.as_deref().and_then(|k| by_key.get(k).copied());
            let named = by_username.get(planned.username.as_str()).copied();
            let fate = match participant_fate(planned, keyed, named) {
                Ok(fate) => fate,
                Err(conflict) => return Ok(Err(conflict)),
            };
            ids.push(match fate {
                Fate::Created => {
                    counts.participants_created += 1;
                    created.push(planned);
                    None
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
                    Some(id)
                }
                Fate::Unchanged(id) => {
                    counts.participants_unchanged += 1;
                    Some(id)
                }
            });
        }
        for chunk in created.chunks(ROWS_PER_INSERT) {
            let mut insert = Query::insert();
            insert.into_table(Participants::Table).columns([
                Participants::CustomerId,
                Participants::Name,
                Participants::FirstName,
                Participants::LastName,
                Participants::PrimaryEmail,
                Participants::ExternalKey,
            ]);
            for planned in chunk {
                insert.values_panic([
                    area.id().into(),
                    planned.username.clone().into(),
                    text(&planned.first_name).into(),
                    text(&planned.last_name).into(),
                    text(&planned.email).into(),
                    planned.key.clone().into(),
                ]);
            }
            self.execute(&insert).await?;
        }
        if !created.is_empty() {
            // Usernames are unique in an area: each new participant by its username.
            let now: HashMap<String, i32> = self
                .stored_participants(area)
                .await?
                .into_iter()
                .map(|p| (p.username, p.id))
                .collect();
            for (id, planned) in ids.iter_mut().zip(&plan.participants) {
                if id.is_none() {
                    *id = now.get(&planned.username).copied();
                }
            }
        }
        Ok(Ok(ids
            .into_iter()
            .map(|id| id.unwrap_or_default())
            .collect()))
    }
}
