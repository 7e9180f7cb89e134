//! Writes used when data enters the store in bulk: the demo seed and `seed --scale`.
//! Each `New*` row mirrors its table; IDs that the database generates are returned.

use sea_query::{InsertStatement, Query, SimpleExpr};

use super::schema::*;
use super::{StoreError, Tx};
use crate::model::finalise::{FinalisedAnswer, NewScoringTask};
use crate::model::result_scores::TopicSubScore;
use crate::model::scoring::TaskKey;

/// Rows per multi-row INSERT: well under SQLite's 32,766 bound parameters even for
/// the widest table, and large enough that a million rows load in seconds.
pub const BATCH_ROWS: usize = 500;

pub struct NewQuestion<'a> {
    pub id: i64,
    pub customer_id: i32,
    pub question_type: &'a str,
    pub description: &'a str,
    pub language: &'a str,
    pub max_score: i32,
    pub topic_id: Option<i32>,
    pub markup: &'a str,
    pub at: i64,
}

#[derive(Clone)]
pub struct NewResult {
    pub customer_id: i32,
    pub assessment_id: i64,
    pub participant_id: Option<i32>,
    pub participant_name: String,
    pub first_name: String,
    pub last_name: String,
    pub group_id: Option<i32>,
    pub group_name: Option<String>,
    pub status: i16,
    pub max_score: i32,
    pub total_score: i32,
    pub percentage_score: i16,
    pub score_band_title: Option<String>,
    pub when_started: i64,
    pub when_finished: i64,
    pub time_taken: i32,
    pub language: String,
    pub schedule_name: Option<String>,
    pub test_center_name: Option<String>,
}

#[derive(Clone)]
pub struct NewAnswer {
    pub customer_id: i32,
    pub question_id: i64,
    pub result_id: i32,
    pub occurrence: i16,
    pub block_number: i16,
    pub question_number: i32,
    pub max_score: i32,
    pub actual_score: Option<i32>,
    pub media_type: String,
    pub content: Vec<u8>,
}

impl NewAnswer {
    /// The answer as finalising its result sees it.
    pub fn finalised(&self) -> FinalisedAnswer {
        FinalisedAnswer {
            key: TaskKey {
                question_id: self.question_id,
                result_id: self.result_id,
            },
            actual_score: self.actual_score,
        }
    }
}

pub struct NewTopicScore {
    pub customer_id: i32,
    pub result_id: i32,
    pub topic_id: i32,
    pub percentage_score: f64,
    pub total_score: i32,
    pub max_score: i32,
    pub score_band_title: Option<String>,
    pub num_questions: i32,
    pub topic_path: String,
}

impl NewTopicScore {
    pub fn from_scores(customer_id: i32, result_id: i32, scores: TopicSubScore) -> Self {
        NewTopicScore {
            customer_id,
            result_id,
            topic_id: scores.topic.id,
            percentage_score: scores.percentage_score,
            total_score: scores.total_score,
            max_score: scores.max_score,
            score_band_title: scores.score_band_title,
            num_questions: scores.num_questions,
            topic_path: scores.topic.path,
        }
    }
}

impl Tx {
    async fn insert_returning_id(&mut self, insert: InsertStatement) -> Result<i32, StoreError> {
        self.fetch_scalar(&insert).await
    }

    pub async fn insert_group(
        &mut self,
        customer_id: i32,
        name: &str,
        description: &str,
    ) -> Result<i32, StoreError> {
        self.insert_returning_id(
            Query::insert()
                .into_table(Groups::Table)
                .columns([Groups::CustomerId, Groups::Name, Groups::Description])
                .values_panic([customer_id.into(), name.into(), description.into()])
                .returning_col(Groups::Id)
                .to_owned(),
        )
        .await
    }

    pub async fn insert_participant(
        &mut self,
        customer_id: i32,
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
                    customer_id.into(),
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
        customer_id: i32,
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
            .values_panic([customer_id.into(), group_id.into(), participant_id.into()])
            .to_owned();
        self.execute(&insert).await.map(drop)
    }

