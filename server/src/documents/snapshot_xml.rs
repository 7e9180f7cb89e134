//! `AssessmentSnapshots(<id>)/AssessmentSnapshotData/$value`: what a delivery needs
//! to deliver a snapshot and to write an upload file for it. The schema is
//! `docs/snapshot-xml.xsd`, described in `docs/snapshot-xml.md`; the tests validate
//! every served document against it. The answer key is not in it: a delivery system
//! is not told which choices are correct.

use quick_xml::events::{BytesDecl, Event};
use quick_xml::Writer;

use crate::model::question_kind::QuestionKind;
use crate::model::snapshot::{limits, ExpectedResponse, SnapshotQuestion};

/// The namespace of the document; its version changes when the format does.
pub const NAMESPACE: &str = "urn:scoredesk:assessment-snapshot:1";

/// The snapshot as a whole, for the document's root. Its name is not in the
/// document: a name can change (PATCH), the document never does.
pub struct SnapshotHeader<'a> {
    pub id: i32,
    pub assessment_id: i64,
    pub language: Option<&'a str>,
}

/// The document's bytes. The same snapshot gives the same bytes every time.
pub fn write(header: &SnapshotHeader<'_>, questions: &[SnapshotQuestion]) -> Vec<u8> {
    let mut writer = Writer::new_with_indent(Vec::new(), b' ', 2);
    let written = write_into(&mut writer, header, questions);
    // Writing into memory cannot fail.
    debug_assert!(written.is_ok());
    writer.into_inner()
}

fn write_into(
    writer: &mut Writer<Vec<u8>>,
    header: &SnapshotHeader<'_>,
    questions: &[SnapshotQuestion],
) -> std::io::Result<()> {
    writer.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
    let id = header.id.to_string();
    let assessment = header.assessment_id.to_string();
    let count = questions.len().to_string();
    let mut root = writer
        .create_element("AssessmentSnapshot")
        .with_attribute(("xmlns", NAMESPACE))
        .with_attribute(("ID", id.as_str()))
        .with_attribute(("AssessmentID", assessment.as_str()))
        .with_attribute(("QuestionCount", count.as_str()));
    let language = header.language.map(crate::xml::escape_attribute);
    if let Some(language) = &language {
        // Escaped already: the bytes go in as they are.
        root = root.with_attribute(("Language".as_bytes(), language.as_bytes()));
    }
    root.write_inner_content(|writer| {
        for question in questions {
            write_question(writer, question)?;
        }
        Ok(())
    })?;
    Ok(())
}

fn write_question(
    writer: &mut Writer<Vec<u8>>,
    question: &SnapshotQuestion,
) -> std::io::Result<()> {
    let expected = ExpectedResponse::of(question.kind);
    let order = question.order.to_string();
    let id = question.question_id.to_string();
    let max_score = question.max_score.to_string();
    let mut element = writer
        .create_element("Question")
        .with_attribute(("OrderNumber", order.as_str()))
        .with_attribute(("QuestionID", id.as_str()))
        .with_attribute(("Type", question.kind.as_str()))
        .with_attribute(("ExpectedResponse", expected.as_str()))
        .with_attribute(("MaxScore", max_score.as_str()));
    let topic = question
        .topic
        .as_ref()
        .map(|t| crate::xml::escape_attribute(&t.path));
    if let Some(topic) = &topic {
        element = element.with_attribute(("Topic".as_bytes(), topic.as_bytes()));
    }
    // A point question's choices are its areas: the key, which the XML never holds.
    let choices: &[_] = if question.kind == QuestionKind::Point {
        &[]
    } else {
        &question.choices
    };
    element.write_inner_content(|writer| {
        for choice in choices {
            let order = choice.order.to_string();
            let part = choice.part.to_string();
            let mut element = writer
                .create_element("Choice")
                .with_attribute(("OrderNumber", order.as_str()));
            // An option of a blank's own list: the blank it is picked for.
            if choice.part > 0 {
                element = element.with_attribute(("Part", part.as_str()));
            }
            element.write_text_content(quick_xml::events::BytesText::from_escaped(
                crate::xml::escape_text(&choice.text),
            ))?;
        }
        for (index, text) in question.parts.texts.iter().enumerate() {
            let order = (index + 1).to_string();
            writer
                .create_element("Part")
                .with_attribute(("OrderNumber", order.as_str()))
                .write_text_content(quick_xml::events::BytesText::from_escaped(
                    crate::xml::escape_text(text),
                ))?;
        }
        if let Some(picture) = question.picture {
            let (width, height) = (picture.width.to_string(), picture.height.to_string());
            writer
                .create_element("Picture")
                .with_attribute(("Width", width.as_str()))
                .with_attribute(("Height", height.as_str()))
                .write_empty()?;
        }
        let picked = question.choices.iter().any(|c| c.part > 0);
        let number = question.number_within(limits::NUMBER_CHARACTERS);
        let most = match expected {
            ExpectedResponse::Points => question.max_points().unwrap_or(0),
            _ => question.max_selected(),
        };
        write_validation(writer, expected, most, picked, number)
    })?;
    Ok(())
}

