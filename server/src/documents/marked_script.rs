//! A marked script as a printable page (docs/marking-quality.md, "The marked
//! script"): each marked question with its answer, the marks drawn on it as
//! the marker placed them (an SVG over a scan in the scan's own pixels; a
//! typed answer with its highlights, ticks, crosses and note numbers), the
//! notes written out, and the scores and comments; from a minijinja template
//! (`marked_script.html`), escaped by the engine. Headless Chromium (or the
//! browser's Print) makes the PDF.

use base64::Engine;
use minijinja::{context, Environment, Value};

use super::markup;
use crate::model::marked_script::{drawn_on_scan, text_pieces, MarkedAnswer, MarkedScript};

const TEMPLATE: &str = include_str!("marked_script.html");

/// The page; `printed` is the date it says.
pub fn render(script: &MarkedScript, printed: &str) -> Result<String, minijinja::Error> {
    let questions: Vec<Value> = script
        .questions
        .iter()
        .map(|question| {
            let notes: Vec<&str> = question
                .marks
                .iter()
                .filter(|mark| mark.kind == "note")
                .filter_map(|mark| mark.text.as_deref())
                .collect();
            let comments: Vec<&str> = question
                .marks
                .iter()
                .filter(|mark| mark.kind != "note")
                .filter_map(|mark| mark.text.as_deref())
                .collect();
            let answer = match &question.answer {
                MarkedAnswer::Text(text) => {
                    let pieces: Vec<Value> = text_pieces(text, &question.marks)
                        .into_iter()
                        .map(|piece| {
                            let marks: Vec<Value> = piece
                                .marks
                                .iter()
                                .map(|index| {
                                    let mark = &question.marks[*index];
                                    let number = question.marks[..*index]
                                        .iter()
                                        .filter(|m| m.kind == "note")
                                        .count()
                                        + 1;
                                    context! { kind => mark.kind, number }
                                })
                                .collect();
                            context! { text => piece.text, highlighted => piece.highlighted, marks }
                        })
                        .collect();
                    context! { kind => "text", pieces }
                }
                MarkedAnswer::Scan {
                    media_type,
                    content,
                    width,
                    height,
                } => {
                    let drawn: Vec<Value> = drawn_on_scan(&question.marks, *width, *height)
                        .into_iter()
                        .map(|drawn| {
                            let (number, x, y) = drawn.note.unwrap_or_default();
                            context! {
                                kind => drawn.kind,
                                shape => drawn.shape,
                                width => drawn.stroke_width,
                                number, x, y,
                                font => f64::from((*width).max(*height)) * 0.018,
                            }
                        })
                        .collect();
                    let source = format!(
                        "data:{media_type};base64,{}",
                        base64::engine::general_purpose::STANDARD.encode(content)
                    );
                    context! { kind => "scan", source, width, height, drawn }
                }
                MarkedAnswer::Other(media_type) => context! { kind => "other", media_type },
            };
            let dimensions: Vec<Value> = question
                .dimensions
                .iter()
                .map(|d| {
                    context! { name => d.name, max => d.max_score, score => d.score, comment => d.comment }
                })
                .collect();
            context! {
                number => question.number,
                description => question.description,
                markup => Value::from_safe_string(markup::sanitize(&markup::for_paper(&question.markup))),
                max => question.max_score,
                scored => question.scored,
                score => question.score,
                comments => question.comments,
                dimensions,
                answer,
                notes,
                remarks => comments,
            }
        })
        .collect();
    let mut environment = Environment::new();
    environment.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
    environment.add_template("marked_script.html", TEMPLATE)?;
    environment
        .get_template("marked_script.html")?
        .render(context! {
            result => script.result_id,
            participant => script.participant,
            assessment => script.assessment,
            total => script.total_score,
            max => script.max_score,
            questions,
            printed,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::marked_script::{Mark, MarkedDimension, MarkedQuestion};

    fn question(answer: MarkedAnswer, marks: Vec<Mark>) -> MarkedQuestion {
        MarkedQuestion {
            number: 2,
            description: Some("Braking <bus>".into()),
            markup: "<p>Why?</p><script>alert(1)</script>".into(),
            max_score: 6,
            scored: true,
            score: Some(4),
            comments: Some("Good & clear".into()),
            dimensions: vec![MarkedDimension {
                name: "Physics".into(),
                max_score: 3,
                score: Some(2),
                comment: Some("Inertia named".into()),
            }],
            answer,
            marks,
        }
    }

    #[test]
    fn a_typed_answer_is_printed_with_its_marks_notes_and_scores_escaped() {
        let marks = vec![
            Mark {
                kind: "highlighter".into(),
                points: vec![],
                range: Some((0, 4)),
                text: None,
            },
            Mark {
                kind: "note".into(),
                points: vec![],
                range: Some((5, 7)),
                text: Some("Explain <why>".into()),
            },
        ];
        let script = MarkedScript {
            result_id: 7,
            participant: Some("Ann O'Neil".into()),
            assessment: "Physics".into(),
            total_score: 4,
            max_score: 6,
            questions: vec![question(
                MarkedAnswer::Text("This is <b>it</b>".into()),
                marks,
            )],
        };
        let html = render(&script, "7 December 2026").unwrap();
        assert!(html.contains("<mark>This</mark>"), "{html}");
        assert!(html.contains("&lt;b&gt;it&lt;&#x2f;b&gt;"), "{html}");
        assert!(html.contains("Explain &lt;why&gt;"));
        assert!(
            html.contains("is<sup class=\"note\">[1]</sup> &lt;b&gt;"),
            "{html}"
        );
        assert!(!html.contains("<script>alert"));
        assert!(html.contains("Good &amp; clear"));
        assert!(html.contains("2 / 3"), "{html}");
        assert!(html.contains("4 / 6"));
        assert!(html.contains("Ann O&#x27;Neil"));
    }

    #[test]
    fn a_scan_is_printed_with_its_marks_over_it_in_its_pixels() {
        let marks = vec![Mark {
            kind: "tick".into(),
            points: vec![(50, 60)],
            range: None,
            text: None,
        }];
        let scan = MarkedAnswer::Scan {
            media_type: "image/png".into(),
            content: vec![1, 2, 3],
            width: 1000,
            height: 500,
        };
        let script = MarkedScript {
            result_id: 7,
            participant: None,
            assessment: "Physics".into(),
            total_score: 4,
            max_score: 6,
            questions: vec![question(scan, marks)],
        };
        let html = render(&script, "7 December 2026").unwrap();
        assert!(html.contains("viewBox=\"0 0 1000 500\""), "{html}");
        // The engine escapes the slash; the attribute's value is the same URL.
        assert!(
            html.contains("src=\"data:image&#x2f;png;base64,AQID\""),
            "{html}"
        );
        assert!(html.contains("class=\"tick\""), "{html}");
    }
}
