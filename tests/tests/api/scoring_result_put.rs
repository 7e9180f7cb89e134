//! Spec, ScoringResult and Errors: PUT of the whole ScoringResult changes `Score` and
//! `Comments`; a `ModifiedDateTime` (or `If-Match` ETag) that is not the stored one
//! is refused with 412 and nothing changes.

use reqwest::StatusCode;
use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};
use serde_json::{json, Value};

use crate::scoring_support::*;

on_both_backends! {
    a_put_of_the_whole_scoring_result_changes_score_and_comments => put_changes_score;
    a_put_whose_last_modified_value_differs_from_the_stored_revision_is_412_and_the_entry_is_not_updated => stale_put_refused;
    get_sends_an_etag_and_if_match_has_the_same_meaning => etag_and_if_match;
    a_put_without_the_last_modified_value_read_is_refused => modified_required;
    the_overall_score_lies_between_0_and_the_rubrics_max_score => score_range;
    keys_and_created_date_time_are_read_only => read_only_properties;
    a_verbose_json_client_can_send_back_what_it_read => verbose_round_trip;
    comments_of_any_characters_are_written_as_xml_can_carry_them_in_atom => comments_in_atom;
}

/// Issue 31 (fuzzing's `snapshot_xml`): a comment saved through JSON may hold what
/// XML 1.0 cannot carry (a BEL from a pasted text) or would change (a CR): the
/// Atom entry stays XML a strict parser takes, with the CR as a reference and the
/// control character as U+FFFD; JSON gives the comment back as saved.
async fn comments_in_atom(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let task = open_task_with_rubric(&app).await;
    let read = scoring_result_of(&app, task).await;
    let comment = "line one\r\nline two\u{7} rang";
    let response = put_scoring_result(&app, &read, 2, comment).await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(stored(&app, &read).await["Comments"], comment);
    let response = app
        .client
        .get(app.url(&scoring_result_path(&app, &read)))
        .basic_auth(SCORER, Some(scoredesk_server::seed::demo::DEMO_PASSWORD))
        .header("Accept", "application/atom+xml")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let atom = response.text().await.unwrap();
    let bad: Vec<char> = atom
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..))
        .collect();
    assert!(
        bad.is_empty(),
        "characters XML 1.0 cannot carry: {bad:?} in {atom}"
    );
    assert!(
        atom.contains("line one&#13;\nline two\u{FFFD} rang"),
        "{atom}"
    );
    let entry = crate::atom_support::entry(&atom);
    assert_eq!(
        entry.properties["Comments"].text.as_deref(),
        Some("line one\r\nline two\u{FFFD} rang")
    );
}

async fn stored(app: &TestApp, scoring_result: &Value) -> Value {
    get(app, &scoring_result_path(app, scoring_result)).await
}

/// The stored values a PUT may change, and its revision.
async fn stored_values(app: &TestApp, scoring_result: &Value) -> [Value; 3] {
    let stored = stored(app, scoring_result).await;
    ["Score", "Comments", "ModifiedDateTime"].map(|name| stored[name].clone())
}

fn values(scoring_result: &Value) -> [Value; 3] {
    ["Score", "Comments", "ModifiedDateTime"].map(|name| scoring_result[name].clone())
}

async fn put_changes_score(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let task = open_task_with_rubric(&app).await;
    let read = scoring_result_of(&app, task).await;
    assert!(read["Score"].is_null());
    let response = put_scoring_result(&app, &read, 3, "Clear argument; weak conclusion.").await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    let etag = response.headers()["ETag"].to_str().unwrap().to_owned();
    let now = stored(&app, &read).await;
    assert_eq!(now["Score"], 3);
    assert_eq!(now["Comments"], "Clear argument; weak conclusion.");
    assert_ne!(
        now["ModifiedDateTime"], read["ModifiedDateTime"],
        "a new revision"
    );
    assert!(now["ModifiedDateTime"].as_str().unwrap() > read["ModifiedDateTime"].as_str().unwrap());
    assert_eq!(now["CreatedDateTime"], read["CreatedDateTime"]);
    assert_eq!(
        now["odata.etag"],
        etag.as_str(),
        "the 204's ETag is the new revision's"
    );
    // A PUT replaces the entity: properties left out become null.
    let mut body = now.clone();
    body.as_object_mut().unwrap().remove("Comments");
    let response = put(&app, &scoring_result_path(&app, &now), &body).await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert!(stored(&app, &read).await["Comments"].is_null());
}

async fn stale_put_refused(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let task = open_task_with_rubric(&app).await;
    let first_read = scoring_result_of(&app, task).await;
    let second_read = first_read.clone();
    assert_eq!(
        put_scoring_result(&app, &first_read, 4, "first scorer")
            .await
            .status(),
        StatusCode::NO_CONTENT
    );
    let response = put_scoring_result(&app, &second_read, 1, "second scorer").await;
    assert_eq!(response.status(), StatusCode::PRECONDITION_FAILED);
    let message = odata_error_message(response).await;
    assert!(message.contains("read it again"), "{message}");
    let now = stored(&app, &first_read).await;
    assert_eq!(
        (now["Score"].clone(), now["Comments"].clone()),
        (json!(4), json!("first scorer"))
    );
    // The client re-reads, re-applies, and succeeds.
    assert_eq!(
        put_scoring_result(&app, &now, 1, "second scorer")
            .await
            .status(),
        StatusCode::NO_CONTENT
    );
    assert_eq!(stored(&app, &first_read).await["Score"], 1);
}

