//! Content brought in from a customer's own package (docs/content.md): what one
//! assessment and its questions are to become, and the rules of importing again.
//! Importing the same package twice changes nothing; an item whose content changed
//! becomes a new question (a new QuestionID, its revision one more than the last),
//! so that snapshots and results made from the old one keep exactly what they were
//! made from; the assessment then lists the new one in its place.

use sha2::{Digest, Sha256};

use super::matching::Parts;
use super::points::Picture;
use super::question_kind::QuestionKind;
use super::result_scores::Topic;
use super::scoring_rule::{ScoringRule, TextKey};
use super::snapshot::{SourceChoice, SourceQuestion};

/// One assessment to import.
#[derive(Debug, Clone)]
pub struct ContentPlan {
    /// Where it came from, stable across imports of the same package.
    pub key: String,
    pub name: String,
    pub language: Option<String>,
    pub questions: Vec<PlannedQuestion>,
    /// `(lowest percentage, title)`, ascending.
    pub score_bands: Vec<(i32, String)>,
}

/// One question to import, in the assessment's order.
#[derive(Debug, Clone)]
pub struct PlannedQuestion {
    /// Where it came from, stable across imports of the same package.
    pub key: String,
    /// The item's title, kept as the question's description.
    pub title: String,
    pub language: Option<String>,
    pub kind: QuestionKind,
    pub max_score: i32,
    /// An XHTML fragment (sanitised again wherever it is shown).
    pub markup: String,
    /// `Biology/Cells`.
    pub topic: Option<String>,
    pub shuffle_choices: bool,
    pub rule: ScoringRule,
    pub choices: Vec<SourceChoice>,
    pub text_keys: Vec<TextKey>,
    /// A matching's parts and pairs (empty for other kinds).
    pub parts: Parts,
    /// A template item's template (QTI XML): each snapshot draws its own
    /// instance of the question from it; the rest of the question is one draw.
    pub template: Option<String>,
    /// The most choices a multiple response takes, when fewer than its choices;
    /// the most points a point question takes.
    pub max_choices: Option<i32>,
    /// A point question's picture (its areas are its choices).
    pub picture: Option<Picture>,
}

impl PlannedQuestion {
    /// The question as a snapshot starts from it, stored as `question_id` in
    /// `topic`: a template's draw, made when its snapshot is taken.
    pub fn source(&self, question_id: i64, topic: Option<Topic>) -> SourceQuestion {
        SourceQuestion {
            question_id,
            kind: self.kind,
            max_score: self.max_score,
            topic,
            shuffle_choices: self.shuffle_choices,
            choices: self.choices.clone(),
            rule: self.rule.clone(),
            text_keys: self.text_keys.clone(),
            parts: self.parts.clone(),
            template: None,
            max_choices: self.max_choices,
            picture: self.picture,
        }
    }

    /// A digest of everything the question is: equal digests, the same question.
    pub fn fingerprint(&self) -> String {
        let mut digest = Sha256::new();
        let mut field = |value: &str| {
            digest.update((value.len() as u64).to_le_bytes());
            digest.update(value.as_bytes());
        };
        field(&self.title);
        field(self.language.as_deref().unwrap_or(""));
        field(self.kind.as_str());
        field(&self.max_score.to_string());
        field(&self.markup);
        field(self.topic.as_deref().unwrap_or(""));
        field(&self.shuffle_choices.to_string());
        field(&format!("{:?}", self.rule));
        for choice in &self.choices {
            // The form written before picked blanks existed, so that a package
            // imported then is still unchanged when imported again.
            let SourceChoice {
                order,
                text,
                correct,
                mapped_value,
                fixed,
                part,
            } = choice;
            let mut written = format!(
                "SourceChoice {{ order: {order:?}, text: {text:?}, correct: {correct:?}, mapped_value: {mapped_value:?}, fixed: {fixed:?} }}"
            );
            if *part != 0 {
                written.push_str(&format!(" blank {part}"));
            }
            field(&written);
        }
        for key in &self.text_keys {
            // The form written before number keys existed, so that a package
            // imported then is still unchanged when imported again.
            let TextKey {
                part,
                text,
                case_sensitive,
                mapped_value,
                numeric,
            } = key;
            let mut written = format!(
                "TextKey {{ text: {text:?}, case_sensitive: {case_sensitive:?}, mapped_value: {mapped_value:?} }}"
            );
            if let Some(range) = numeric {
                written.push_str(&format!(" numeric {range:?}"));
            }
            // A blank's key says its blank; a text entry's (0) as before blanks.
            if *part != 0 {
                written.push_str(&format!(" blank {part}"));
            }
            field(&written);
        }
        // Only questions with parts add to the digest, so the others' stay as
        // they were before parts existed.
        for text in &self.parts.texts {
            field(&format!("part {text:?}"));
        }
        for key in &self.parts.keys {
            field(&format!("{key:?}"));
        }
        // Only templates add theirs, so that other questions' digests stay.
        if let Some(template) = &self.template {
            field(&format!("template {template}"));
        }
        if let Some(max) = self.max_choices {
            field(&format!("at most {max} choices"));
        }
        if let Some(picture) = self.picture {
            field(&format!(
                "on a picture {} by {}",
                picture.width, picture.height
            ));
        }
        hex(&digest.finalize())
    }
}

