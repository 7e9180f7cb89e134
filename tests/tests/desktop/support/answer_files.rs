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

/// The IDs of a snapshot's attempts, in order.
pub async fn snapshot_attempts(api: &Api, snapshot: &str) -> Vec<i64> {
    let made = api
        .get(&format!(
            "Attempts?$filter=AssessmentSnapshotID eq {snapshot}&$orderby=ID"
        ))
        .await;
    made["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["ID"].as_i64().unwrap())
        .collect()
}

/// What a coordinator's other tool would have made before the desk is opened.
pub struct PaperBatch {
    /// The assessment's ID, as the API writes it (an Int64 string).
    pub assessment: Value,
    pub snapshot: i64,
    pub group: i64,
    pub batch: i64,
}

/// Through the API as `maker`: a snapshot of the area's first assessment by name
/// and a print batch of its first group, both named `name`.
pub async fn paper_batch(maker: &Api, name: &str) -> PaperBatch {
    let assessment = maker.get("Assessments?$orderby=Name&$top=1").await["value"][0]["ID"].clone();
    let snapshot = maker
        .post(
            "AssessmentSnapshots",
            json!({"ID": 0, "AssessmentID": assessment, "Name": name}),
        )
        .await["ID"]
        .as_i64()
        .unwrap();
    let group = maker.get("Groups?$orderby=Name&$top=1").await["value"][0]["ID"]
        .as_i64()
        .unwrap();
    let batch = maker
        .post(
            "PrintBatches",
            json!({"ID": 0, "GroupID": group, "SnapshotID": snapshot, "Name": name}),
        )
        .await["ID"]
        .as_i64()
        .unwrap();
    PaperBatch {
        assessment,
        snapshot,
        group,
        batch,
    }
}

/// The IDs of a group's participants.
pub async fn group_members(api: &Api, group: i64) -> Vec<i64> {
    let members = api.get(&format!("Groups({group})/Participants")).await;
    members["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["ID"].as_i64().unwrap())
        .collect()
}

/// `count` attempts at the batch's snapshot through the API, its group's
/// participants taken in turn, with external IDs `<prefix>-<n>`.
pub async fn make_attempts(api: &Api, paper: &PaperBatch, count: usize, prefix: &str) -> Vec<i64> {
    let members = group_members(api, paper.group).await;
    let mut attempts = Vec::with_capacity(count);
    for n in 0..count {
        let made = api
            .post(
                "Attempts",
                json!({
                    "ParticipantID": members[n % members.len()], "AssessmentID": paper.assessment,
                    "AssessmentSnapshotID": paper.snapshot, "ExternalAttemptID": format!("{prefix}-{n}"),
                }),
            )
            .await;
        attempts.push(made["ID"].as_i64().unwrap());
    }
    attempts
}