async fn etag_and_if_match(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let task = open_task_with_rubric(&app).await;
    let read = scoring_result_of(&app, task).await;
    let path = scoring_result_path(&app, &read);
    let response = app.get_as(SCORER, &path).await;
    let etag = response.headers()["ETag"].to_str().unwrap().to_owned();
    assert!(etag.starts_with("W/\"datetime'"), "{etag}");
    assert_eq!(
        read["odata.etag"],
        etag.as_str(),
        "the entity carries it too"
    );
    // The $metadata declares the concurrency token.
    let metadata = app
        .get_as(SCORER, &format!("{}$metadata", app.root()))
        .await
        .text()
        .await
        .unwrap();
    assert!(metadata.contains(
        r#"<Property Name="ModifiedDateTime" Type="Edm.DateTime" Nullable="false" Precision="3" ConcurrencyMode="Fixed"/>"#
    ));
    // If-Match alone (no ModifiedDateTime in the body) with the current tag succeeds...
    let body = json!({"Score": 2, "Comments": "by etag"});
    let response = app
        .put_json(SCORER, &path, &body, &[("If-Match", &etag)])
        .await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    let new_etag = response.headers()["ETag"].to_str().unwrap().to_owned();
    assert_ne!(new_etag, etag);
    // ...and the old tag is now stale, even with a body that has no ModifiedDateTime.
    let response = app
        .put_json(SCORER, &path, &json!({"Score": 0}), &[("If-Match", &etag)])
        .await;
    assert_eq!(response.status(), StatusCode::PRECONDITION_FAILED);
    // A current body value with a stale If-Match is refused too: both must hold.
    let now = stored(&app, &read).await;
    let mut body = now.clone();
    body["Score"] = json!(0);
    let response = app
        .put_json(SCORER, &path, &body, &[("If-Match", &etag)])
        .await;
    assert_eq!(response.status(), StatusCode::PRECONDITION_FAILED);
    assert_eq!(stored(&app, &read).await["Score"], 2);
    // An If-Match that is not ASCII is malformed: 400, naming the header.
    let response = app
        .client
        .put(app.url(&path))
        .basic_auth(SCORER, Some("scoredesk-demo"))
        .header(
            "If-Match",
            reqwest::header::HeaderValue::from_bytes(b"W/\"\xff\"").unwrap(),
        )
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(odata_error_message(response).await.contains("If-Match"));
    // `If-Match: *` matches any revision, but the body's value still has to.
    let response = app
        .put_json(SCORER, &path, &body, &[("If-Match", "*")])
        .await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(stored(&app, &read).await["Score"], 0);
}

async fn modified_required(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let task = open_task_with_rubric(&app).await;
    let read = scoring_result_of(&app, task).await;
    let mut body = read.clone();
    body.as_object_mut().unwrap().remove("ModifiedDateTime");
    body["Score"] = json!(2);
    let response = put(&app, &scoring_result_path(&app, &read), &body).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(odata_error_message(response)
        .await
        .contains("ModifiedDateTime is required"));
    assert!(stored(&app, &read).await["Score"].is_null());
}

async fn score_range(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let task = open_task_with_rubric(&app).await;
    let read = scoring_result_of(&app, task).await;
    let max = rubric_max_score(&app, &read).await;
    for score in [max + 1, -1] {
        let response = put_scoring_result(&app, &read, score, "out of range").await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{score}");
        let message = odata_error_message(response).await;
        assert!(
            message.contains(&format!("between 0 and {max}")),
            "{message}"
        );
    }
    assert_eq!(
        stored_values(&app, &read).await,
        values(&read),
        "nothing changed"
    );
    assert_eq!(
        put_scoring_result(&app, &read, max, "full marks")
            .await
            .status(),
        StatusCode::NO_CONTENT
    );
}

async fn read_only_properties(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let task = open_task_with_rubric(&app).await;
    let read = scoring_result_of(&app, task).await;
    for (property, value, named) in [
        (
            "RubricID",
            json!(read["RubricID"].as_i64().unwrap() + 1000),
            "part of the key",
        ),
        (
            "ResultID",
            json!(read["ResultID"].as_i64().unwrap() + 1000),
            "part of the key",
        ),
        (
            "CreatedDateTime",
            json!("2001-01-01T00:00:00.000"),
            "read-only",
        ),
    ] {
        let mut body = read.clone();
        body[property] = value;
        body["Score"] = json!(1);
        let response = put(&app, &scoring_result_path(&app, &read), &body).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{property}");
        let message = odata_error_message(response).await;
        assert!(
            message.contains(property) && message.contains(named),
            "{message}"
        );
    }
    assert_eq!(
        stored_values(&app, &read).await,
        values(&read),
        "nothing changed"
    );
}

async fn verbose_round_trip(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let task = open_task_with_rubric(&app).await;
    let light = scoring_result_of(&app, task).await;
    let path = scoring_result_path(&app, &light);
    let (status, verbose) = app
        .get_json_with(
            SCORER,
            &path,
            &[("Accept", "application/json;odata=verbose")],
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let modified = verbose["d"]["ModifiedDateTime"].as_str().unwrap();
    assert!(modified.starts_with("/Date("), "{modified}");
    assert!(verbose["d"]["__metadata"]["etag"].is_string());
    let mut body = verbose.clone();
    body["d"]["Score"] = json!(2);
    body["d"]["Comments"] = json!("sent back verbose");
    let response = app
        .put_json(
            SCORER,
            &path,
            &body,
            &[("Content-Type", "application/json;odata=verbose")],
        )
        .await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(stored(&app, &light).await["Comments"], "sent back verbose");
}
