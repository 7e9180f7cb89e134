//! Writing an imported assessment (model::content) in the caller's transaction:
//! its topics, its new questions and their choices or keys, the assessment with its
//! question list and score bands, and where each came from (`content_sources`), so
//! that the next import of the same package finds them.

use sea_query::{Expr, Func, Query};

use crate::model::area::CustomerArea;
use crate::model::content::{
    question_fate, AssessmentFate, ContentPlan, ImportOutcome, ImportedBefore, PlannedQuestion,
    QuestionFate,
};
use crate::store::schema::{
    AssessmentQuestions, Assessments, Choices, ContentSources, Questions, ScoreBands, TextKeys,
    Topics,
};
use crate::store::seed_writes::NewQuestion;
use crate::store::{StoreError, Tx};

/// The advisory lock imports hold on PostgreSQL: new question IDs are chosen as
/// one more than the largest, so two imports must not choose at once.
pub(super) const IMPORT_LOCK: i64 = 0x5344_5154_4930_0001;

/// `SELECT COALESCE(MAX(column), 0) FROM table`.
fn largest(
    table: impl sea_query::Iden + 'static,
    column: impl sea_query::Iden + 'static,
) -> sea_query::SelectStatement {
    Query::select()
        .expr(Func::coalesce([
            Expr::col(column).max(),
            Expr::val(0i64).into(),
        ]))
        .from(table)
        .to_owned()
}

const ASSESSMENT: &str = "assessment";
const QUESTION: &str = "question";

impl Tx {
    /// Imports `plan` into `area` at time `at`.
    pub async fn import_content(
        &mut self,
        area: CustomerArea,
        plan: &ContentPlan,
        at: i64,
    ) -> Result<ImportOutcome, StoreError> {
        self.advisory_lock(IMPORT_LOCK).await?;
        let mut next_id = self.next_content_id().await?;
        let mut topics_created = 0;
        let mut questions = Vec::with_capacity(plan.questions.len());
        for planned in &plan.questions {
            let fingerprint = planned.fingerprint();
            let before = self.imported_question(area, &planned.key).await?;
            let fate = question_fate(before.as_ref(), &fingerprint, next_id);
            let revision = match fate {
                QuestionFate::Unchanged { .. } => {
                    questions.push(fate);
                    continue;
                }
                QuestionFate::Created { .. } => 1,
                QuestionFate::Revised { revision, .. } => revision,
            };
            next_id += 1;
            let topic = match &planned.topic {
                Some(path) => {
                    let (id, made) = self.topic_by_path(area, path).await?;
                    topics_created += made;
                    Some(id)
                }
                None => None,
            };
            self.insert_imported_question(area, fate.id(), revision, topic, planned, at)
                .await?;
            self.record_source(area, QUESTION, &planned.key, fate.id(), &fingerprint, at)
                .await?;
            questions.push(fate);
        }

        let fingerprint = plan.fingerprint();
        let before = self.imported_source(area, ASSESSMENT, &plan.key).await?;
        let (assessment_id, assessment) = match before {
            Some((id, previous)) if previous == fingerprint => (id, AssessmentFate::Unchanged),
            Some((id, _)) => {
                self.replace_assessment(area, id, plan, &questions, at)
                    .await?;
                (id, AssessmentFate::Updated)
            }
            None => {
                let id = next_id;
                let description = "Imported from a QTI package";
                self.insert_assessment(
                    id,
                    area,
                    &plan.name,
                    plan.language.as_deref(),
                    description,
                    at,
                )
                .await?;
                self.list_assessment(area, id, plan, &questions).await?;
                (id, AssessmentFate::Created)
            }
        };
        if assessment != AssessmentFate::Unchanged {
            self.record_source(area, ASSESSMENT, &plan.key, assessment_id, &fingerprint, at)
                .await?;
        }
        Ok(ImportOutcome {
            assessment_id,
            assessment,
            questions,
            topics_created,
        })
    }

    /// One more than the largest assessment or question ID: imported IDs share the
    /// seeds' number space, as the service's combined identifiers do.
    pub(super) async fn next_content_id(&mut self) -> Result<i64, StoreError> {
        let questions: i64 = self
            .fetch_scalar(&largest(Questions::Table, Questions::Id))
            .await?;
        let assessments: i64 = self
            .fetch_scalar(&largest(Assessments::Table, Assessments::Id))
            .await?;
        Ok(questions.max(assessments) + 1)
    }

