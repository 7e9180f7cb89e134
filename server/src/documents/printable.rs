//! The printable page of a snapshot (the page `PrintableDocumentSourceUrl` opens):
//! print-ready HTML from a minijinja template (`printable.html`, escaped by the
//! engine) with a print stylesheet: the questions numbered in the snapshot's order,
//! choices labelled A, B, ... with circles to fill in, ruled answer areas sized by
//! the question's marks, places for the participant's name and the attempt, no
//! question split over two pages; the answer-key variant fills in the correct
//! choices and, under each question scored by a person, prints its marking guide
//! (the current rubric's dimensions and levels). The question's own markup is shown without what on-screen delivery
//! adds (`markup::for_paper`): the page prints the choices itself, in the
//! snapshot's order. Nothing in it depends on the time or the reader: the same snapshot
//! prints the same bytes every time.

use std::collections::HashMap;

use minijinja::{context, Environment, Value};
use serde::Serialize;

use super::markup::{for_paper, sanitize};
use crate::model::marking_guide::MarkingGuide;
use crate::model::question_kind::QuestionKind;
use crate::model::snapshot::{ExpectedResponse, SnapshotChoice, SnapshotPaper, SnapshotQuestion};

const TEMPLATE: &str = include_str!("printable.html");
/// The script that lays the paper out in pages, inline in it.
const PAGINATOR: &str = include_str!("printable.js");

/// The Content-Security-Policy of a printable page: nothing loaded, and no script
/// run but the paginator (by its hash: question markup can carry none, as it is
/// sanitised, and this shuts the door if one ever slipped through).
pub static CONTENT_SECURITY_POLICY: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    use base64::Engine;
    use sha2::Digest;
    let hash = base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(PAGINATOR));
    format!(
            "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-{hash}'; \
             base-uri 'none'; form-action 'none'"
        )
});

#[derive(Serialize)]
struct Question {
    number: i32,
    max_score: i32,
    markup: Value,
    single: bool,
    /// A multiple response's own limit, when it has one; a point question's
    /// most points.
    at_most: Option<usize>,
    choices: Vec<Choice>,
    /// The height of the answer area's first lines for questions answered in
    /// writing, in CSS units: kept on the question's page.
    start_height: String,
    /// The height of the rest of it, which may go on over the page.
    rest_height: Option<String>,
    /// A matching's parts, each a row of the grid with a bubble per choice.
    rows: Vec<Row>,
    /// A fill-in-the-blanks question's blanks in order: each with a line to
    /// write on, or its own options to pick from.
    blanks: Vec<Blank>,
    /// Some blanks are picked from their own lists.
    picked: bool,
    /// A text-entry question's accepted answers (a blank's after its number),
    /// for the answer key.
    keys: Vec<String>,
    /// The answer key's marking guide, for a question with a rubric.
    guide: Option<Guide>,
    /// A point question: marked on its picture (its markup says how), with
    /// no lines to write on.
    point: bool,
}

#[derive(Serialize)]
struct Guide {
    name: String,
    instructions: Option<String>,
    dimensions: Vec<GuideDimension>,
}

#[derive(Serialize)]
struct GuideDimension {
    name: String,
    instructions: Option<String>,
    max_score: i32,
    levels: Vec<GuideLevel>,
}

#[derive(Serialize)]
struct GuideLevel {
    score: i32,
    description: String,
}

fn guide_of(guide: &MarkingGuide) -> Guide {
    Guide {
        name: guide.name.clone(),
        instructions: guide.instructions.clone(),
        dimensions: guide
            .dimensions
            .iter()
            .map(|d| GuideDimension {
                name: d.name.clone(),
                instructions: d.instructions.clone(),
                max_score: d.max_score,
                levels: d
                    .levels
                    .iter()
                    .map(|(score, description)| GuideLevel {
                        score: *score,
                        description: description.clone(),
                    })
                    .collect(),
            })
            .collect(),
    }
}

#[derive(Serialize)]
struct Row {
    text: String,
    /// Per choice, in the snapshot's order: whether it is this part's key.
    cells: Vec<bool>,
}

#[derive(Serialize)]
struct Blank {
    number: i32,
    /// A picked blank's options, lettered from A; none for a typed blank.
    options: Vec<Choice>,
}

#[derive(Serialize)]
struct Choice {
    label: String,
    text: String,
    correct: bool,
}

/// Choices as printed, lettered from A in the snapshot's order.
fn lettered<'a>(choices: impl Iterator<Item = &'a SnapshotChoice>) -> Vec<Choice> {
    choices
        .enumerate()
        .map(|(position, choice)| Choice {
            label: label(position),
            text: choice.text.clone(),
            correct: choice.correct,
        })
        .collect()
}

/// `A`, `B`, ..., `Z`, then `AA`, `AB`, ...
fn label(position: usize) -> String {
    let letter = |n: usize| char::from(b'A' + (n % 26) as u8);
    if position < 26 {
        letter(position).to_string()
    } else {
        format!("{}{}", letter(position / 26 - 1), letter(position))
    }
}

