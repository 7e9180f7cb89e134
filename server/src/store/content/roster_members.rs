//! A roster's memberships made to match (store/content/roster.rs applies the rest):
//! the file's added, 500 rows a statement; for a roster with the school system's
//! keys, a planned participant's other memberships of roster groups removed, and
//! what is gone from the school's system taken out of its groups.

use std::collections::HashSet;

use sea_query::{Expr, Query};

use super::roster::ROWS_PER_INSERT;
use crate::model::area::CustomerArea;
use crate::model::roster::{RosterCounts, RosterPlan};
use crate::store::schema::GroupParticipants;
use crate::store::{StoreError, Tx};

impl Tx {
    /// Memberships made to match: the file's added; for a keyed roster, a planned
    /// participant's other memberships of roster groups removed, and everything
    /// gone from the school's system taken out of its groups.
    pub(super) async fn roster_memberships(
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
            let members: HashSet<i32> = current.iter().map(|&(_, p)| p).collect();
            let filled: HashSet<i32> = current.iter().map(|&(g, _)| g).collect();
            counts.participants_left = left.intersection(&members).count();
            counts.groups_emptied = emptied.intersection(&filled).count();
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
        let added: Vec<(i32, i32)> = wanted.difference(&current).copied().collect();
        for chunk in added.chunks(ROWS_PER_INSERT) {
            let mut insert = Query::insert();
            insert.into_table(GroupParticipants::Table).columns([
                GroupParticipants::CustomerId,
                GroupParticipants::GroupId,
                GroupParticipants::ParticipantId,
            ]);
            for &(group, participant) in chunk {
                insert.values_panic([area.id().into(), group.into(), participant.into()]);
            }
            self.execute(&insert).await?;
        }
        counts.memberships_added = added.len();
        Ok(())
    }
}