impl ContentPlan {
    /// A digest of the assessment itself: its name, language, bands, and its
    /// questions in order (each by its key and fingerprint).
    pub fn fingerprint(&self) -> String {
        let mut digest = Sha256::new();
        let mut field = |value: &str| {
            digest.update((value.len() as u64).to_le_bytes());
            digest.update(value.as_bytes());
        };
        field(&self.name);
        field(self.language.as_deref().unwrap_or(""));
        for (min, title) in &self.score_bands {
            field(&format!("{min}:{title}"));
        }
        for question in &self.questions {
            field(&question.key);
            field(&question.fingerprint());
        }
        hex(&digest.finalize())
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What importing does to one question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuestionFate {
    /// Never imported before: a new question, revision 1.
    Created { id: i64 },
    /// Imported before with the same content: nothing is written.
    Unchanged { id: i64, revision: i32 },
    /// Imported before with other content: a new question, one revision on.
    Revised {
        id: i64,
        previous_id: i64,
        revision: i32,
    },
}

impl QuestionFate {
    pub fn id(self) -> i64 {
        match self {
            QuestionFate::Created { id }
            | QuestionFate::Unchanged { id, .. }
            | QuestionFate::Revised { id, .. } => id,
        }
    }
}

/// What an earlier import left for a question: its last row and fingerprint.
#[derive(Debug, Clone)]
pub struct ImportedBefore {
    pub id: i64,
    pub revision: i32,
    pub fingerprint: String,
}

/// The fate of a question whose fingerprint is `fingerprint`, given what an earlier
/// import left (`None`: none); `next_id` is the ID a new question would get.
pub fn question_fate(
    before: Option<&ImportedBefore>,
    fingerprint: &str,
    next_id: i64,
) -> QuestionFate {
    match before {
        None => QuestionFate::Created { id: next_id },
        Some(before) if before.fingerprint == fingerprint => QuestionFate::Unchanged {
            id: before.id,
            revision: before.revision,
        },
        Some(before) => QuestionFate::Revised {
            id: next_id,
            previous_id: before.id,
            revision: before.revision + 1,
        },
    }
}

/// What importing does to the assessment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssessmentFate {
    Created,
    /// Its name, bands or questions changed: they are replaced.
    Updated,
    Unchanged,
}

impl AssessmentFate {
    pub fn as_str(self) -> &'static str {
        match self {
            AssessmentFate::Created => "created",
            AssessmentFate::Updated => "updated",
            AssessmentFate::Unchanged => "unchanged",
        }
    }
}

