//! A print batch's personal answer sheets (docs/paper-sheets.md): for each attempt,
//! its pages as `scoredesk_sheets::layout` places them, each with its registration
//! marks, its code (a QR code, drawn by the qrcode crate as SVG) and the
//! participant's name, from a minijinja template (`answer_sheets.html`, escaped by
//! the engine). A text entry gets a box for its short answer, and a fill-in-the-
//! blanks question a box per blank, which a person types from the scan before
//! the keys mark it.

use minijinja::{context, Environment, Value};
use qrcode::render::svg;
use qrcode::{EcLevel, QrCode};
use scoredesk_sheets::layout::{self, Shape, SheetQuestion, BUBBLE_RADIUS, CODE, MARK_SIDE};
use scoredesk_sheets::{SheetCode, EDITION};
use serde::Serialize;

use crate::model::question_kind::QuestionKind;
use crate::model::snapshot::SnapshotQuestion;

const TEMPLATE: &str = include_str!("answer_sheets.html");

/// What the sheets of a batch are printed from.
pub struct SheetBatch<'a> {
    pub area: i32,
    pub batch: i32,
    pub assessment: &'a str,
    pub snapshot: Option<&'a str>,
    pub language: &'a str,
    pub questions: &'a [SnapshotQuestion],
}

/// One attempt of the batch, with its participant's name.
pub struct SheetAttempt {
    pub attempt: i32,
    pub participant: String,
}

/// How the sheet asks a question of `kind` whose choices are of `choice_parts`
/// (each choice's blank, 0: the question's own) and which has `parts` (a
/// matching without parts cannot be asked on it).
fn shape_of(
    kind: QuestionKind,
    choice_parts: &[i32],
    parts: usize,
    max_score: i32,
) -> Option<Shape> {
    let choices = choice_parts.len();
    match kind {
        QuestionKind::MultipleChoice | QuestionKind::MultipleResponse => Some(Shape::Choices {
            count: choices,
            single: kind == QuestionKind::MultipleChoice,
        }),
        QuestionKind::Essay => Some(Shape::Essay { max_score }),
        QuestionKind::Matching if parts > 0 => Some(Shape::Grid {
            parts,
            options: choices,
        }),
        QuestionKind::TextEntry => Some(Shape::Written),
        QuestionKind::FillIn if parts > 0 => Some(Shape::Blanks {
            options: (1..=parts as i32)
                .map(|part| choice_parts.iter().filter(|p| **p == part).count())
                .collect(),
        }),
        QuestionKind::Matching | QuestionKind::FillIn => None,
    }
}

/// The questions as the sheet asks them.
pub fn sheet_questions(questions: &[SnapshotQuestion]) -> Vec<SheetQuestion> {
    questions
        .iter()
        .filter_map(|question| {
            Some(SheetQuestion {
                order: question.order,
                shape: shape_of(
                    question.kind,
                    &question.choices.iter().map(|c| c.part).collect::<Vec<_>>(),
                    question.parts.texts.len(),
                    question.max_score,
                )?,
            })
        })
        .collect()
}