    pub async fn insert_assessment(
        &mut self,
        id: i64,
        customer_id: i32,
        name: &str,
        language: &str,
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
                customer_id.into(),
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
        customer_id: i32,
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
                .values_panic([
                    customer_id.into(),
                    parent_id.into(),
                    name.into(),
                    path.into(),
                ])
                .returning_col(Topics::Id)
                .to_owned(),
        )
        .await
    }

    pub async fn insert_score_band(
        &mut self,
        customer_id: i32,
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
                customer_id.into(),
                assessment_id.into(),
                min_percentage.into(),
                title.into(),
            ])
            .to_owned();
        self.execute(&insert).await.map(drop)
    }

    pub async fn insert_question(&mut self, question: &NewQuestion<'_>) -> Result<(), StoreError> {
        let insert = Query::insert()
            .into_table(Questions::Table)
            .columns([
                Questions::Id,
                Questions::CustomerId,
                Questions::Revision,
                Questions::Language,
                Questions::Description,
                Questions::QuestionType,
                Questions::MaxScore,
                Questions::TopicId,
                Questions::Markup,
                Questions::CreatedAt,
                Questions::ModifiedAt,
            ])
            .values_panic([
                question.id.into(),
                question.customer_id.into(),
                1i32.into(),
                question.language.into(),
                question.description.into(),
                question.question_type.into(),
                question.max_score.into(),
                question.topic_id.into(),
                question.markup.into(),
                question.at.into(),
                question.at.into(),
            ])
            .to_owned();
        self.execute(&insert).await.map(drop)
    }

    pub async fn insert_choice(
        &mut self,
        customer_id: i32,
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
                customer_id.into(),
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
        customer_id: i32,
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
                customer_id.into(),
                assessment_id.into(),
                position.into(),
                question_id.into(),
            ])
            .to_owned();
        self.execute(&insert).await.map(drop)
    }

    pub async fn insert_rubric(
        &mut self,
        customer_id: i32,
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
                    customer_id.into(),
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
        customer_id: i32,
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
                customer_id.into(),
                rubric_id.into(),
                order.into(),
                name.into(),
                instructions.into(),
                max_score.into(),
            ])
            .to_owned();
        self.execute(&insert).await.map(drop)
    }

    /// Inserts results in batches and returns their generated IDs, in input order.
    pub async fn insert_results(&mut self, results: &[NewResult]) -> Result<Vec<i32>, StoreError> {
        let mut ids = Vec::with_capacity(results.len());
        for chunk in results.chunks(BATCH_ROWS) {
            let mut insert = Query::insert()
                .into_table(Results::Table)
                .columns([
                    Results::CustomerId,
                    Results::AssessmentId,
                    Results::ParticipantId,
                    Results::ParticipantName,
                    Results::FirstName,
                    Results::LastName,
                    Results::GroupId,
                    Results::GroupName,
                    Results::Status,
                    Results::MaxScore,
                    Results::TotalScore,
                    Results::PercentageScore,
                    Results::ScoreBandTitle,
                    Results::WhenStarted,
                    Results::WhenFinished,
                    Results::TimeTaken,
                    Results::StillGoing,
                    Results::Language,
                    Results::ScheduleName,
                    Results::TestCenterName,
                ])
                .returning_col(Results::Id)
                .to_owned();
            for r in chunk {
                let row: [SimpleExpr; 20] = [
                    r.customer_id.into(),
                    r.assessment_id.into(),
                    r.participant_id.into(),
                    r.participant_name.clone().into(),
                    r.first_name.clone().into(),
                    r.last_name.clone().into(),
                    r.group_id.into(),
                    r.group_name.clone().into(),
                    r.status.into(),
                    r.max_score.into(),
                    r.total_score.into(),
                    r.percentage_score.into(),
                    r.score_band_title.clone().into(),
                    r.when_started.into(),
                    r.when_finished.into(),
                    r.time_taken.into(),
                    false.into(),
                    r.language.clone().into(),
                    r.schedule_name.clone().into(),
                    r.test_center_name.clone().into(),
                ];
                insert.values_panic(row);
            }
            let mut chunk_ids: Vec<(i32,)> = self.fetch_all(&insert).await?;
            // RETURNING gives rows in insertion order on both backends for a single
            // multi-row VALUES insert; sort anyway since IDs ascend with it.
            chunk_ids.sort_unstable();
            ids.extend(chunk_ids.into_iter().map(|(id,)| id));
        }
        Ok(ids)
    }

    pub async fn insert_answers(&mut self, answers: &[NewAnswer]) -> Result<(), StoreError> {
        // Answers may carry megabytes of image; keep statements small when they do.
        let rows = if answers.iter().any(|a| a.content.len() > 64 * 1024) {
            1
        } else {
            BATCH_ROWS
        };
        for chunk in answers.chunks(rows) {
            let mut insert = Query::insert()
                .into_table(Answers::Table)
                .columns([
                    Answers::CustomerId,
                    Answers::QuestionId,
                    Answers::ResultId,
                    Answers::Occurrence,
                    Answers::BlockNumber,
                    Answers::QuestionNumber,
                    Answers::MaxScore,
                    Answers::ActualScore,
                    Answers::Revision,
                    Answers::MediaType,
                    Answers::Content,
                ])
                .to_owned();
            for a in chunk {
                insert.values_panic([
                    a.customer_id.into(),
                    a.question_id.into(),
                    a.result_id.into(),
                    a.occurrence.into(),
                    a.block_number.into(),
                    a.question_number.into(),
                    a.max_score.into(),
                    a.actual_score.into(),
                    1i32.into(),
                    a.media_type.clone().into(),
                    a.content.clone().into(),
                ]);
            }
            self.execute(&insert).await?;
        }
        Ok(())
    }

    pub async fn insert_scoring_tasks(
        &mut self,
        tasks: &[NewScoringTask],
    ) -> Result<(), StoreError> {
        for chunk in tasks.chunks(BATCH_ROWS) {
            let mut insert = Query::insert()
                .into_table(ScoringTasks::Table)
                .columns([
                    ScoringTasks::CustomerId,
                    ScoringTasks::QuestionId,
                    ScoringTasks::ResultId,
                    ScoringTasks::GroupId,
                    ScoringTasks::AssessmentId,
                    ScoringTasks::Status,
                    ScoringTasks::CreatedAt,
                    ScoringTasks::ModifiedAt,
                    ScoringTasks::ResultFinishedAt,
                ])
                .to_owned();
            for t in chunk {
                insert.values_panic([
                    t.area.id().into(),
                    t.key.question_id.into(),
                    t.key.result_id.into(),
                    t.group_id.into(),
                    t.assessment_id.into(),
                    t.status.code().into(),
                    t.at.into(),
                    t.at.into(),
                    t.result_finished_at.into(),
                ]);
            }
            self.execute(&insert).await?;
        }
        Ok(())
    }

    pub async fn insert_topic_scores(
        &mut self,
        scores: &[NewTopicScore],
    ) -> Result<(), StoreError> {
        for chunk in scores.chunks(BATCH_ROWS) {
            let mut insert = Query::insert()
                .into_table(TopicScores::Table)
                .columns([
                    TopicScores::CustomerId,
                    TopicScores::ResultId,
                    TopicScores::TopicId,
                    TopicScores::PercentageScore,
                    TopicScores::TotalScore,
                    TopicScores::MaxScore,
                    TopicScores::ScoreBandTitle,
                    TopicScores::NumQuestions,
                    TopicScores::TopicPath,
                ])
                .to_owned();
            for s in chunk {
                insert.values_panic([
                    s.customer_id.into(),
                    s.result_id.into(),
                    s.topic_id.into(),
                    s.percentage_score.into(),
                    s.total_score.into(),
                    s.max_score.into(),
                    s.score_band_title.clone().into(),
                    s.num_questions.into(),
                    s.topic_path.clone().into(),
                ]);
            }
            self.execute(&insert).await?;
        }
        Ok(())
    }
}
