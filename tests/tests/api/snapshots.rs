//! `AssessmentSnapshots` (spec, "External delivery"): a snapshot fixes an
//! assessment's questions, their order and the order of shuffled choices; its XML
//! (docs/snapshot-xml.md) is valid against docs/snapshot-xml.xsd, the same bytes on
//! every read, and never tells which choices are correct.

use std::collections::BTreeMap;

use reqwest::{Method, StatusCode};
use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use serde_json::{json, Value};

on_both_backends! {
    a_coordinator_takes_a_snapshot_and_reads_its_xml => take_and_read;
    a_bad_snapshot_is_refused_naming_the_field_and_nothing_is_stored => refused;
    a_snapshots_name_and_expiry_change_by_patch_or_merge_and_nothing_else => rename;
}

const COORDINATOR: &str = "northwind-coordinator";

async fn send(
    app: &TestApp,
    user: &str,
    method: Method,
    path: &str,
    body: &Value,
) -> reqwest::Response {
    let mut request = app
        .client
        .request(method, app.url(&format!("{}{path}", app.root())))
        .basic_auth(user, Some(DEMO_PASSWORD));
    if !body.is_null() {
        request = request.json(body);
    }
    request.send().await.unwrap()
}

/// The Northwind assessment with the most single-choice questions (its choices are
/// shuffled in snapshots).
async fn assessment(app: &TestApp) -> i64 {
    app.sql_i64(&format!(
        "SELECT aq.assessment_id FROM assessment_questions aq JOIN questions q ON q.id = aq.question_id \
         WHERE aq.customer_id = {} AND q.question_type = 'multiple_choice' \
         GROUP BY aq.assessment_id ORDER BY COUNT(*) DESC, aq.assessment_id LIMIT 1",
        app.northwind()
    ))
    .await
}

async fn take_and_read(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let assessment = assessment(&app).await;
    // Dummy ID and dates, as the spec allows; AssessmentID as a string (Int64).
    let body = json!({
        "ID": 0,
        "CreatedDateTime": "2000-01-01T00:00:00",
        "ModifiedDateTime": "2000-01-01T00:00:00",
        "AssessmentID": assessment.to_string(),
        "Name": "Spring paper",
    });
    let response = send(
        &app,
        COORDINATOR,
        Method::POST,
        "AssessmentSnapshots",
        &body,
    )
    .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let location = response.headers()["Location"].to_str().unwrap().to_owned();
    let created: Value = response.json().await.unwrap();
    let id = created["ID"].as_i64().unwrap();
    assert!(id > 0);
    assert!(
        location.ends_with(&format!("AssessmentSnapshots({id})")),
        "{location}"
    );
    assert_eq!(created["AssessmentID"], assessment.to_string());
    assert_eq!(created["Name"], "Spring paper");
    assert_ne!(created["CreatedDateTime"], "2000-01-01T00:00:00");

    let listed = app
        .get_json(&format!(
            "{}AssessmentSnapshots?$filter=AssessmentID eq {assessment}L",
            app.root()
        ))
        .await;
    let ids: Vec<i64> = listed["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["ID"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [id]);
    let metadata = app
        .get_json(&format!(
            "{}AssessmentSnapshots({id})/AssessmentSnapshotData",
            app.root()
        ))
        .await;
    assert_eq!(metadata["ID"], id);

    let xml = snapshot_xml(&app, id).await;
    assert_eq!(
        xml,
        snapshot_xml(&app, id).await,
        "the same bytes on every read"
    );
    validate(&xml);
    assert!(
        !xml.to_lowercase().contains("correct"),
        "no answer key in the delivery XML"
    );
    let questions = app
        .sql_strings(&format!(
            "SELECT CAST(question_id AS TEXT) FROM assessment_questions WHERE assessment_id = {assessment} ORDER BY position"
        ))
        .await;
    let document = roxmltree_like(&xml);
    assert_eq!(document.count, questions.len());
    assert_eq!(
        document
            .questions
            .iter()
            .map(|q| q.0.clone())
            .collect::<Vec<_>>(),
        questions
    );
    // Each question's choices are its own, each once, numbered 1, 2, ... in the
    // snapshot's order; single-choice ones are shuffled (with six of them, at least
    // one comes out in another order than the question's own).
    let mut shuffled = 0;
    for (question, choices) in &document.questions {
        let own = app
            .sql_strings(&format!(
                "SELECT text FROM choices WHERE question_id = {question} ORDER BY choice_order"
            ))
            .await;
        let mut sorted = choices.clone();
        sorted.sort();
        let mut own_sorted = own.clone();
        own_sorted.sort();
        assert_eq!(sorted, own_sorted, "question {question}");
        if *choices != own {
            shuffled += 1;
        }
    }
    assert!(shuffled > 0, "no question's choices were shuffled");
    // What the snapshot fixed is stored for uploads: the same order as the XML.
    let stored = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM snapshot_questions WHERE snapshot_id = {id}"
        ))
        .await;
    assert_eq!(stored as usize, questions.len());

    // A second snapshot of the same assessment has its own shuffle, and the first
    // one's document does not change.
    let second = send(
        &app,
        COORDINATOR,
        Method::POST,
        "AssessmentSnapshots",
        &body,
    )
    .await;
    assert_eq!(second.status(), StatusCode::CREATED);
    assert_eq!(xml, snapshot_xml(&app, id).await);
}