/// The questions as the sheet asks them, from the snapshot's XML document
/// (documents::snapshot_xml), as a client that reads scans back has them.
pub fn sheet_questions_of_snapshot(xml: &[u8]) -> Result<Vec<SheetQuestion>, String> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_reader(xml);
    let mut questions = Vec::new();
    // The question being read: (order, kind, max score, its choices' parts and
    // its parts so far).
    let mut open: Option<(i32, QuestionKind, i32, Vec<i32>, usize)> = None;
    let mut buffer = Vec::new();
    loop {
        match reader.read_event_into(&mut buffer) {
            Ok(Event::Start(element)) | Ok(Event::Empty(element)) => {
                match element.local_name().as_ref() {
                    b"Question" => {
                        let attribute = |name: &str| -> Result<String, String> {
                            element
                                .try_get_attribute(name)
                                .ok()
                                .flatten()
                                .and_then(|a| a.unescape_value().ok().map(|v| v.into_owned()))
                                .ok_or_else(|| format!("a Question without {name}"))
                        };
                        let order = attribute("OrderNumber")?
                            .parse()
                            .map_err(|_| "OrderNumber is not a number")?;
                        let kind = attribute("Type")?;
                        let kind = QuestionKind::parse(&kind)
                            .ok_or_else(|| format!("unknown question Type {kind}"))?;
                        let max = attribute("MaxScore")?
                            .parse()
                            .map_err(|_| "MaxScore is not a number")?;
                        open = Some((order, kind, max, Vec::new(), 0));
                    }
                    b"Choice" => {
                        if let Some(question) = open.as_mut() {
                            let part = element
                                .try_get_attribute("Part")
                                .ok()
                                .flatten()
                                .and_then(|a| a.unescape_value().ok()?.parse().ok())
                                .unwrap_or(0);
                            question.3.push(part);
                        }
                    }
                    b"Part" => {
                        if let Some(question) = open.as_mut() {
                            question.4 += 1;
                        }
                    }
                    _ => {}
                }
            }
            Ok(Event::End(element)) if element.local_name().as_ref() == b"Question" => {
                if let Some((order, kind, max, choices, parts)) = open.take() {
                    if let Some(shape) = shape_of(kind, &choices, parts, max) {
                        questions.push(SheetQuestion { order, shape });
                    }
                }
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(error) => return Err(format!("the snapshot document: {error}")),
        }
        buffer.clear();
    }
    Ok(questions)
}

#[derive(Serialize)]
struct At {
    x: f32,
    y: f32,
}

#[derive(Serialize)]
struct Numbered {
    question: i32,
    x: f32,
    y: f32,
}

#[derive(Serialize)]
struct PartLabel {
    question: i32,
    part: i32,
    x: f32,
    y: f32,
}

#[derive(Serialize)]
struct Bubble {
    question: i32,
    part: i32,
    choice: i32,
    label: String,
    x: f32,
    y: f32,
}

#[derive(Serialize)]
struct Essay {
    question: i32,
    /// A short answer's box, not an essay's frame.
    typed: bool,
    /// A blank's number (0: none).
    part: i32,
    x: f32,
    y: f32,
    width: f32,
    height: f32,
}

#[derive(Serialize)]
struct Page {
    number: u16,
    /// Digits and slashes only, so left as it is (the engine would escape `/`).
    code: Value,
    qr: Value,
    marks: Vec<At>,
    numbers: Vec<Numbered>,
    parts: Vec<PartLabel>,
    bubbles: Vec<Bubble>,
    essays: Vec<Essay>,
}

#[derive(Serialize)]
struct Sheet {
    attempt: i32,
    participant: String,
    pages: Vec<Page>,
}

/// The first choice number of a row of bubbles (a question's, or a part's).
fn first_choice(page: &layout::PageLayout, question: i32, part: i32) -> i32 {
    page.bubbles
        .iter()
        .filter(|b| b.question == question && b.part == part)
        .map(|b| b.choice)
        .min()
        .unwrap_or(1)
}

/// `A`, `B`, …
fn label(choice: i32) -> String {
    char::from(b'A' + ((choice - 1) % 26) as u8).to_string()
}

/// The code of a page as an SVG QR code that fills its square, at the highest
/// error correction (30 %): a 150 dpi JPEG scan blurs a module in a hundred, and
/// the sheet is read back only through its code.
fn qr_svg(text: &str) -> Result<String, minijinja::Error> {
    let code = QrCode::with_error_correction_level(text, EcLevel::H).map_err(|error| {
        minijinja::Error::new(minijinja::ErrorKind::InvalidOperation, error.to_string())
    })?;
    Ok(code
        .render::<svg::Color>()
        .quiet_zone(false)
        .min_dimensions(200, 200)
        .build())
}

