//! The scorer's work through the OData API: the queue, taking a task into the
//! scoring view, saving or submitting scores, and releasing a task. The UI calls
//! these through the commands in `commands.rs`; the types mirror ui/src/lib/api.ts.

mod answer_image;
mod comment_bank;
mod filters;
mod grading;
mod history;
mod prepared;
mod queue;
mod submit;
mod take;

pub use answer_image::{for_display, full_image};
pub use comment_bank::{
    bank_comment, comment_bank, edit_banked_comment, forget_banked_comment, BankedComment,
};
pub use filters::{filter_options, FilterOptions};
pub use grading::{question_progress, questions_to_grade, QuestionProgress};
pub use history::{scoring_history, ScoredEvent};
pub use prepared::PreparedScans;
pub use queue::{load_queue, scorable, Queue, QueueFilter};
pub use submit::{release, submit, Draft, SubmitOutcome};
pub use take::{prepare, take, Opening, ScoringView};

/// An OData string literal: quoted, with quotes doubled.
fn literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// The path of a task from its key (QuestionID is an Int64 and needs its `L`).
fn task_path(question_id: &str, result_id: i32) -> String {
    format!("ScoringTasks(QuestionID={question_id}L,ResultID={result_id})")
}

fn scoring_result_path(question_id: &str, rubric_id: i64, result_id: i32) -> String {
    format!("ScoringResults(QuestionID={question_id}L,RubricID={rubric_id},ResultID={result_id})")
}

/// Checks that a key the UI sent is an Int64 in digits, so it cannot alter a URL.
fn int64_key(name: &str, value: &str) -> Result<String, crate::error::CommandError> {
    value.parse::<i64>().map(|n| n.to_string()).map_err(|_| {
        crate::error::CommandError::InvalidInput(format!("{name} '{value}' is not a number."))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_literals_double_their_quotes() {
        assert_eq!(literal("O'Brien group"), "'O''Brien group'");
    }

    #[test]
    fn keys_from_the_ui_must_be_numbers() {
        assert_eq!(int64_key("QuestionID", "42").unwrap(), "42");
        assert!(int64_key("QuestionID", "1)/Answers").is_err());
    }
}
