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
use scoredesk_sheets::layout::{
    self, Shape, BUBBLE_PITCH, BUBBLE_RADIUS, CODE, CONTENT, MARK_SIDE, NUMBER_KEYS, NUMBER_WIDTH,
    ROW_HEIGHT,
};
use scoredesk_sheets::{SheetCode, EDITION};
use serde::Serialize;

pub use super::sheet_questions::{sheet_questions, sheet_questions_of_snapshot};
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
    /// Each point question's picture (by its number), as a `data:` URL.
    pub pictures: &'a [(i32, String)],
}

/// One attempt of the batch, with its participant's name.
pub struct SheetAttempt {
    pub attempt: i32,
    pub participant: String,
}

#[derive(Serialize, Clone)]
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

#[derive(Serialize, Clone)]
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

/// A picture to mark places on, printed faint in its frame.
#[derive(Serialize)]
struct Picture {
    question: i32,
    source: String,
    most: usize,
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
    pictures: Vec<Picture>,
    /// Where a number's rows say how they are filled (beside its first row).
    number_hints: Vec<At>,
}

#[derive(Serialize)]
struct Sheet {
    attempt: i32,
    participant: String,
    pages: Vec<Page>,
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
    let questions = sheet_questions(batch.questions);
    let pages = layout::lay_out(&questions);
    let shape = |question: i32| {
        questions
            .iter()
            .find(|q| q.order == question)
            .map(|q| &q.shape)
    };
    // What every attempt's pages share, labelled once: the bubbles, lettered
    // from A in each row as the paper letters a blank's own options (a number's
    // rows by their keys), and where a number's rows say how they are filled.
    let bubbles: Vec<Vec<Bubble>> = pages
        .iter()
        .map(|page| {
            page.bubbles
                .iter()
                .map(|b| Bubble {
                    question: b.question,
                    part: b.part,
                    choice: b.choice,
                    label: b.label.to_string(),
                    x: b.center.x - BUBBLE_RADIUS,
                    y: b.center.y - BUBBLE_RADIUS,
                })
                .collect()
        })
        .collect();
    let number_hints: Vec<Vec<At>> = pages
        .iter()
        .map(|page| {
            page.parts
                .iter()
                .filter(|(question, part, _)| {
                    *part == 1 && matches!(shape(*question), Some(Shape::Number { .. }))
                })
                .map(|(_, _, at)| At {
                    x: CONTENT.x + NUMBER_WIDTH + BUBBLE_PITCH * NUMBER_KEYS.len() as f32,
                    y: at.y + ROW_HEIGHT,
                })
                .collect()
        })
        .collect();
    let mut sheets = Vec::with_capacity(attempts.len());
    for attempt in attempts {
        let mut rendered = Vec::with_capacity(pages.len());
        for (index, page) in pages.iter().enumerate() {
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
                bubbles: bubbles[index].clone(),
                number_hints: number_hints[index].clone(),
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
                pictures: page
                    .pictures
                    .iter()
                    .map(|p| Picture {
                        question: p.question,
                        source: batch
                            .pictures
                            .iter()
                            .find(|(order, _)| *order == p.question)
                            .map(|(_, url)| url.clone())
                            .unwrap_or_default(),
                        most: match shape(p.question) {
                            Some(Shape::Picture { most, .. }) => *most,
                            _ => 0,
                        },
                        x: p.frame.x,
                        y: p.frame.y,
                        width: p.frame.width,
                        height: p.frame.height,
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
    use crate::model::question_kind::QuestionKind;
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
            max_choices: None,
            picture: None,
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
            SnapshotQuestion {
                max_choices: Some(3),
                picture: Some(crate::model::points::Picture {
                    width: 206.5,
                    height: 280.0,
                }),
                ..question(6, QuestionKind::Point, 3)
            },
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
        assert_eq!(
            sheet_questions(&questions)[5].shape,
            Shape::Picture {
                width: 20650,
                height: 28000,
                most: 3
            },
            "a picture in hundredths of its pixels, from the XML too"
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
            pictures: &[],
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
        assert!(html.contains(r#"data-code="SDSHEET4/1/42/7/1/1""#));
        assert!(html.contains(r#"data-code="SDSHEET4/1/42/8/1/1""#));
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
            pictures: &[],
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