/// The batch's sheets as one HTML document: every attempt's pages, in order.
pub fn render(
    batch: &SheetBatch<'_>,
    attempts: &[SheetAttempt],
) -> Result<String, minijinja::Error> {
    let pages = layout::lay_out(&sheet_questions(batch.questions));
    let mut sheets = Vec::with_capacity(attempts.len());
    for attempt in attempts {
        let mut rendered = Vec::with_capacity(pages.len());
        for page in &pages {
            let code = SheetCode {
                edition: EDITION,
                area: batch.area,
                batch: batch.batch,
                attempt: attempt.attempt,
                page: page.number,
                pages: pages.len() as u16,
            }
            .encode();
            rendered.push(Page {
                number: page.number,
                qr: Value::from_safe_string(qr_svg(&code)?),
                code: Value::from_safe_string(code),
                // CSS places a box by its corner; the layout names centres.
                marks: page
                    .marks
                    .iter()
                    .map(|m| At {
                        x: m.center.x - MARK_SIDE / 2.0,
                        y: m.center.y - MARK_SIDE / 2.0,
                    })
                    .collect(),
                numbers: page
                    .numbers
                    .iter()
                    .map(|(question, at)| Numbered {
                        question: *question,
                        x: at.x,
                        y: at.y,
                    })
                    .collect(),
                parts: page
                    .parts
                    .iter()
                    .map(|(question, part, at)| PartLabel {
                        question: *question,
                        part: *part,
                        x: at.x,
                        y: at.y,
                    })
                    .collect(),
                bubbles: page
                    .bubbles
                    .iter()
                    .map(|b| Bubble {
                        question: b.question,
                        part: b.part,
                        choice: b.choice,
                        // Lettered from A in each row, as the paper letters a
                        // blank's own options.
                        label: label(b.choice - first_choice(page, b.question, b.part) + 1),
                        x: b.center.x - BUBBLE_RADIUS,
                        y: b.center.y - BUBBLE_RADIUS,
                    })
                    .collect(),
                essays: page
                    .essays
                    .iter()
                    .map(|e| Essay {
                        question: e.question,
                        typed: e.typed,
                        part: e.part,
                        x: e.frame.x,
                        y: e.frame.y,
                        width: e.frame.width,
                        height: e.frame.height,
                    })
                    .collect(),
            });
        }
        sheets.push(Sheet {
            attempt: attempt.attempt,
            participant: attempt.participant.clone(),
            pages: rendered,
        });
    }
    let mut environment = Environment::new();
    environment.add_template("answer_sheets.html", TEMPLATE)?;
    environment
        .get_template("answer_sheets.html")?
        .render(context! {
            language => batch.language,
            assessment => batch.assessment,
            snapshot => batch.snapshot,
            batch => batch.batch,
            mark => MARK_SIDE,
            bubble => BUBBLE_RADIUS * 2.0,
            code => context! { x => CODE.x, y => CODE.y, size => CODE.width },
            sheets => sheets,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::scoring_rule::ScoringRule;
    use crate::model::snapshot::SnapshotChoice;

    fn question(order: i32, kind: QuestionKind, choices: i32) -> SnapshotQuestion {
        SnapshotQuestion {
            order,
            question_id: 100 + order as i64,
            kind,
            max_score: 4,
            topic: None,
            choices: (1..=choices)
                .map(|c| SnapshotChoice {
                    order: c,
                    question_choice: c,
                    text: format!("choice {c}"),
                    correct: c == 1,
                    mapped_value: None,
                    part: 0,
                })
                .collect(),
            rule: ScoringRule::Service,
            text_keys: Vec::new(),
            parts: Default::default(),
        }
    }

    #[test]
    fn the_snapshot_document_gives_the_same_questions_as_the_snapshot() {
        use crate::documents::snapshot_xml::{self, SnapshotHeader};
        let questions = [
            question(1, QuestionKind::MultipleChoice, 4),
            question(2, QuestionKind::MultipleResponse, 5),
            question(3, QuestionKind::Essay, 0),
            question(4, QuestionKind::TextEntry, 0),
            question(5, QuestionKind::MultipleChoice, 12),
        ];
        let header = SnapshotHeader {
            id: 9,
            assessment_id: 1,
            language: Some("en"),
        };
        let xml = snapshot_xml::write(&header, &questions);
        assert_eq!(
            sheet_questions_of_snapshot(&xml),
            Ok(sheet_questions(&questions))
        );
        assert_eq!(
            sheet_questions(&questions)[3].shape,
            Shape::Written,
            "a text entry's box"
        );
        assert!(
            sheet_questions_of_snapshot(b"<AssessmentSnapshot><Question Type=\"essay\"/>").is_err()
        );
    }

    #[test]
    fn each_attempt_gets_its_pages_with_their_codes_marks_bubbles_and_frames() {
        let questions = [
            question(1, QuestionKind::MultipleChoice, 4),
            question(2, QuestionKind::MultipleResponse, 5),
            question(3, QuestionKind::Essay, 0),
            question(4, QuestionKind::TextEntry, 0),
        ];
        let batch = SheetBatch {
            area: 1,
            batch: 42,
            assessment: "Physics <mock>",
            snapshot: Some("Spring"),
            language: "en",
            questions: &questions,
        };
        let attempts = [
            SheetAttempt {
                attempt: 7,
                participant: "Ada <Lovelace>".into(),
            },
            SheetAttempt {
                attempt: 8,
                participant: "Alan Turing".into(),
            },
        ];
        let html = render(&batch, &attempts).unwrap();
        assert_eq!(
            html.matches("<section class=\"page\"").count(),
            2,
            "one page each"
        );
        assert!(html.contains(r#"data-code="SDSHEET3/1/42/7/1/1""#));
        assert!(html.contains(r#"data-code="SDSHEET3/1/42/8/1/1""#));
        assert_eq!(html.matches("class=\"mark\"").count(), 8);
        assert_eq!(html.matches("<svg").count(), 2);
        assert!(html.contains("viewBox"), "the QR code scales to its square");
        assert_eq!(html.matches("class=\"bubble\"").count(), 2 * 9);
        assert_eq!(html.matches("class=\"essay\"").count(), 4);
        assert_eq!(
            html.matches(r#"class="essay" data-question="4" data-written="1""#)
                .count(),
            2,
            "the text entry's box on each sheet"
        );
        assert!(html.contains("Ada &lt;Lovelace&gt;"), "names are escaped");
        assert!(html.contains("Physics &lt;mock&gt;"));
        assert_eq!(
            html,
            render(&batch, &attempts).unwrap(),
            "the same every time"
        );
        // To look at: SCOREDESK_SHEETS_HTML=/some/where.html, then render it with
        // Chromium.
        if let Some(path) = std::env::var_os("SCOREDESK_SHEETS_HTML") {
            std::fs::write(path, &html).unwrap();
        }
    }

    #[test]
    fn a_fill_in_the_blanks_question_has_a_numbered_box_a_blank() {
        let mut blanks = question(2, QuestionKind::FillIn, 0);
        blanks.parts.texts = vec!["Blank 1".into(), "Blank 2".into(), "Blank 3".into()];
        let questions = [question(1, QuestionKind::MultipleChoice, 4), blanks];
        assert_eq!(
            sheet_questions(&questions)[1].shape,
            Shape::Blanks {
                options: vec![0, 0, 0]
            }
        );
        let batch = SheetBatch {
            area: 1,
            batch: 42,
            assessment: "Chemistry",
            snapshot: None,
            language: "en",
            questions: &questions,
        };
        let attempts = [SheetAttempt {
            attempt: 7,
            participant: "Ada Lovelace".into(),
        }];
        let html = render(&batch, &attempts).unwrap();
        assert_eq!(
            html.matches(r#"class="essay" data-question="2" data-written="1""#)
                .count(),
            3
        );
        for part in 1..=3 {
            assert!(html.contains(&format!(r#"data-question="2" data-part="{part}""#)));
        }
        if let Some(path) = std::env::var_os("SCOREDESK_BLANKS_HTML") {
            std::fs::write(path, &html).unwrap();
        }
    }
}
