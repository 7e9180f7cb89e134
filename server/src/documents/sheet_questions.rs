//! How an answer sheet asks each question of a snapshot (`layout::Shape`): from
//! the snapshot's questions where the server prints, and from the snapshot's XML
//! document where a client reads scans back (the desktop, `sheets scan`), so
//! that both lay the same pages out.

use scoredesk_sheets::layout::{Shape, SheetQuestion};

use crate::model::points::Picture;
use crate::model::question_kind::QuestionKind;
use crate::model::snapshot::{limits, SnapshotQuestion};

/// A `Question` of the document as read so far.
struct Reading {
    order: i32,
    kind: QuestionKind,
    max: i32,
    /// Each choice's blank (0: the question's own).
    choice_parts: Vec<i32>,
    parts: usize,
    /// The characters of its number (`Validation/@NumberCharacters`).
    number: Option<usize>,
    /// The most choices it takes (`Validation/@MaxSelected`); a point
    /// question's most points (`Validation/@MaxPoints`, 0: any number).
    max_selected: usize,
    /// A point question's picture (`Picture/@Width`, `@Height`).
    picture: Option<Picture>,
}

/// How the sheet asks a question of `kind` whose choices are of `choice_parts`
/// (each choice's blank, 0: the question's own) and which has `parts` (a
/// matching without parts cannot be asked on it); `number`: a text entry
/// answered by a number of at most that many characters, asked as its rows;
/// `picture`: a point question's, on which it takes at most `max_selected`
/// places (0: any number).
fn shape_of(
    kind: QuestionKind,
    choice_parts: &[i32],
    parts: usize,
    max_score: i32,
    number: Option<usize>,
    max_selected: usize,
    picture: Option<Picture>,
) -> Option<Shape> {
    let choices = choice_parts.len();
    match kind {
        // In hundredths of the picture's pixels: places are read in its pixels.
        QuestionKind::Point => picture.map(|picture| Shape::Picture {
            width: (picture.width * 100.0)
                .round()
                .clamp(1.0, f64::from(u32::MAX)) as u32,
            height: (picture.height * 100.0)
                .round()
                .clamp(1.0, f64::from(u32::MAX)) as u32,
            most: max_selected,
        }),
        QuestionKind::MultipleChoice | QuestionKind::MultipleResponse => Some(Shape::Choices {
            count: choices,
            most: if kind == QuestionKind::MultipleChoice {
                1
            } else {
                max_selected.clamp(1, choices.max(1))
            },
        }),
        QuestionKind::Essay => Some(Shape::Essay { max_score }),
        QuestionKind::Matching if parts > 0 => Some(Shape::Grid {
            parts,
            options: choices,
        }),
        QuestionKind::TextEntry => Some(match number {
            Some(positions) => Shape::Number { positions },
            None => Shape::Written,
        }),
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
                    question
                        .number_within(limits::NUMBER_CHARACTERS)
                        .then_some(limits::NUMBER_CHARACTERS),
                    if question.kind == QuestionKind::Point {
                        question.max_points().unwrap_or(0)
                    } else {
                        question.max_selected()
                    },
                    question.picture,
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
    let mut open: Option<Reading> = None;
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
                        open = Some(Reading {
                            order,
                            kind,
                            max,
                            choice_parts: Vec::new(),
                            parts: 0,
                            number: None,
                            max_selected: usize::MAX,
                            picture: None,
                        });
                    }
                    b"Choice" => {
                        if let Some(question) = open.as_mut() {
                            let part = element
                                .try_get_attribute("Part")
                                .ok()
                                .flatten()
                                .and_then(|a| a.unescape_value().ok()?.parse().ok())
                                .unwrap_or(0);
                            question.choice_parts.push(part);
                        }
                    }
                    b"Picture" => {
                        if let Some(question) = open.as_mut() {
                            let size = |name: &str| {
                                element
                                    .try_get_attribute(name)
                                    .ok()
                                    .flatten()
                                    .and_then(|a| a.unescape_value().ok()?.parse::<f64>().ok())
                                    .filter(|v| v.is_finite() && *v > 0.0)
                            };
                            question.picture = size("Width")
                                .zip(size("Height"))
                                .map(|(width, height)| Picture { width, height });
                        }
                    }
                    b"Part" => {
                        if let Some(question) = open.as_mut() {
                            question.parts += 1;
                        }
                    }
                    b"Validation" => {
                        if let Some(question) = open.as_mut() {
                            let number = |name: &str| {
                                element
                                    .try_get_attribute(name)
                                    .ok()
                                    .flatten()
                                    .and_then(|a| a.unescape_value().ok()?.parse().ok())
                            };
                            question.number = number("NumberCharacters");
                            question.max_selected = if question.kind == QuestionKind::Point {
                                number("MaxPoints").unwrap_or(0)
                            } else {
                                number("MaxSelected").unwrap_or(usize::MAX)
                            };
                        }
                    }
                    _ => {}
                }
            }
            Ok(Event::End(element)) if element.local_name().as_ref() == b"Question" => {
                if let Some(read) = open.take() {
                    let shape = shape_of(
                        read.kind,
                        &read.choice_parts,
                        read.parts,
                        read.max,
                        read.number,
                        read.max_selected,
                        read.picture,
                    );
                    if let Some(shape) = shape {
                        questions.push(SheetQuestion {
                            order: read.order,
                            shape,
                        });
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::documents::snapshot_xml::{write, SnapshotHeader};
    use crate::model::scoring_rule::{ScoringRule, TextKey};
    use crate::model::typed_number::NumberRange;

    const HEADER: SnapshotHeader<'static> = SnapshotHeader {
        id: 1,
        assessment_id: 1,
        language: None,
    };

    fn entry(order: i32, keys: &[(&str, Option<(f64, f64)>)]) -> SnapshotQuestion {
        SnapshotQuestion {
            order,
            question_id: i64::from(order),
            kind: QuestionKind::TextEntry,
            max_score: 1,
            topic: None,
            choices: Vec::new(),
            rule: ScoringRule::MatchCorrect,
            text_keys: keys
                .iter()
                .map(|(text, range)| TextKey {
                    part: 0,
                    text: (*text).into(),
                    case_sensitive: false,
                    mapped_value: None,
                    numeric: range.map(|(low, high)| NumberRange { low, high }),
                })
                .collect(),
            parts: Default::default(),
            max_choices: None,
            picture: None,
        }
    }

    #[test]
    fn a_short_number_is_asked_as_rows_and_the_documents_reader_agrees() {
        assert_eq!(
            limits::NUMBER_CHARACTERS,
            scoredesk_sheets::layout::NUMBER_POSITIONS
        );
        let questions = [
            entry(1, &[("9.81 ± 0.05", Some((9.76, 9.86)))]),
            entry(2, &[("starch", None)]),
            entry(3, &[("6.02e23", Some((6.02e23, 6.02e23)))]),
            entry(4, &[("42", Some((42.0, 42.0))), ("forty-two", None)]),
        ];
        let shapes: Vec<Shape> = sheet_questions(&questions)
            .into_iter()
            .map(|q| q.shape)
            .collect();
        assert_eq!(
            shapes,
            [
                Shape::Number { positions: 6 },
                Shape::Written,
                Shape::Written,
                Shape::Written
            ],
            "a word, a number too long and a key of words each keep the box"
        );
        let xml = write(&HEADER, &questions);
        assert_eq!(
            sheet_questions_of_snapshot(&xml).unwrap(),
            sheet_questions(&questions)
        );
    }

    #[test]
    fn a_multiple_responses_limit_is_the_most_marks_a_row_takes_in_both_readers() {
        let choice = |order| crate::model::snapshot::SnapshotChoice {
            order,
            question_choice: order,
            text: format!("choice {order}"),
            correct: order == 1,
            mapped_value: None,
            part: 0,
        };
        let question = |order, kind, max_choices| SnapshotQuestion {
            kind,
            choices: (1..=5).map(choice).collect(),
            max_choices,
            ..entry(order, &[])
        };
        let questions = [
            question(1, QuestionKind::MultipleChoice, None),
            question(2, QuestionKind::MultipleResponse, None),
            question(3, QuestionKind::MultipleResponse, Some(2)),
            question(4, QuestionKind::MultipleResponse, Some(1)),
        ];
        let shapes: Vec<Shape> = sheet_questions(&questions)
            .into_iter()
            .map(|q| q.shape)
            .collect();
        assert_eq!(
            shapes,
            [1, 5, 2, 1].map(|most| Shape::Choices { count: 5, most })
        );
        let xml = write(&HEADER, &questions);
        assert_eq!(
            sheet_questions_of_snapshot(&xml).unwrap(),
            sheet_questions(&questions)
        );
    }
}
