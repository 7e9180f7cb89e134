//! Writes used when data enters the store in bulk: the demo seed and `seed --scale`.
//! Each `New*` row mirrors its table; IDs that the database generates are returned.
//! `catalogue` writes what results refer to (groups, participants, assessments,
//! questions, rubrics), `results` the results with their answers, tasks and topic
//! scores.

pub(in crate::store) mod catalogue;
mod results;
mod unnest;

use crate::model::area::CustomerArea;
use crate::model::finalise::FinalisedAnswer;
use crate::model::result_scores::TopicSubScore;
use crate::model::scoring::TaskKey;
use crate::model::scoring_rule::ScoringRule;

/// Rows per multi-row INSERT: well under SQLite's 32,766 bound parameters even for
/// the widest table, and large enough that a million rows load in seconds.
pub const BATCH_ROWS: usize = 500;

pub struct NewQuestion<'a> {
    pub id: i64,
    pub area: CustomerArea,
    /// 1 for a new question; an imported item's changed content is a new question
    /// one revision on (model::content).
    pub revision: i32,
    pub question_type: &'a str,
    pub description: &'a str,
    pub language: Option<&'a str>,
    pub max_score: i32,
    pub topic_id: Option<i32>,
    pub markup: &'a str,
    /// Whether snapshots put its choices in an order of their own.
    pub shuffle_choices: bool,
    /// How its answers are marked (the service's own rules for seeded content).
    pub rule: &'a ScoringRule,
    pub at: i64,
}

#[derive(Clone)]
pub struct NewResult {
    pub area: CustomerArea,
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
    /// The external delivery attempt the result was uploaded for.
    pub attempt_id: Option<i32>,
}

#[derive(Clone)]
pub struct NewAnswer {
    pub area: CustomerArea,
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
    /// Its answer group's key (model::answer_groups): typed answers only.
    pub fn group_key(&self) -> Option<String> {
        crate::model::answer_groups::answer_key(&self.media_type, &self.content)
    }

    /// The answer as finalising its result sees it.
    pub fn finalised(&self) -> FinalisedAnswer {
        FinalisedAnswer {
            key: TaskKey {
                question_id: self.question_id,
                result_id: self.result_id,
            },
            actual_score: self.actual_score,
            answer_key: self.group_key(),
        }
    }
}

pub struct NewTopicScore {
    pub area: CustomerArea,
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
    pub fn from_scores(area: CustomerArea, result_id: i32, scores: TopicSubScore) -> Self {
        NewTopicScore {
            area,
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
