//! What an import did (or, previewed, would do): served as JSON by the feed,
//! printed by the command line, shown by the desktop before and after.

use scoredesk_qti::Package;
use serde::Serialize;

use super::Mode;
use crate::model::content::{ContentPlan, ImportOutcome, PlannedQuestion, QuestionFate};
use crate::model::points::Shape;
use crate::model::question_kind::QuestionKind;
use crate::model::scoring_rule::ScoringRule;

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct ImportReport {
    /// True when nothing was stored (a preview).
    pub preview: bool,
    pub qti_version: &'static str,
    /// As a string, as JSON light writes Edm.Int64.
    #[serde(serialize_with = "int64")]
    pub assessment_id: i64,
    pub assessment_name: String,
    /// `created`, `updated` or `unchanged`.
    pub assessment: &'static str,
    pub questions: Vec<ReportQuestion>,
    pub skipped: Vec<ReportSkipped>,
    pub score_bands: Vec<ReportBand>,
    pub images: usize,
    pub topics_created: usize,
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct ReportQuestion {
    pub position: usize,
    pub item: String,
    pub file: String,
    pub title: String,
    /// What it asks, in words, cut at 160 characters.
    pub text: String,
    #[serde(serialize_with = "int64")]
    pub question_id: i64,
    /// `created`, `unchanged` or `revised`.
    pub outcome: &'static str,
    pub revision: i32,
    /// The question whose new revision this is.
    #[serde(serialize_with = "optional_int64")]
    pub previous_question_id: Option<i64>,
    pub question_type: &'static str,
    pub max_score: i32,
    pub choices: usize,
    pub scoring: &'static str,
    /// A text entry's accepted answers as people read them, each with its marks
    /// when it is worth other than full marks.
    pub keys: Vec<String>,
    /// The keys are numbers (a numeric entry).
    pub numeric_keys: bool,
    /// A matching's parts (its rows, positions or gaps), in order; its keys are
    /// then each part's correct pair, `Capulet → Montague`. A fill-in-the-blanks
    /// question's blanks; its keys each blank's answers, `Blank 2: Berlin (1)`.
    pub parts: Vec<String>,
    /// How many of a fill-in-the-blanks question's blanks are picked from their
    /// own lists (the rest are typed).
    pub picked_blanks: usize,
    pub topic: Option<String>,
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct ReportBand {
    pub min_percentage: i32,
    pub title: String,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct ReportSkipped {
    pub item: String,
    pub file: String,
    pub reason: String,
}

impl ImportReport {
    pub fn new(package: &Package, plan: &ContentPlan, outcome: &ImportOutcome, mode: Mode) -> Self {
        let questions = package
            .items
            .iter()
            .zip(&plan.questions)
            .zip(&outcome.questions)
            .enumerate()
            .map(|(index, ((item, planned), fate))| {
                let (outcome, revision, previous) = match *fate {
                    QuestionFate::Created { .. } => ("created", 1, None),
                    QuestionFate::Unchanged { revision, .. } => ("unchanged", revision, None),
                    QuestionFate::Revised {
                        previous_id,
                        revision,
                        ..
                    } => ("revised", revision, Some(previous_id)),
                };
                ReportQuestion {
                    position: index + 1,
                    item: item.identifier.clone(),
                    file: item.file.clone(),
                    title: planned.title.clone(),
                    text: item.stem.clone(),
                    question_id: fate.id(),
                    outcome,
                    revision,
                    previous_question_id: previous,
                    question_type: planned.kind.as_str(),
                    max_score: planned.max_score,
                    choices: planned.choices.len(),
                    scoring: if planned.kind.needs_scorer() {
                        "scorer"
                    } else {
                        planned.rule.name()
                    },
                    keys: keys_of(planned),
                    numeric_keys: !planned.text_keys.is_empty()
                        && planned.text_keys.iter().all(|key| key.numeric.is_some()),
                    parts: planned.parts.texts.clone(),
                    picked_blanks: planned
                        .choices
                        .iter()
                        .filter(|c| c.part > 0)
                        .map(|c| c.part)
                        .collect::<std::collections::BTreeSet<_>>()
                        .len(),
                    topic: planned.topic.clone(),
                    notes: item.notes.clone(),
                }
            })
            .collect();
        Self {
            preview: mode == Mode::Preview,
            qti_version: package.version.as_str(),
            assessment_id: outcome.assessment_id,
            assessment_name: plan.name.clone(),
            assessment: outcome.assessment.as_str(),
            questions,
            skipped: package
                .skipped
                .iter()
                .map(|skip| ReportSkipped {
                    item: skip.identifier.clone(),
                    file: skip.file.clone(),
                    reason: skip.reason.clone(),
                })
                .collect(),
            score_bands: plan
                .score_bands
                .iter()
                .map(|(min, title)| ReportBand {
                    min_percentage: *min,
                    title: title.clone(),
                })
                .collect(),
            images: package.images,
            topics_created: outcome.topics_created,
            notes: package.notes.clone(),
        }
    }
}

fn int64<S: serde::Serializer>(value: &i64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&value.to_string())
}

fn optional_int64<S: serde::Serializer>(
    value: &Option<i64>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match value {
        Some(value) => serializer.serialize_str(&value.to_string()),
        None => serializer.serialize_none(),
    }
}

/// A question's keys as people read them: a text entry's accepted answers, each
/// with its marks when worth other than full marks; a matching's correct pairs;
/// a blank's answers after its name, each with its marks; a point question's
/// areas with their worth.
fn keys_of(planned: &PlannedQuestion) -> Vec<String> {
    // A point question's areas, each with what a point in it is worth.
    if planned.kind == QuestionKind::Point {
        return planned
            .choices
            .iter()
            .filter_map(|area| {
                let shape = Shape::parse(&area.text)?;
                Some(format!(
                    "{} ({})",
                    shape.describe(),
                    area.mapped_value.unwrap_or(0.0)
                ))
            })
            .collect();
    }
    let pairs = planned.parts.keys.iter().filter(|key| key.correct);
    let pairs = pairs.filter_map(|key| {
        let part = planned
            .parts
            .texts
            .get(usize::try_from(key.part - 1).ok()?)?;
        let choice = planned.choices.iter().find(|c| c.order == key.choice)?;
        Some(format!("{part} → {}", choice.text))
    });
    // A picked blank's key: its right options, as a typed blank's answers.
    let options = planned.choices.iter().filter(|c| c.part > 0 && c.correct);
    let options = options.map(|option| (option.part, option.text.as_str(), option.mapped_value));
    let typed = planned
        .text_keys
        .iter()
        .map(|key| (key.part, key.text.as_str(), key.mapped_value));
    let mut answers: Vec<_> = typed.chain(options).collect();
    // Blank by blank (stable: each blank's keys in their order).
    answers.sort_by_key(|(part, _, _)| *part);
    let texts = answers.into_iter().map(|(part, text, mapped_value)| {
        let blank = usize::try_from(part - 1)
            .ok()
            .and_then(|index| planned.parts.texts.get(index));
        match (blank, mapped_value) {
            // All or nothing: a blank's answer has no value of its own.
            (Some(blank), Some(value))
                if matches!(planned.rule, ScoringRule::MapResponse { .. }) =>
            {
                format!("{blank}: {text} ({value})")
            }
            (Some(blank), _) => format!("{blank}: {text}"),
            (None, Some(value)) if (value - f64::from(planned.max_score)).abs() > 1e-9 => {
                format!("{text} ({value} of {})", planned.max_score)
            }
            (None, _) => text.to_owned(),
        }
    });
    pairs.chain(texts).collect()
}