/// What an upload's response to the question must be (`max_selected`: the
/// most choices, or the most points, 0 for any number); `picked`: some of a
/// fill-in-the-blanks question's blanks are picked from their own lists;
/// `number`: a text entry is answered by a short number.
fn write_validation(
    writer: &mut Writer<Vec<u8>>,
    expected: ExpectedResponse,
    max_selected: usize,
    picked: bool,
    number: bool,
) -> std::io::Result<()> {
    match expected {
        ExpectedResponse::SingleChoice | ExpectedResponse::MultipleChoices => {
            let max = max_selected.to_string();
            writer
                .create_element("Validation")
                .with_attribute(("MinSelected", "0"))
                .with_attribute(("MaxSelected", max.as_str()))
                .write_empty()?;
        }
        ExpectedResponse::Parts => {
            writer
                .create_element("Validation")
                .with_attribute(("MaxSelectedPerPart", "1"))
                .write_empty()?;
        }
        ExpectedResponse::TextParts => {
            let chars = limits::MAX_BLANK_CHARS.to_string();
            let mut element = writer.create_element("Validation");
            if picked {
                element = element.with_attribute(("MaxSelectedPerPart", "1"));
            }
            element
                .with_attribute(("MaxTextLengthPerPart", chars.as_str()))
                .write_empty()?;
        }
        ExpectedResponse::Text => {
            let chars = limits::MAX_TEXT_CHARS.to_string();
            let number_chars = limits::NUMBER_CHARACTERS.to_string();
            let mut element = writer
                .create_element("Validation")
                .with_attribute(("MaxTextLength", chars.as_str()));
            if number {
                element = element.with_attribute(("NumberCharacters", number_chars.as_str()));
            }
            element.write_empty()?;
        }
        ExpectedResponse::Points => {
            let mut element = writer.create_element("Validation");
            let most = max_selected.to_string();
            if max_selected > 0 {
                element = element.with_attribute(("MaxPoints", most.as_str()));
            }
            element.write_empty()?;
        }
        ExpectedResponse::TextOrImage => {
            let chars = limits::MAX_TEXT_CHARS.to_string();
            let bytes = limits::MAX_IMAGE_BYTES.to_string();
            let pixels = limits::MAX_IMAGE_PIXELS.to_string();
            let types = limits::IMAGE_TYPES.join(" ");
            writer
                .create_element("Validation")
                .with_attribute(("MaxTextLength", chars.as_str()))
                .with_attribute(("ImageTypes", types.as_str()))
                .with_attribute(("MaxImageBytes", bytes.as_str()))
                .with_attribute(("MaxImagePixels", pixels.as_str()))
                .write_empty()?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::question_kind::QuestionKind;
    use crate::model::snapshot::SnapshotChoice;

    #[test]
    fn text_is_escaped_and_the_key_left_out() {
        let questions = [SnapshotQuestion {
            order: 1,
            question_id: 77,
            kind: QuestionKind::MultipleChoice,
            max_score: 2,
            topic: Some(crate::model::result_scores::Topic {
                id: 1,
                path: "Science/Physics".into(),
            }),
            choices: vec![SnapshotChoice {
                order: 1,
                question_choice: 3,
                text: "a < b & \"c\"".into(),
                correct: true,
                mapped_value: None,
                part: 0,
            }],
            rule: crate::model::scoring_rule::ScoringRule::Service,
            text_keys: Vec::new(),
            parts: Default::default(),
            max_choices: None,
            picture: None,
        }];
        let header = SnapshotHeader {
            id: 5,
            assessment_id: 9,
            language: Some("en <GB>"),
        };
        let text = String::from_utf8(write(&header, &questions)).unwrap();
        assert!(text.contains("Language=\"en &lt;GB&gt;\""), "{text}");
        assert!(text.contains("a &lt; b &amp;"), "{text}");
        assert!(!text.to_lowercase().contains("correct"), "{text}");
        assert_eq!(text, String::from_utf8(write(&header, &questions)).unwrap());
    }
}
