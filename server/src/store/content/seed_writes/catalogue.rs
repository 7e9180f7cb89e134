//! The rows results refer to: groups and their members, assessments, topics, score
//! bands, questions and their choices, rubrics and their dimensions.

use sea_query::{InsertStatement, Query};

use super::NewQuestion;
use crate::model::area::CustomerArea;
use crate::store::schema::*;
use crate::store::{StoreError, Tx};

/// A question's columns as `insert_question` writes them (an import adds what it
/// keeps beside them: `content/import_rows.rs`).
pub(in crate::store) const QUESTION_COLUMNS: [Questions; 16] = [
    Questions::Id,
    Questions::CustomerId,
    Questions::Revision,
    Questions::Language,
    Questions::Description,
    Questions::QuestionType,
    Questions::MaxScore,
    Questions::TopicId,
    Questions::Markup,
    Questions::ShuffleChoices,
    Questions::ScoringRule,
    Questions::MapDefault,
    Questions::MapLower,
    Questions::MapUpper,
    Questions::CreatedAt,
    Questions::ModifiedAt,
];

impl Tx {
    async fn insert_returning_id(&mut self, insert: InsertStatement) -> Result<i32, StoreError> {
        self.fetch_scalar(&insert).await
    }

    pub async fn insert_group(
        &mut self,
        area: CustomerArea,
        name: &str,
        description: &str,
    ) -> Result<i32, StoreError> {
        self.insert_returning_id(
            Query::insert()
                .into_table(Groups::Table)
                .columns([Groups::CustomerId, Groups::Name, Groups::Description])
                .values_panic([area.id().into(), name.into(), description.into()])
                .returning_col(Groups::Id)
                .to_owned(),
        )
        .await
    }