    async fn imported_source(
        &mut self,
        area: CustomerArea,
        kind: &str,
        key: &str,
    ) -> Result<Option<(i64, String)>, StoreError> {
        self.fetch_optional(
            &Query::select()
                .columns([ContentSources::TargetId, ContentSources::Fingerprint])
                .from(ContentSources::Table)
                .and_where(Expr::col(ContentSources::CustomerId).eq(area.id()))
                .and_where(Expr::col(ContentSources::Kind).eq(kind))
                .and_where(Expr::col(ContentSources::SourceKey).eq(key))
                .to_owned(),
        )
        .await
    }

    async fn imported_question(
        &mut self,
        area: CustomerArea,
        key: &str,
    ) -> Result<Option<ImportedBefore>, StoreError> {
        let Some((id, fingerprint)) = self.imported_source(area, QUESTION, key).await? else {
            return Ok(None);
        };
        let revision: i32 = self
            .fetch_scalar(
                &Query::select()
                    .column(Questions::Revision)
                    .from(Questions::Table)
                    .and_where(Expr::col(Questions::CustomerId).eq(area.id()))
                    .and_where(Expr::col(Questions::Id).eq(id))
                    .to_owned(),
            )
            .await?;
        Ok(Some(ImportedBefore {
            id,
            revision,
            fingerprint,
        }))
    }

    async fn record_source(
        &mut self,
        area: CustomerArea,
        kind: &str,
        key: &str,
        target: i64,
        fingerprint: &str,
        at: i64,
    ) -> Result<(), StoreError> {
        self.execute(
            &Query::delete()
                .from_table(ContentSources::Table)
                .and_where(Expr::col(ContentSources::CustomerId).eq(area.id()))
                .and_where(Expr::col(ContentSources::Kind).eq(kind))
                .and_where(Expr::col(ContentSources::SourceKey).eq(key))
                .to_owned(),
        )
        .await?;
        self.execute(
            &Query::insert()
                .into_table(ContentSources::Table)
                .columns([
                    ContentSources::CustomerId,
                    ContentSources::Kind,
                    ContentSources::SourceKey,
                    ContentSources::TargetId,
                    ContentSources::Fingerprint,
                    ContentSources::ImportedAt,
                ])
                .values_panic([
                    area.id().into(),
                    kind.into(),
                    key.into(),
                    target.into(),
                    fingerprint.into(),
                    at.into(),
                ])
                .to_owned(),
        )
        .await
        .map(drop)
    }

    /// The topic at `path` (`A/B`) in `area`, made with its parents if missing;
    /// with how many were made.
    async fn topic_by_path(
        &mut self,
        area: CustomerArea,
        path: &str,
    ) -> Result<(i32, usize), StoreError> {
        let mut parent: Option<i32> = None;
        let mut made = 0;
        let mut so_far = String::new();
        for name in path.split('/').map(str::trim).filter(|n| !n.is_empty()) {
            if !so_far.is_empty() {
                so_far.push('/');
            }
            so_far.push_str(name);
            let found: Option<(i32,)> = self
                .fetch_optional(
                    &Query::select()
                        .column(Topics::Id)
                        .from(Topics::Table)
                        .and_where(Expr::col(Topics::CustomerId).eq(area.id()))
                        .and_where(Expr::col(Topics::Path).eq(so_far.as_str()))
                        .to_owned(),
                )
                .await?;
            let id = match found {
                Some((id,)) => id,
                None => {
                    made += 1;
                    self.insert_topic(area, parent, name, &so_far).await?
                }
            };
            parent = Some(id);
        }
        parent
            .map(|id| (id, made))
            .ok_or_else(|| StoreError::Corrupt(format!("empty topic path '{path}'")))
    }

