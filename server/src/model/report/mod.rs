//! An assessment's results as a coordinator takes them out (issue 34): one row per
//! Result with each question's and topic's score, and the item analysis over the
//! final ones. The store gathers an [`AssessmentReport`]; the functions here decide
//! what a row says ([`table`]) and what the figures are ([`analysis`]); the
//! writers of CSV, XLSX and OneRoster files live in `documents::export`.

pub mod analysis;
pub mod table;

use crate::model::question_kind::QuestionKind;

/// Everything the export and the item analysis read about one assessment.
#[derive(Debug, Clone, Default)]
pub struct AssessmentReport {
    pub assessment_id: i64,
    pub name: String,
    /// In the assessment's order: the columns of the export.
    pub questions: Vec<ReportQuestion>,
    /// The topics its questions belong to, by path.
    pub topics: Vec<ReportTopic>,
    /// Oldest first (by ResultID).
    pub results: Vec<ReportResult>,
}

#[derive(Debug, Clone)]
pub struct ReportQuestion {
    pub id: i64,
    pub description: Option<String>,
    pub kind: Option<QuestionKind>,
    pub max_score: i32,
    /// Choice questions' choices by their own numbers (`choice_order`).
    pub choices: Vec<ReportChoice>,
}

#[derive(Debug, Clone)]
pub struct ReportChoice {
    pub order: i32,
    pub text: String,
    pub is_correct: bool,
}

#[derive(Debug, Clone)]
pub struct ReportTopic {
    pub id: i32,
    pub path: String,
}

#[derive(Debug, Clone, Default)]
pub struct ReportResult {
    pub id: i32,
    /// The participant's username (`Result.ParticipantName`).
    pub participant: Option<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    /// The school's key for the participant (a OneRoster sourcedId).
    pub participant_key: Option<String>,
    pub group: Option<String>,
    /// The school's key for the group (a OneRoster class sourcedId).
    pub group_key: Option<String>,
    pub attempt_id: Option<i32>,
    pub external_attempt_id: Option<String>,
    pub status: i16,
    /// Milliseconds since the Unix epoch, UTC.
    pub when_finished: Option<i64>,
    pub total_score: i32,
    pub max_score: i32,
    pub percentage_score: i16,
    pub band: Option<String>,
    /// One per report question, in the same order; `None`: the result has no
    /// answer to it (the question came into the assessment after it).
    pub answers: Vec<Option<AnswerScore>>,
    /// One per report topic: its TopicScore's total, if the result has one.
    pub topic_scores: Vec<Option<i32>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AnswerScore {
    /// `None`: waiting for a scorer.
    pub score: Option<i32>,
    /// Choice questions: the choices chosen, by the question's numbers.
    pub chosen: Vec<i32>,
}

impl ReportResult {
    /// Provisional: some answer is still to be scored, so the total may change.
    pub fn provisional(&self) -> bool {
        self.answers.iter().flatten().any(|a| a.score.is_none())
    }

    /// Final, for the item analysis: finished (Status 3) with every question
    /// answered and scored.
    pub fn is_final(&self) -> bool {
        self.status == 3
            && self
                .answers
                .iter()
                .all(|a| a.as_ref().is_some_and(|a| a.score.is_some()))
    }
}

/// Choices as stored in an answer's content (`2,4`): the numbers that parse.
pub fn chosen_choices(content: &[u8]) -> Vec<i32> {
    String::from_utf8_lossy(content)
        .split(',')
        .filter_map(|part| part.trim().parse().ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_with_an_answer_to_score_is_provisional_and_not_final() {
        let mut result = ReportResult {
            status: 3,
            answers: vec![
                Some(AnswerScore {
                    score: Some(1),
                    chosen: vec![2],
                }),
                Some(AnswerScore {
                    score: None,
                    chosen: vec![],
                }),
            ],
            ..Default::default()
        };
        assert!(result.provisional());
        assert!(!result.is_final());
        result.answers[1] = Some(AnswerScore {
            score: Some(0),
            chosen: vec![],
        });
        assert!(!result.provisional());
        assert!(result.is_final());
        result.status = 7;
        assert!(!result.is_final());
        result.status = 3;
        result.answers.push(None);
        assert!(!result.is_final(), "a question it never answered");
    }

    #[test]
    fn chosen_choices_read_the_stored_list() {
        assert_eq!(chosen_choices(b"2,4"), vec![2, 4]);
        assert_eq!(chosen_choices(b""), Vec::<i32>::new());
        assert_eq!(chosen_choices(b" 3 "), vec![3]);
    }
}