pub(crate) async fn snapshot_xml(app: &TestApp, id: i64) -> String {
    let response = send(
        app,
        COORDINATOR,
        Method::GET,
        &format!("AssessmentSnapshots({id})/AssessmentSnapshotData/$value"),
        &Value::Null,
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/xml"));
    response.text().await.unwrap()
}

/// Validates `xml` against docs/snapshot-xml.xsd with xmllint.
pub(crate) fn validate(xml: &str) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("snapshot.xml");
    std::fs::write(&file, xml).unwrap();
    let schema = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/snapshot-xml.xsd");
    let output = std::process::Command::new("xmllint")
        .args(["--noout", "--schema", schema])
        .arg(&file)
        .output()
        .expect("xmllint runs (libxml2-utils; scripts/test installs it)");
    assert!(
        output.status.success(),
        "the snapshot XML is not valid against its schema:\n{}\n{xml}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The parts of the document the test compares: the question count, and each
/// question's ID with its choices' texts in the document's order.
struct Document {
    count: usize,
    questions: Vec<(String, Vec<String>)>,
}

fn roxmltree_like(xml: &str) -> Document {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut count = 0;
    let mut questions: Vec<(String, Vec<String>)> = Vec::new();
    let mut numbers: BTreeMap<String, Vec<i64>> = BTreeMap::new();
    loop {
        match reader.read_event().unwrap() {
            Event::Start(element) | Event::Empty(element) => {
                let attribute = |name: &str| {
                    element
                        .try_get_attribute(name)
                        .unwrap()
                        .map(|a| a.unescape_value().unwrap().into_owned())
                };
                match element.name().as_ref() {
                    b"AssessmentSnapshot" => {
                        count = attribute("QuestionCount").unwrap().parse().unwrap()
                    }
                    b"Question" => questions.push((attribute("QuestionID").unwrap(), Vec::new())),
                    b"Choice" => {
                        let question = questions.last().unwrap().0.clone();
                        numbers
                            .entry(question)
                            .or_default()
                            .push(attribute("OrderNumber").unwrap().parse().unwrap());
                        let end = element.to_end().into_owned();
                        let raw = reader.read_text(end.name()).unwrap();
                        let text = quick_xml::escape::unescape(&raw).unwrap().into_owned();
                        questions.last_mut().unwrap().1.push(text);
                    }
                    _ => {}
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    for (question, numbers) in numbers {
        let expected: Vec<i64> = (1..=numbers.len() as i64).collect();
        assert_eq!(
            numbers, expected,
            "question {question}'s choices are numbered 1, 2, ..."
        );
    }
    Document { count, questions }
}

async fn refused(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let assessment = assessment(&app).await;
    let other_area = app
        .sql_i64(&format!(
            "SELECT MIN(id) FROM assessments WHERE customer_id = {}",
            app.harbour()
        ))
        .await;
    let tables = [
        "assessment_snapshots",
        "snapshot_questions",
        "snapshot_choices",
    ];
    let before = app.row_counts(&tables).await;
    let cases: Vec<(Value, &str)> = vec![
        (json!({"Name": "no assessment"}), "AssessmentID"),
        (json!({"AssessmentID": null}), "AssessmentID"),
        (json!({"AssessmentID": "999999999999"}), "AssessmentID"),
        (
            json!({"AssessmentID": other_area.to_string()}),
            "AssessmentID",
        ),
        (json!({"AssessmentID": "12x"}), "AssessmentID"),
        (
            json!({"AssessmentID": assessment.to_string(), "Name": 5}),
            "Name",
        ),
        (
            json!({"AssessmentID": assessment.to_string(), "Colour": "red"}),
            "Colour",
        ),
        (
            json!({"AssessmentID": assessment.to_string(), "Name": "x".repeat(5000)}),
            "Name",
        ),
        (
            json!({"AssessmentID": assessment.to_string(), "ExpiresDateTime": "soon"}),
            "ExpiresDateTime",
        ),
    ];
    for (body, field) in cases {
        let response = send(
            &app,
            COORDINATOR,
            Method::POST,
            "AssessmentSnapshots",
            &body,
        )
        .await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{body}");
        let message = odata_error_message(response).await;
        assert!(message.contains(field), "{body}: {message}");
    }
    let not_json = app
        .client
        .post(app.url(&format!("{}AssessmentSnapshots", app.root())))
        .basic_auth(COORDINATOR, Some(DEMO_PASSWORD))
        .header("Content-Type", "application/json")
        .body("{\"AssessmentID\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(not_json.status(), StatusCode::BAD_REQUEST);
    let scorer = send(
        &app,
        "northwind-scorer",
        Method::POST,
        "AssessmentSnapshots",
        &json!({"AssessmentID": assessment.to_string()}),
    )
    .await;
    assert_eq!(scorer.status(), StatusCode::FORBIDDEN);
    assert_eq!(app.row_counts(&tables).await, before, "nothing was stored");
}

async fn rename(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let assessment = assessment(&app).await;
    let created: Value = send(
        &app,
        COORDINATOR,
        Method::POST,
        "AssessmentSnapshots",
        &json!({"AssessmentID": assessment.to_string(), "Name": "First"}),
    )
    .await
    .json()
    .await
    .unwrap();
    let id = created["ID"].as_i64().unwrap();
    let path = format!("AssessmentSnapshots({id})");
    let xml = snapshot_xml(&app, id).await;
    let patch = Method::from_bytes(b"PATCH").unwrap();
    let merge = Method::from_bytes(b"MERGE").unwrap();
    let response = send(
        &app,
        COORDINATOR,
        patch.clone(),
        &path,
        &json!({"Name": "Renamed", "ExpiresDateTime": "2027-01-31T12:00:00"}),
    )
    .await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    let read = app.get_json(&format!("{}{path}", app.root())).await;
    assert_eq!(read["Name"], "Renamed");
    assert_eq!(read["ExpiresDateTime"], "2027-01-31T12:00:00.000");
    assert_ne!(read["ModifiedDateTime"], created["ModifiedDateTime"]);
    // A client that sends back the whole entity it read (links included), as WCF's
    // MERGE does, with only the name changed.
    let mut whole = read.clone();
    whole.as_object_mut().unwrap().remove("odata.metadata");
    whole["Name"] = json!("Merged");
    let response = send(&app, COORDINATOR, merge, &path, &whole).await;
    assert_eq!(
        response.status(),
        StatusCode::NO_CONTENT,
        "{}",
        response.text().await.unwrap()
    );
    let read = app.get_json(&format!("{}{path}", app.root())).await;
    assert_eq!(
        (read["Name"].as_str(), read["ExpiresDateTime"].as_str()),
        (Some("Merged"), Some("2027-01-31T12:00:00.000"))
    );
    assert_eq!(
        snapshot_xml(&app, id).await,
        xml,
        "what the snapshot fixed does not change"
    );
    for (body, field) in [
        (json!({"AssessmentID": "1"}), "AssessmentID"),
        (json!({"ID": id + 1}), "ID"),
        (
            json!({"CreatedDateTime": "2000-01-01T00:00:00"}),
            "CreatedDateTime",
        ),
        (json!({"Language": "fr"}), "Language"),
        (json!({"Colour": "red"}), "Colour"),
        (json!({"Name": 7}), "Name"),
        (json!({"ExpiresDateTime": "tomorrow"}), "ExpiresDateTime"),
    ] {
        let response = send(&app, COORDINATOR, patch.clone(), &path, &body).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{body}");
        assert!(
            odata_error_message(response).await.contains(field),
            "{body}"
        );
    }
    let put = send(&app, COORDINATOR, Method::PUT, &path, &json!({"Name": "x"})).await;
    assert_eq!(put.status(), StatusCode::METHOD_NOT_ALLOWED);
    let missing = send(
        &app,
        COORDINATOR,
        patch.clone(),
        "AssessmentSnapshots(999999)",
        &json!({"Name": "x"}),
    )
    .await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    let scorer = send(
        &app,
        "northwind-scorer",
        patch,
        &path,
        &json!({"Name": "x"}),
    )
    .await;
    assert_eq!(scorer.status(), StatusCode::FORBIDDEN);
    assert_eq!(
        app.get_json(&format!("{}{path}", app.root())).await["Name"],
        "Merged"
    );
}
