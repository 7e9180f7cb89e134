//! What a group's class list is printed from (docs/rosters.md "Class lists"): the
//! group, and its members by family name, given name and username.

use sea_query::{Expr, Query};

use crate::model::area::CustomerArea;
use crate::model::people::{ClassList, ClassMember};
use crate::store::schema::{GroupParticipants, Groups, Participants};
use crate::store::{Store, StoreError};

type MemberRow = (String, Option<String>, Option<String>, Option<String>);

impl Store {
    /// Group `group` of `area` with its members; `None` when there is no such group.
    pub async fn class_list(
        &self,
        area: CustomerArea,
        group: i32,
    ) -> Result<Option<ClassList>, StoreError> {
        let found: Option<(String, Option<String>, Option<String>)> = self
            .fetch_optional(
                &Query::select()
                    .columns([Groups::Name, Groups::Description, Groups::Code])
                    .from(Groups::Table)
                    .and_where(Expr::col(Groups::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Groups::Id).eq(group))
                    .to_owned(),
            )
            .await?;
        let Some((name, description, code)) = found else {
            return Ok(None);
        };
        let rows: Vec<MemberRow> = self
            .fetch_all(
                &Query::select()
                    .column((Participants::Table, Participants::Name))
                    .column((Participants::Table, Participants::FirstName))
                    .column((Participants::Table, Participants::LastName))
                    .column((Participants::Table, Participants::PrimaryEmail))
                    .from(GroupParticipants::Table)
                    .inner_join(
                        Participants::Table,
                        Expr::col((Participants::Table, Participants::Id))
                            .equals((GroupParticipants::Table, GroupParticipants::ParticipantId)),
                    )
                    .and_where(
                        Expr::col((GroupParticipants::Table, GroupParticipants::CustomerId))
                            .eq(area.id()),
                    )
                    .and_where(
                        Expr::col((GroupParticipants::Table, GroupParticipants::GroupId)).eq(group),
                    )
                    .and_where(
                        Expr::col((Participants::Table, Participants::CustomerId)).eq(area.id()),
                    )
                    .to_owned(),
            )
            .await?;
        let mut members: Vec<ClassMember> = rows
            .into_iter()
            .map(|(username, first_name, last_name, email)| ClassMember {
                username,
                first_name,
                last_name,
                email,
            })
            .collect();
        // Sorted here, not by SQL: the two databases collate accents differently,
        // and a class list must print in one order on both.
        members.sort_by_cached_key(|m| {
            let key = |text: &Option<String>| text.as_deref().unwrap_or("").to_lowercase();
            (key(&m.last_name), key(&m.first_name), m.username.clone())
        });
        Ok(Some(ClassList {
            name,
            description,
            code,
            members,
        }))
    }
}