    pub async fn insert_participant(
        &mut self,
        area: CustomerArea,
        name: &str,
        first_name: &str,
        last_name: &str,
        email: &str,
    ) -> Result<i32, StoreError> {
        self.insert_returning_id(
            Query::insert()
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
                    name.into(),
                    first_name.into(),
                    last_name.into(),
                    email.into(),
                ])
                .returning_col(Participants::Id)
                .to_owned(),
        )
        .await
    }

    pub async fn insert_group_member(
        &mut self,
        area: CustomerArea,
        group_id: i32,
        participant_id: i32,
    ) -> Result<(), StoreError> {
        let insert = Query::insert()
            .into_table(GroupParticipants::Table)
            .columns([
                GroupParticipants::CustomerId,
                GroupParticipants::GroupId,
                GroupParticipants::ParticipantId,
            ])
            .values_panic([area.id().into(), group_id.into(), participant_id.into()])
            .to_owned();
        self.execute(&insert).await.map(drop)
    }

    pub async fn insert_assessment(
        &mut self,
        id: i64,
        area: CustomerArea,
        name: &str,
        language: Option<&str>,
        description: &str,
        at: i64,
    ) -> Result<(), StoreError> {
        let insert = Query::insert()
            .into_table(Assessments::Table)
            .columns([
                Assessments::Id,
                Assessments::CustomerId,
                Assessments::Name,
                Assessments::Language,
                Assessments::Description,
                Assessments::CreatedAt,
                Assessments::ModifiedAt,
            ])
            .values_panic([
                id.into(),
                area.id().into(),
                name.into(),
                language.into(),
                description.into(),
                at.into(),
                at.into(),
            ])
            .to_owned();
        self.execute(&insert).await.map(drop)
    }

    pub async fn insert_topic(
        &mut self,
        area: CustomerArea,
        parent_id: Option<i32>,
        name: &str,
        path: &str,
    ) -> Result<i32, StoreError> {
        self.insert_returning_id(
            Query::insert()
                .into_table(Topics::Table)
                .columns([
                    Topics::CustomerId,
                    Topics::ParentId,
                    Topics::Name,
                    Topics::Path,
                ])
                .values_panic([area.id().into(), parent_id.into(), name.into(), path.into()])
                .returning_col(Topics::Id)
                .to_owned(),
        )
        .await
    }

    pub async fn insert_score_band(
        &mut self,
        area: CustomerArea,
        assessment_id: i64,
        min_percentage: i32,
        title: &str,
    ) -> Result<(), StoreError> {
        let insert = Query::insert()
            .into_table(ScoreBands::Table)
            .columns([
                ScoreBands::CustomerId,
                ScoreBands::AssessmentId,
                ScoreBands::MinPercentage,
                ScoreBands::Title,
            ])
            .values_panic([
                area.id().into(),
                assessment_id.into(),
                min_percentage.into(),
                title.into(),
            ])
            .to_owned();
        self.execute(&insert).await.map(drop)
    }

    pub async fn insert_question(&mut self, question: &NewQuestion<'_>) -> Result<(), StoreError> {
        let (map_default, map_lower, map_upper) = question.rule.map_columns();
        let insert = Query::insert()
            .into_table(Questions::Table)
            .columns(QUESTION_COLUMNS)
            .values_panic([
                question.id.into(),
                question.area.id().into(),
                question.revision.into(),
                question.language.into(),
                question.description.into(),
                question.question_type.into(),
                question.max_score.into(),
                question.topic_id.into(),
                question.markup.into(),
                question.shuffle_choices.into(),
                question.rule.name().into(),
                map_default.into(),
                map_lower.into(),
                map_upper.into(),
                question.at.into(),
                question.at.into(),
            ])
            .to_owned();
        self.execute(&insert).await.map(drop)
    }

    pub async fn insert_choice(
        &mut self,
        area: CustomerArea,
        question_id: i64,
        order: i32,
        text: &str,
        is_correct: bool,
    ) -> Result<(), StoreError> {
        let insert = Query::insert()
            .into_table(Choices::Table)
            .columns([
                Choices::CustomerId,
                Choices::QuestionId,
                Choices::ChoiceOrder,
                Choices::Text,
                Choices::IsCorrect,
            ])
            .values_panic([
                area.id().into(),
                question_id.into(),
                order.into(),
                text.into(),
                is_correct.into(),
            ])
            .to_owned();
        self.execute(&insert).await.map(drop)
    }

    pub async fn insert_assessment_question(
        &mut self,
        area: CustomerArea,
        assessment_id: i64,
        position: i32,
        question_id: i64,
    ) -> Result<(), StoreError> {
        let insert = Query::insert()
            .into_table(AssessmentQuestions::Table)
            .columns([
                AssessmentQuestions::CustomerId,
                AssessmentQuestions::AssessmentId,
                AssessmentQuestions::Position,
                AssessmentQuestions::QuestionId,
            ])
            .values_panic([
                area.id().into(),
                assessment_id.into(),
                position.into(),
                question_id.into(),
            ])
            .to_owned();
        self.execute(&insert).await.map(drop)
    }

    pub async fn insert_rubric(
        &mut self,
        area: CustomerArea,
        question_id: i64,
        name: &str,
        instructions: &str,
        max_score: i16,
        at: i64,
    ) -> Result<i32, StoreError> {
        self.insert_returning_id(
            Query::insert()
                .into_table(Rubrics::Table)
                .columns([
                    Rubrics::CustomerId,
                    Rubrics::QuestionId,
                    Rubrics::Name,
                    Rubrics::Instructions,
                    Rubrics::MaxScore,
                    Rubrics::CreatedAt,
                    Rubrics::ModifiedAt,
                ])
                .values_panic([
                    area.id().into(),
                    question_id.into(),
                    name.into(),
                    instructions.into(),
                    max_score.into(),
                    at.into(),
                    at.into(),
                ])
                .returning_col(Rubrics::Id)
                .to_owned(),
        )
        .await
    }

    pub async fn insert_dimension(
        &mut self,
        area: CustomerArea,
        rubric_id: i32,
        order: i32,
        name: &str,
        instructions: &str,
        max_score: i16,
    ) -> Result<(), StoreError> {
        let insert = Query::insert()
            .into_table(Dimensions::Table)
            .columns([
                Dimensions::CustomerId,
                Dimensions::RubricId,
                Dimensions::DimensionOrder,
                Dimensions::Name,
                Dimensions::Instructions,
                Dimensions::MaxScore,
            ])
            .values_panic([
                area.id().into(),
                rubric_id.into(),
                order.into(),
                name.into(),
                instructions.into(),
                max_score.into(),
            ])
            .to_owned();
        self.execute(&insert).await.map(drop)
    }

    /// What earns `score` on a rubric's dimension (DimensionLevels).
    pub async fn insert_dimension_level(
        &mut self,
        area: CustomerArea,
        rubric_id: i32,
        order: i32,
        score: i16,
        description: &str,
    ) -> Result<(), StoreError> {
        let insert = Query::insert()
            .into_table(DimensionLevels::Table)
            .columns([
                DimensionLevels::CustomerId,
                DimensionLevels::RubricId,
                DimensionLevels::DimensionOrder,
                DimensionLevels::Score,
                DimensionLevels::Description,
            ])
            .values_panic([
                area.id().into(),
                rubric_id.into(),
                order.into(),
                score.into(),
                description.into(),
            ])
            .to_owned();
        self.execute(&insert).await.map(drop)
    }
}