    pub(super) async fn insert_imported_question(
        &mut self,
        area: CustomerArea,
        id: i64,
        revision: i32,
        topic: Option<i32>,
        question: &PlannedQuestion,
        at: i64,
    ) -> Result<(), StoreError> {
        self.insert_question(&NewQuestion {
            id,
            area,
            revision,
            question_type: question.kind.as_str(),
            description: &question.title,
            language: question.language.as_deref(),
            max_score: question.max_score,
            topic_id: topic,
            markup: &question.markup,
            shuffle_choices: question.shuffle_choices,
            rule: &question.rule,
            at,
        })
        .await?;
        if !question.choices.is_empty() {
            let mut insert = Query::insert()
                .into_table(Choices::Table)
                .columns([
                    Choices::CustomerId,
                    Choices::QuestionId,
                    Choices::ChoiceOrder,
                    Choices::Text,
                    Choices::IsCorrect,
                    Choices::MappedValue,
                    Choices::Fixed,
                    Choices::PartNumber,
                ])
                .to_owned();
            for choice in &question.choices {
                insert.values_panic([
                    area.id().into(),
                    id.into(),
                    choice.order.into(),
                    choice.text.as_str().into(),
                    choice.correct.into(),
                    choice.mapped_value.into(),
                    choice.fixed.into(),
                    choice.part.into(),
                ]);
            }
            self.execute(&insert).await?;
        }
        if !question.text_keys.is_empty() {
            let mut insert = Query::insert()
                .into_table(TextKeys::Table)
                .columns([
                    TextKeys::CustomerId,
                    TextKeys::QuestionId,
                    TextKeys::KeyOrder,
                    TextKeys::Text,
                    TextKeys::CaseSensitive,
                    TextKeys::MappedValue,
                    TextKeys::NumericLow,
                    TextKeys::NumericHigh,
                    TextKeys::PartNumber,
                ])
                .to_owned();
            for (order, key) in question.text_keys.iter().enumerate() {
                insert.values_panic([
                    area.id().into(),
                    id.into(),
                    (order as i32 + 1).into(),
                    key.text.as_str().into(),
                    key.case_sensitive.into(),
                    key.mapped_value.into(),
                    key.numeric.map(|range| range.low).into(),
                    key.numeric.map(|range| range.high).into(),
                    key.part.into(),
                ]);
            }
            self.execute(&insert).await?;
        }
        self.keep_extras(area, id, question).await?;
        self.insert_parts(area, id, &question.parts).await
    }

    /// An assessment imported before, brought up to `plan`: its name, language,
    /// question list and bands replaced. Snapshots keep what they fixed.
    async fn replace_assessment(
        &mut self,
        area: CustomerArea,
        id: i64,
        plan: &ContentPlan,
        questions: &[QuestionFate],
        at: i64,
    ) -> Result<(), StoreError> {
        self.execute(
            &Query::update()
                .table(Assessments::Table)
                .value(Assessments::Name, plan.name.as_str())
                .value(Assessments::Language, plan.language.as_deref())
                .value(Assessments::ModifiedAt, at)
                .and_where(Expr::col(Assessments::CustomerId).eq(area.id()))
                .and_where(Expr::col(Assessments::Id).eq(id))
                .to_owned(),
        )
        .await?;
        for delete in [
            Query::delete()
                .from_table(AssessmentQuestions::Table)
                .and_where(Expr::col(AssessmentQuestions::CustomerId).eq(area.id()))
                .and_where(Expr::col(AssessmentQuestions::AssessmentId).eq(id))
                .to_owned(),
            Query::delete()
                .from_table(ScoreBands::Table)
                .and_where(Expr::col(ScoreBands::CustomerId).eq(area.id()))
                .and_where(Expr::col(ScoreBands::AssessmentId).eq(id))
                .to_owned(),
        ] {
            self.execute(&delete).await?;
        }
        self.list_assessment(area, id, plan, questions).await
    }

    /// The assessment's questions in order, and its bands.
    async fn list_assessment(
        &mut self,
        area: CustomerArea,
        id: i64,
        plan: &ContentPlan,
        questions: &[QuestionFate],
    ) -> Result<(), StoreError> {
        for (position, fate) in questions.iter().enumerate() {
            self.insert_assessment_question(area, id, position as i32 + 1, fate.id())
                .await?;
        }
        for (min, title) in &plan.score_bands {
            self.insert_score_band(area, id, *min, title).await?;
        }
        Ok(())
    }
}
