//! Writing an imported assessment (model::content) in the caller's transaction:
//! its topics, its new questions and their choices or keys, the assessment with its
//! question list and score bands, and where each came from (`content_sources`), so
//! that the next import of the same package finds them.

use std::collections::HashMap;

use sea_query::{Expr, Func, Query};

use super::import_rows::QuestionRow;
use super::import_sources::SourceRow;
use crate::model::area::CustomerArea;
use crate::model::content::{
    question_fate, AssessmentFate, ContentPlan, ImportOutcome, ImportedBefore, QuestionFate,
};
use crate::store::schema::{
    AssessmentQuestions, Assessments, ContentSources, Questions, ScoreBands, Topics,
};
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
        let keys: Vec<&str> = plan.questions.iter().map(|q| q.key.as_str()).collect();
        let mut before = self.imported_questions(area, QUESTION, &keys).await?;
        let mut topics: HashMap<&str, i32> = HashMap::new();
        let mut topics_created = 0;
        let mut questions = Vec::with_capacity(plan.questions.len());
        let mut written = Vec::new();
        // By key, so that a key the plan repeats is recorded once, as its last.
        let mut sources: HashMap<&str, SourceRow> = HashMap::new();
        for planned in &plan.questions {
            let fingerprint = planned.fingerprint();
            let fate = question_fate(before.get(&planned.key), &fingerprint, next_id);
            let revision = match fate {
                QuestionFate::Unchanged { .. } => {
                    questions.push(fate);
                    continue;
                }
                QuestionFate::Created { .. } => 1,
                QuestionFate::Revised { revision, .. } => revision,
            };
            next_id += 1;
            let topic = match planned.topic.as_deref() {
                Some(path) => Some(match topics.get(path) {
                    Some(id) => *id,
                    None => {
                        let (id, made) = self.topic_by_path(area, path).await?;
                        topics_created += made;
                        topics.insert(path, id);
                        id
                    }
                }),
                None => None,
            };
            written.push(QuestionRow {
                id: fate.id(),
                revision,
                topic,
                question: planned,
            });
            // A key the plan repeats is what this import just wrote, as it would
            // be had the two been imported one after the other.
            before.insert(
                planned.key.clone(),
                ImportedBefore {
                    id: fate.id(),
                    revision,
                    fingerprint: fingerprint.clone(),
                },
            );
            sources.insert(
                &planned.key,
                SourceRow {
                    key: &planned.key,
                    target: fate.id(),
                    fingerprint,
                },
            );
            questions.push(fate);
        }
        self.insert_imported_questions(area, &written, at).await?;
        let sources: Vec<SourceRow> = sources.into_values().collect();
        self.record_sources(area, QUESTION, &sources, at).await?;

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
            let source = SourceRow {
                key: &plan.key,
                target: assessment_id,
                fingerprint,
            };
            self.record_sources(area, ASSESSMENT, &[source], at).await?;
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
        self.list_questions(area, id, questions.iter().map(|fate| fate.id()))
            .await?;
        for (min, title) in &plan.score_bands {
            self.insert_score_band(area, id, *min, title).await?;
        }
        Ok(())
    }
}