/// Ruled lines for a written answer worth `max_score`: more marks, more room.
fn answer_lines(max_score: i32) -> i32 {
    (4 + 2 * max_score).clamp(6, 24)
}

/// The ruled lines of a question's answer: two for a short (text entry) answer,
/// none for blanks (each has its own line).
fn lines(kind: QuestionKind, max_score: i32) -> i32 {
    match kind {
        QuestionKind::TextEntry => 2,
        QuestionKind::FillIn => 0,
        _ => answer_lines(max_score),
    }
}

/// How many of an answer's `lines` are kept on the page of its question.
fn answer_start(lines: i32) -> i32 {
    lines.min(4)
}

/// The height of `lines` ruled lines, 8.5 mm apart.
fn millimetres(lines: i32) -> String {
    format!("{}mm", lines * 85 / 10)
}

/// A point question's areas for its key, each with its worth, in its
/// picture's pixels: "a circle of radius 16 round (102, 113): 1".
fn area_keys(question: &SnapshotQuestion) -> Vec<String> {
    question
        .areas()
        .iter()
        .map(|area| format!("{}: {}", area.shape.describe(), area.value))
        .collect()
}

/// The page's HTML; `answers` for the answer-key variant, which prints `guides`
/// (by question ID) under their questions.
pub fn render(
    paper: &SnapshotPaper,
    answers: bool,
    guides: &HashMap<i64, MarkingGuide>,
) -> Result<String, minijinja::Error> {
    let mut environment = Environment::new();
    environment.add_template("printable.html", TEMPLATE)?;
    let questions: Vec<Question> = paper
        .questions
        .iter()
        .map(|(question, markup)| Question {
            number: question.order,
            max_score: question.max_score,
            markup: Value::from_safe_string(sanitize(&for_paper(markup))),
            single: question.max_selected() == 1 || question.max_points() == Some(1),
            at_most: match ExpectedResponse::of(question.kind) {
                ExpectedResponse::MultipleChoices => (question.max_selected() > 1
                    && question.max_selected() < question.choices.len())
                .then(|| question.max_selected()),
                ExpectedResponse::Points => question.max_points(),
                _ => None,
            },
            picked: question.choices.iter().any(|c| c.part > 0),
            // A picked blank's options are printed with their blank; a point
            // question's areas only in the key (`keys`).
            choices: lettered(
                question
                    .choices
                    .iter()
                    .filter(|c| c.part == 0 && question.kind != QuestionKind::Point),
            ),
            point: question.kind == QuestionKind::Point,
            // Lines 8.5 mm apart, as the ruling in the stylesheet; a short answer
            // gets two. The first lines stay with the question on its page, the
            // rest may go on over the page.
            start_height: millimetres(answer_start(lines(question.kind, question.max_score))),
            rest_height: {
                let lines = lines(question.kind, question.max_score);
                let rest = lines - answer_start(lines);
                (rest > 0).then(|| millimetres(rest))
            },
            rows: question
                .parts
                .texts
                .iter()
                .filter(|_| question.kind == QuestionKind::Matching)
                .enumerate()
                .map(|(index, text)| Row {
                    text: text.clone(),
                    cells: question
                        .choices
                        .iter()
                        .map(|choice| {
                            question.parts.correct_choice(index as i32 + 1)
                                == Some(choice.question_choice)
                        })
                        .collect(),
                })
                .collect(),
            blanks: if question.kind == QuestionKind::FillIn {
                (1..=question.parts.texts.len() as i32)
                    .map(|number| Blank {
                        number,
                        options: lettered(question.choices.iter().filter(|c| c.part == number)),
                    })
                    .collect()
            } else {
                Vec::new()
            },
            keys: if question.kind == QuestionKind::Point {
                area_keys(question)
            } else {
                question
                    .text_keys
                    .iter()
                    .map(|key| match key.part {
                        0 => key.text.clone(),
                        blank => format!("({blank}) {}", key.text),
                    })
                    .collect()
            },
            guide: answers
                .then(|| guides.get(&question.question_id).map(guide_of))
                .flatten(),
        })
        .collect();
    environment
        .get_template("printable.html")?
        .render(context! {
            id => paper.id,
            name => paper.name,
            assessment => paper.assessment,
            language => paper.language.as_deref().unwrap_or("en"),
            variant => if answers { "answers" } else { "questions" },
            answers => answers,
            questions => questions,
            paginator => Value::from_safe_string(PAGINATOR.to_owned()),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::snapshot::{SnapshotChoice, SnapshotQuestion};

    fn paper() -> SnapshotPaper {
        let choice = |order: i32, text: &str, correct: bool| SnapshotChoice {
            order,
            question_choice: order,
            text: text.into(),
            correct,
            mapped_value: None,
            part: 0,
        };
        SnapshotPaper {
            id: 3,
            name: Some("Spring <paper>".into()),
            assessment: "Physics".into(),
            language: Some("en-GB".into()),
            questions: vec![
                (
                    SnapshotQuestion {
                        order: 1,
                        question_id: 10,
                        kind: QuestionKind::MultipleChoice,
                        max_score: 1,
                        topic: None,
                        rule: crate::model::scoring_rule::ScoringRule::Service,
                        text_keys: Vec::new(),
                        parts: Default::default(),
                        choices: vec![
                            choice(1, "Force & <b>mass</b>", false),
                            choice(2, "Energy", true),
                        ],
                        max_choices: None,
                        picture: None,
                    },
                    r#"<p onclick="x()">Which is conserved?</p><script>x()</script>"#.into(),
                ),
                (
                    SnapshotQuestion {
                        order: 2,
                        question_id: 11,
                        kind: QuestionKind::Essay,
                        max_score: 6,
                        topic: None,
                        rule: crate::model::scoring_rule::ScoringRule::Service,
                        text_keys: Vec::new(),
                        parts: Default::default(),
                        choices: Vec::new(),
                        max_choices: None,
                        picture: None,
                    },
                    "<p>Explain.</p>".into(),
                ),
            ],
        }
    }

    #[test]
    fn text_is_escaped_markup_sanitised_and_the_key_only_in_its_variant() {
        let page = render(&paper(), false, &HashMap::new()).unwrap();
        assert!(page.contains("Spring &lt;paper&gt;"), "{page}");
        assert!(page.contains("Force &amp; &lt;b&gt;mass"), "{page}");
        assert!(page.contains("<p>Which is conserved?</p>"), "{page}");
        // No script but the paginator: the markup's are sanitised away.
        assert!(
            !page.contains("onclick") && page.matches("<script").count() == 1,
            "{page}"
        );
        assert!(!page.contains("choice correct"), "{page}");
        // Sixteen lines for six marks: four kept with the question, twelve that
        // may go on over the page (issue 33, defect 10: no half-empty page).
        assert!(
            page.contains(r#"class="answer-area answer-start" style="height: 34mm""#),
            "{page}"
        );
        assert!(
            page.contains(r#"class="answer-area answer-rest" style="height: 102mm""#),
            "{page}"
        );
        assert!(
            page.contains(r#"<li class="question written" id="question-"#),
            "{page}"
        );
        // The strip each page starts with, and the script that makes the pages.
        assert!(
            page.contains(r#"<div class="running" data-snapshot="Snapshot "#),
            "{page}"
        );
        assert!(
            page.contains(&format!("<script>{PAGINATOR}</script>")),
            "{page}"
        );
        let key = render(&paper(), true, &HashMap::new()).unwrap();
        assert_eq!(key.matches("choice correct").count(), 1, "{key}");
        assert!(
            key.contains(r#"<li class="choice correct" data-choice="B">"#),
            "{key}"
        );
        assert_eq!(
            page,
            render(&paper(), false, &HashMap::new()).unwrap(),
            "the same bytes every time"
        );
    }

    /// The answer key prints the essay's marking guide, escaped, for whoever marks
    /// by hand; the question paper never does (issue 33, defect 11).
    #[test]
    fn the_answer_key_prints_the_marking_guide_of_a_person_scored_question() {
        use crate::model::marking_guide::{GuideDimension, MarkingGuide};
        let guides = HashMap::from([(
            11,
            MarkingGuide {
                name: "Explanation".into(),
                instructions: Some("Credit any valid <law>.".into()),
                dimensions: vec![
                    GuideDimension {
                        order: 1,
                        name: "Physics".into(),
                        instructions: None,
                        max_score: 4,
                        levels: vec![
                            (0, "Nothing relevant.".into()),
                            (4, "Every step, with units.".into()),
                        ],
                    },
                    GuideDimension {
                        order: 2,
                        name: "Clarity".into(),
                        instructions: Some("Logical order.".into()),
                        max_score: 2,
                        levels: Vec::new(),
                    },
                ],
            },
        )]);
        let key = render(&paper(), true, &guides).unwrap();
        assert_eq!(key.matches(r#"<div class="guide">"#).count(), 1, "{key}");
        for shown in [
            "Marking guide: Explanation",
            "Credit any valid &lt;law&gt;.",
            r#"Physics <span class="range">0–4</span>"#,
            r#"<span class="score">4</span> Every step, with units."#,
            r#"Clarity <span class="range">0–2</span>"#,
            "Logical order.",
        ] {
            assert!(key.contains(shown), "{shown} in {key}");
        }
        assert!(key.find("Physics").unwrap() < key.find("Clarity").unwrap());
        // The guide takes the place of the ruled area: the key is not written on.
        assert_eq!(key.matches(r#"class="answer-area"#).count(), 0, "{key}");
        let page = render(&paper(), false, &guides).unwrap();
        assert!(!page.contains("Marking guide"), "{page}");
        assert_eq!(
            page.matches(r#"class="answer-area answer-start""#).count(),
            1,
            "{page}"
        );
    }

    #[test]
    fn choices_are_labelled_by_letter() {
        assert_eq!(label(0), "A");
        assert_eq!(label(25), "Z");
        assert_eq!(label(26), "AA");
        assert_eq!(label(27), "AB");
    }
}
