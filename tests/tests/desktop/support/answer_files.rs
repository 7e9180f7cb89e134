//! Answer files for a snapshot, written the way a coordinator's tool would: from
//! the snapshot's XML (docs/snapshot-xml.md), read through the API.

use quick_xml::events::Event;
use quick_xml::Reader;
use serde_json::{json, Value};

use super::Api;

/// One question of a snapshot: its number, what an upload sends for it, and how
/// many choices it has.
#[derive(Debug, Clone)]
pub struct SnapshotQuestion {
    pub number: u32,
    pub expected: String,
    pub choices: usize,
}

/// The questions of snapshot `id`, in order.
pub async fn snapshot_questions(api: &Api, id: &str) -> Vec<SnapshotQuestion> {
    let xml = api
        .get_text(&format!(
            "AssessmentSnapshots({id})/AssessmentSnapshotData/$value"
        ))
        .await;
    let mut reader = Reader::from_str(&xml);
    let mut questions: Vec<SnapshotQuestion> = Vec::new();
    loop {
        match reader.read_event().expect("the snapshot XML reads") {
            Event::Start(element) if element.local_name().as_ref() == b"Question" => {
                let attribute = |name: &[u8]| {
                    element
                        .attributes()
                        .flatten()
                        .find(|a| a.key.local_name().as_ref() == name)
                        .map(|a| String::from_utf8(a.value.to_vec()).unwrap())
                        .unwrap_or_default()
                };
                questions.push(SnapshotQuestion {
                    number: attribute(b"OrderNumber").parse().unwrap(),
                    expected: attribute(b"ExpectedResponse"),
                    choices: 0,
                });
            }
            Event::Start(element) if element.local_name().as_ref() == b"Choice" => {
                questions.last_mut().unwrap().choices += 1;
            }
            Event::Eof => break,
            _ => {}
        }
    }
    questions
}

/// A valid upload for `attempt`: the first choice of every choice question, and a
/// typed answer to every essay (each becomes a scoring task).
pub fn answer_file(attempt: i64, batch: &str, questions: &[SnapshotQuestion]) -> Value {
    let answers: Vec<Value> = questions
        .iter()
        .map(|q| {
            if q.expected == "text_or_image" {
                json!({"QuestionOrderNumber": q.number, "TextResponse": format!("Attempt {attempt}'s answer to question {}.", q.number)})
            } else {
                json!({"QuestionOrderNumber": q.number, "UploadedChoices": [{"ChoiceOrderNumber": "1", "Selected": true}]})
            }
        })
        .collect();
    json!({"AttemptID": attempt, "BatchID": batch, "QuestionAndChoices": answers})
}

/// How many of the questions are essays (a scoring task each, once answered).
pub fn essays(questions: &[SnapshotQuestion]) -> usize {
    questions
        .iter()
        .filter(|q| q.expected == "text_or_image")
        .count()
}