/// The outcome of one import.
#[derive(Debug, Clone)]
pub struct ImportOutcome {
    pub assessment_id: i64,
    pub assessment: AssessmentFate,
    /// In the assessment's order, beside the plan's questions.
    pub questions: Vec<QuestionFate>,
    /// Topics that did not exist and were made.
    pub topics_created: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn planned() -> PlannedQuestion {
        PlannedQuestion {
            key: "pkg#item1".into(),
            title: "Item 1".into(),
            language: None,
            kind: QuestionKind::MultipleChoice,
            max_score: 1,
            markup: "<p>Which?</p>".into(),
            topic: None,
            shuffle_choices: false,
            rule: ScoringRule::MatchCorrect,
            choices: vec![SourceChoice {
                order: 1,
                text: "A".into(),
                correct: true,
                mapped_value: None,
                fixed: false,
                part: 0,
            }],
            text_keys: Vec::new(),
            parts: Parts::default(),
            template: None,
            max_choices: None,
            picture: None,
        }
    }

    #[test]
    fn a_choice_imported_before_picked_blanks_keeps_its_fingerprint() {
        // The digest as it was made before migration 24: the choice in the Debug
        // form of the five-field SourceChoice of then.
        let mut digest = Sha256::new();
        for value in [
            "Item 1",
            "",
            "multiple_choice",
            "1",
            "<p>Which?</p>",
            "",
            "false",
            "MatchCorrect",
            r#"SourceChoice { order: 1, text: "A", correct: true, mapped_value: None, fixed: false }"#,
        ] {
            digest.update((value.len() as u64).to_le_bytes());
            digest.update(value.as_bytes());
        }
        assert_eq!(planned().fingerprint(), hex(&digest.finalize()));
        let mut picked = planned();
        picked.choices[0].part = 1;
        assert_ne!(planned().fingerprint(), picked.fingerprint());
    }

    #[test]
    fn the_same_question_has_the_same_fingerprint_and_any_change_another() {
        let question = planned();
        assert_eq!(question.fingerprint(), planned().fingerprint());
        let mut changed = planned();
        changed.choices[0].correct = false;
        assert_ne!(question.fingerprint(), changed.fingerprint());
        let mut changed = planned();
        changed.markup.push(' ');
        assert_ne!(question.fingerprint(), changed.fingerprint());
    }

    #[test]
    fn a_text_key_imported_before_number_keys_keeps_its_fingerprint() {
        let mut question = planned();
        question.kind = QuestionKind::TextEntry;
        question.choices.clear();
        question.text_keys = vec![TextKey {
            part: 0,
            text: "Au".into(),
            case_sensitive: false,
            mapped_value: Some(2.0),
            numeric: None,
        }];
        // The digest as it was made before migration 21: each field length-prefixed,
        // the key in the Debug form of the three-field TextKey of then.
        let mut digest = Sha256::new();
        for value in [
            "Item 1",
            "",
            "text_entry",
            "1",
            "<p>Which?</p>",
            "",
            "false",
            "MatchCorrect",
            r#"TextKey { text: "Au", case_sensitive: false, mapped_value: Some(2.0) }"#,
        ] {
            digest.update((value.len() as u64).to_le_bytes());
            digest.update(value.as_bytes());
        }
        assert_eq!(question.fingerprint(), hex(&digest.finalize()));
    }

    #[test]
    fn a_key_becoming_a_number_changes_the_fingerprint() {
        let keyed = |numeric| {
            let mut question = planned();
            question.text_keys = vec![TextKey {
                part: 0,
                text: "10".into(),
                case_sensitive: true,
                mapped_value: None,
                numeric,
            }];
            question.fingerprint()
        };
        let exact = crate::model::typed_number::NumberRange {
            low: 10.0,
            high: 10.0,
        };
        assert_eq!(keyed(None), keyed(None));
        assert_ne!(keyed(None), keyed(Some(exact)));
    }

    #[test]
    fn importing_again_changes_nothing_unless_the_content_changed() {
        let before = ImportedBefore {
            id: 40,
            revision: 2,
            fingerprint: "f".into(),
        };
        assert_eq!(
            question_fate(None, "f", 99),
            QuestionFate::Created { id: 99 }
        );
        assert_eq!(
            question_fate(Some(&before), "f", 99),
            QuestionFate::Unchanged {
                id: 40,
                revision: 2
            }
        );
        assert_eq!(
            question_fate(Some(&before), "g", 99),
            QuestionFate::Revised {
                id: 99,
                previous_id: 40,
                revision: 3
            }
        );
    }
}
