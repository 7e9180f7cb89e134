//! Participants and groups written one at a time through the feeds (our extension,
//! docs/odata.md "Participants and Groups"), and memberships added and removed as
//! links, each in the request's transaction. A roster import writes in bulk
//! (`roster.rs`); these are the one-off changes of a coordinator's day.

use sea_query::{Expr, OnConflict, Query};

use crate::model::area::CustomerArea;
use crate::store::schema::{GroupParticipants, Groups, Participants};
use crate::store::{StoreError, Tx};

/// A participant's fields as a client writes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PersonFields {
    pub name: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub email: Option<String>,
}

/// A group's fields as a client writes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupFields {
    pub name: String,
    pub description: Option<String>,
}

/// Name, first and last names, e-mail.
type PersonRow = (String, Option<String>, Option<String>, Option<String>);

impl Tx {
    /// The participant `id` of `area`, if there is one.
    pub async fn person(
        &mut self,
        area: CustomerArea,
        id: i32,
    ) -> Result<Option<PersonFields>, StoreError> {
        let row: Option<PersonRow> = self
            .fetch_optional(
                &Query::select()
                    .columns([
                        Participants::Name,
                        Participants::FirstName,
                        Participants::LastName,
                        Participants::PrimaryEmail,
                    ])
                    .from(Participants::Table)
                    .and_where(Expr::col(Participants::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Participants::Id).eq(id))
                    .to_owned(),
            )
            .await?;
        Ok(
            row.map(|(name, first_name, last_name, email)| PersonFields {
                name,
                first_name,
                last_name,
                email,
            }),
        )
    }

    /// The participant of `area` called `name` (usernames are unique in an area).
    pub async fn person_named(
        &mut self,
        area: CustomerArea,
        name: &str,
    ) -> Result<Option<i32>, StoreError> {
        let row: Option<(i32,)> = self
            .fetch_optional(
                &Query::select()
                    .column(Participants::Id)
                    .from(Participants::Table)
                    .and_where(Expr::col(Participants::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Participants::Name).eq(name))
                    .to_owned(),
            )
            .await?;
        Ok(row.map(|(id,)| id))
    }

    pub async fn insert_person(
        &mut self,
        area: CustomerArea,
        person: &PersonFields,
    ) -> Result<i32, StoreError> {
        self.fetch_scalar(
            &Query::insert()
                .into_table(Participants::Table)
                .columns([
                    Participants::CustomerId,
                    Participants::Name,
                    Participants::FirstName,
                    Participants::LastName,
                    Participants::PrimaryEmail,
                ])
                .values_panic([
                    area.id().into(),
                    person.name.clone().into(),
                    person.first_name.clone().into(),
                    person.last_name.clone().into(),
                    person.email.clone().into(),
                ])
                .returning_col(Participants::Id)
                .to_owned(),
        )
        .await
    }

    pub async fn update_person(
        &mut self,
        area: CustomerArea,
        id: i32,
        person: &PersonFields,
    ) -> Result<(), StoreError> {
        self.execute(
            &Query::update()
                .table(Participants::Table)
                .values([
                    (Participants::Name, person.name.clone().into()),
                    (Participants::FirstName, person.first_name.clone().into()),
                    (Participants::LastName, person.last_name.clone().into()),
                    (Participants::PrimaryEmail, person.email.clone().into()),
                ])
                .and_where(Expr::col(Participants::CustomerId).eq(area.id()))
                .and_where(Expr::col(Participants::Id).eq(id))
                .to_owned(),
        )
        .await
        .map(drop)
    }

    pub async fn group_fields(
        &mut self,
        area: CustomerArea,
        id: i32,
    ) -> Result<Option<GroupFields>, StoreError> {
        let row: Option<(String, Option<String>)> = self
            .fetch_optional(
                &Query::select()
                    .columns([Groups::Name, Groups::Description])
                    .from(Groups::Table)
                    .and_where(Expr::col(Groups::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Groups::Id).eq(id))
                    .to_owned(),
            )
            .await?;
        Ok(row.map(|(name, description)| GroupFields { name, description }))
    }

    /// The group of `area` called `name` (group names are unique in an area).
    pub async fn group_named(
        &mut self,
        area: CustomerArea,
        name: &str,
    ) -> Result<Option<i32>, StoreError> {
        let row: Option<(i32,)> = self
            .fetch_optional(
                &Query::select()
                    .column(Groups::Id)
                    .from(Groups::Table)
                    .and_where(Expr::col(Groups::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Groups::Name).eq(name))
                    .to_owned(),
            )
            .await?;
        Ok(row.map(|(id,)| id))
    }

    pub async fn insert_group_fields(
        &mut self,
        area: CustomerArea,
        group: &GroupFields,
    ) -> Result<i32, StoreError> {
        self.fetch_scalar(
            &Query::insert()
                .into_table(Groups::Table)
                .columns([Groups::CustomerId, Groups::Name, Groups::Description])
                .values_panic([
                    area.id().into(),
                    group.name.clone().into(),
                    group.description.clone().into(),
                ])
                .returning_col(Groups::Id)
                .to_owned(),
        )
        .await
    }

    pub async fn update_group(
        &mut self,
        area: CustomerArea,
        id: i32,
        group: &GroupFields,
    ) -> Result<(), StoreError> {
        self.execute(
            &Query::update()
                .table(Groups::Table)
                .values([
                    (Groups::Name, group.name.clone().into()),
                    (Groups::Description, group.description.clone().into()),
                ])
                .and_where(Expr::col(Groups::CustomerId).eq(area.id()))
                .and_where(Expr::col(Groups::Id).eq(id))
                .to_owned(),
        )
        .await
        .map(drop)
    }

    /// Makes the participant a member of the group; adding a member again changes
    /// nothing. Both are the caller's, checked to be in `area`.
    pub async fn add_member(
        &mut self,
        area: CustomerArea,
        group: i32,
        participant: i32,
    ) -> Result<(), StoreError> {
        self.execute(
            &Query::insert()
                .into_table(GroupParticipants::Table)
                .columns([
                    GroupParticipants::CustomerId,
                    GroupParticipants::GroupId,
                    GroupParticipants::ParticipantId,
                ])
                .values_panic([area.id().into(), group.into(), participant.into()])
                .on_conflict(
                    OnConflict::columns([
                        GroupParticipants::GroupId,
                        GroupParticipants::ParticipantId,
                    ])
                    .do_nothing()
                    .to_owned(),
                )
                .to_owned(),
        )
        .await
        .map(drop)
    }

    /// Takes the participant out of the group; whether they were in it.
    pub async fn remove_member(
        &mut self,
        area: CustomerArea,
        group: i32,
        participant: i32,
    ) -> Result<bool, StoreError> {
        let removed = self
            .execute(
                &Query::delete()
                    .from_table(GroupParticipants::Table)
                    .and_where(Expr::col(GroupParticipants::CustomerId).eq(area.id()))
                    .and_where(Expr::col(GroupParticipants::GroupId).eq(group))
                    .and_where(Expr::col(GroupParticipants::ParticipantId).eq(participant))
                    .to_owned(),
            )
            .await?;
        Ok(removed > 0)
    }
}
