//! The results table of an export: its columns and each Result's row, the same for
//! every file format (docs/exports.md). Cells carry their type, so that a
//! spreadsheet gets numbers as numbers and times as times.

use crate::model::report::{AssessmentReport, ReportResult};

#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// Text from people (names, keys, titles): a writer neutralises what a
    /// spreadsheet would take for a formula.
    Text(String),
    Int(i64),
    Number(f64),
    Bool(bool),
    /// Milliseconds since the Unix epoch, UTC.
    Time(i64),
    Empty,
}

/// The fixed columns before the questions'.
const LEADING: [&str; 10] = [
    "ResultID",
    "Participant",
    "FirstName",
    "LastName",
    "ParticipantKey",
    "Group",
    "AttemptID",
    "ExternalAttemptID",
    "Status",
    "WhenFinished",
];

/// The fixed columns after the topics'.
const TRAILING: [&str; 5] = [
    "TotalScore",
    "MaxScore",
    "PercentageScore",
    "ScoreBand",
    "Provisional",
];

/// The header row: the fixed columns, `Q1`… in the assessment's order (the
/// item-statistics sheet names each), `Topic: <path>` for each topic, the totals.
pub fn headers(report: &AssessmentReport) -> Vec<Cell> {
    let questions = (1..=report.questions.len()).map(|n| format!("Q{n}"));
    let topics = report.topics.iter().map(|t| format!("Topic: {}", t.path));
    LEADING
        .iter()
        .map(|h| h.to_string())
        .chain(questions)
        .chain(topics)
        .chain(TRAILING.iter().map(|h| h.to_string()))
        .map(Cell::Text)
        .collect()
}

/// The index of the `TotalScore` column.
pub fn total_column(report: &AssessmentReport) -> usize {
    LEADING.len() + report.questions.len() + report.topics.len()
}

/// One Result's row: a question waiting for a scorer (or never answered) is empty,
/// and the row says it is provisional.
pub fn row(result: &ReportResult) -> Vec<Cell> {
    let text = |value: &Option<String>| value.clone().map_or(Cell::Empty, Cell::Text);
    let int = |value: Option<i32>| value.map_or(Cell::Empty, |v| Cell::Int(v.into()));
    let mut cells = vec![
        Cell::Int(result.id.into()),
        text(&result.participant),
        text(&result.first_name),
        text(&result.last_name),
        text(&result.participant_key),
        text(&result.group),
        int(result.attempt_id),
        text(&result.external_attempt_id),
        Cell::Int(result.status.into()),
        result.when_finished.map_or(Cell::Empty, Cell::Time),
    ];
    cells.extend(
        result
            .answers
            .iter()
            .map(|answer| int(answer.as_ref().and_then(|a| a.score))),
    );
    cells.extend(result.topic_scores.iter().map(|&score| int(score)));
    cells.extend([
        Cell::Int(result.total_score.into()),
        Cell::Int(result.max_score.into()),
        Cell::Int(result.percentage_score.into()),
        text(&result.band),
        Cell::Bool(result.provisional()),
    ]);
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::report::{AnswerScore, ReportTopic};

    #[test]
    fn a_row_has_a_cell_under_every_header() {
        let report = AssessmentReport {
            questions: Vec::new(),
            topics: vec![ReportTopic {
                id: 1,
                path: "Algebra".into(),
            }],
            ..Default::default()
        };
        let result = ReportResult {
            id: 7,
            answers: vec![
                Some(AnswerScore {
                    score: Some(2),
                    chosen: vec![],
                }),
                Some(AnswerScore {
                    score: None,
                    chosen: vec![],
                }),
            ],
            topic_scores: vec![Some(2)],
            total_score: 2,
            ..Default::default()
        };
        let mut report = report;
        report.questions = vec![question(), question()];
        let cells = row(&result);
        assert_eq!(cells.len(), headers(&report).len());
        assert_eq!(cells[10], Cell::Int(2));
        assert_eq!(cells[11], Cell::Empty, "waiting for a scorer");
        assert_eq!(cells[total_column(&report)], Cell::Int(2));
        assert_eq!(cells.last(), Some(&Cell::Bool(true)));
        assert_eq!(headers(&report)[12], Cell::Text("Topic: Algebra".into()));
    }

    fn question() -> crate::model::report::ReportQuestion {
        crate::model::report::ReportQuestion {
            id: 1,
            description: None,
            kind: None,
            max_score: 2,
            choices: Vec::new(),
        }
    }
}
