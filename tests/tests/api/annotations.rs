//! Our extension `Annotations` (docs/marking-quality.md, "Annotations"): a
//! marker's pen strokes, highlights, ticks, crosses and notes on a scan (by
//! points in the image's pixels) and on a typed answer (by a range of its
//! characters), moved and removed under the ETag rules of ScoringResults; a
//! scorer reads only his own in every URL form, a lead reads all; every bad
//! body is a 400 naming the property and writes nothing; purges take them.
//! Both databases.

use reqwest::{Method, StatusCode};
use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};
use serde_json::{json, Value};

use crate::purges::purged;
use crate::scoring_support::SCORER;
use crate::second_marking::{get_as, json_as, send, with_markers, LEAD, SECOND};

on_both_backends! {
    a_marker_places_moves_and_removes_marks_on_a_scan_and_a_typed_answer => placed;
    a_bad_annotation_is_refused_naming_the_property_and_writes_nothing => refused;
    a_scorer_sees_only_his_own_annotations_by_any_url_and_a_lead_sees_all => blind;
    a_purge_takes_the_annotations_of_its_results => purged_with_results;
}

/// An answer block of an open Northwind task (no seed copy) whose media type
/// starts with `media`.
#[derive(Debug, Clone, Copy)]
struct Block {
    question: i64,
    result: i64,
    occurrence: i64,
    block_number: i64,
}

impl Block {
    fn body(&self, kind: &str) -> Value {
        json!({
            "QuestionID": self.question.to_string(),
            "ResultID": self.result,
            "Occurrence": self.occurrence,
            "BlockNumber": self.block_number,
            "Kind": kind,
        })
    }

    fn answer_value(&self) -> String {
        format!(
            "Answers(QuestionID={}L,ResultID={},Occurrence={},BlockNumber={})/$value",
            self.question, self.result, self.occurrence, self.block_number
        )
    }

    fn of_task(&self) -> String {
        format!(
            "Annotations?$filter=QuestionID eq {}L and ResultID eq {}&$orderby=ID",
            self.question, self.result
        )
    }
}

async fn blocks(app: &TestApp, media: &str) -> Vec<Block> {
    app.sql_strings(&format!(
        "SELECT CAST(a.question_id AS TEXT) || ',' || CAST(a.result_id AS TEXT) || ',' || \
         CAST(a.occurrence AS TEXT) || ',' || CAST(a.block_number AS TEXT) \
         FROM answers a JOIN scoring_tasks t ON t.question_id = a.question_id \
         AND t.result_id = a.result_id JOIN results r ON r.id = a.result_id \
         WHERE a.customer_id = {} AND t.status = 0 AND r.seed_for IS NULL \
         AND a.media_type LIKE '{media}%' ORDER BY a.result_id, a.question_id LIMIT 20",
        app.northwind()
    ))
    .await
    .iter()
    .map(|row| {
        let parts: Vec<i64> = row.split(',').map(|part| part.parse().unwrap()).collect();
        Block {
            question: parts[0],
            result: parts[1],
            occurrence: parts[2],
            block_number: parts[3],
        }
    })
    .collect()
}

/// The scan's size, decoded here from what the Answers feed serves.
async fn scan_size(app: &TestApp, block: Block) -> (u32, u32) {
    let response = send(
        app,
        Method::GET,
        SCORER,
        &block.answer_value(),
        &Value::Null,
        &[],
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
    let bytes = response.bytes().await.unwrap();
    let image = image::load_from_memory(&bytes).expect("the scan decodes");
    (image.width(), image.height())
}

async fn typed_chars(app: &TestApp, block: Block) -> i64 {
    let response = send(
        app,
        Method::GET,
        SCORER,
        &block.answer_value(),
        &Value::Null,
        &[],
    )
    .await;
    let text = response.text().await.unwrap();
    i64::try_from(text.chars().count()).unwrap()
}

/// POSTs `body` as `user`: the status and the body's JSON (or the error's message).
async fn place(app: &TestApp, user: &str, body: &Value) -> (StatusCode, Value) {
    let response = send(app, Method::POST, user, "Annotations", body, &[]).await;
    let status = response.status();
    if status.is_success() {
        (status, response.json().await.unwrap())
    } else {
        (status, json!(odata_error_message(response).await))
    }
}

async fn placed_ok(app: &TestApp, user: &str, body: Value) -> Value {
    let (status, created) = place(app, user, &body).await;
    assert_eq!(status, StatusCode::CREATED, "{body}: {created}");
    created
}

fn with(mut body: Value, extra: Value) -> Value {
    for (name, value) in extra.as_object().unwrap() {
        body[name] = value.clone();
    }
    body
}

async fn annotation_count(app: &TestApp) -> i64 {
    app.sql_i64("SELECT COUNT(*) FROM annotations").await
}

async fn placed(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let scan = blocks(&app, "image/").await[0];
    let typed = blocks(&app, "text/plain").await[0];
    let (width, height) = scan_size(&app, scan).await;
    let chars = typed_chars(&app, typed).await;
    assert!(chars > 10, "the demo's typed answer has words");

    // On the scan: a pen stroke (kept as sent, spaces made one), a highlight
    // touching the far corner, a tick, a cross and a note.
    let far = format!("{},{}", width - 1, height - 1);
    let pen = placed_ok(
        &app,
        SCORER,
        with(
            scan.body("pen"),
            json!({"Points": "10,12   40,18\n70,15", "ID": 0, "MarkedBy": "someone-else"}),
        ),
    )
    .await;
    assert_eq!(pen["Points"], "10,12 40,18 70,15");
    assert_eq!(pen["MarkedBy"], SCORER);
    assert_eq!(pen["Kind"], "pen");
    assert_eq!(pen["TextStart"], Value::Null);
    placed_ok(
        &app,
        SCORER,
        with(
            scan.body("highlighter"),
            json!({"Points": format!("0,0 {far}")}),
        ),
    )
    .await;
    let tick = placed_ok(
        &app,
        SCORER,
        with(scan.body("tick"), json!({"Points": "30,30"})),
    )
    .await;
    placed_ok(
        &app,
        SCORER,
        with(
            scan.body("cross"),
            json!({"Points": "31,30", "Text": "wrong unit"}),
        ),
    )
    .await;
    let note = placed_ok(
        &app,
        SCORER,
        with(
            scan.body("note"),
            json!({"Points": "50,60", "Text": "  Good use of the diagram.  "}),
        ),
    )
    .await;
    assert_eq!(note["Text"], "Good use of the diagram.");

    // On the typed answer: ranges of its characters, the last one to its end.
    let highlight = placed_ok(
        &app,
        SCORER,
        with(
            typed.body("highlighter"),
            json!({"TextStart": 0, "TextEnd": 5, "Text": "key term"}),
        ),
    )
    .await;
    assert_eq!(highlight["Points"], Value::Null);
    assert_eq!(
        (highlight["TextStart"].clone(), highlight["TextEnd"].clone()),
        (json!(0), json!(5))
    );
    placed_ok(
        &app,
        SCORER,
        with(
            typed.body("tick"),
            json!({"TextStart": chars - 1, "TextEnd": chars}),
        ),
    )
    .await;

    let on_scan = json_as(&app, SCORER, &scan.of_task()).await["value"].clone();
    let kinds: Vec<&str> = on_scan
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| {
            a["Occurrence"] == json!(scan.occurrence)
                && a["BlockNumber"] == json!(scan.block_number)
        })
        .map(|a| a["Kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["pen", "highlighter", "tick", "cross", "note"]);
    let (status, atom) = get_as(&app, SCORER, &format!("{}&$format=atom", scan.of_task())).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        atom.contains("<d:Points>10,12 40,18 70,15</d:Points>"),
        "{atom}"
    );
    let (status, metadata) = get_as(&app, SCORER, "$metadata").await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        metadata.contains("<EntityType Name=\"Annotation\""),
        "{metadata}"
    );
    let answer = json_as(&app, SCORER, &format!("Annotations({})/Answer", tick["ID"])).await;
    assert_eq!(answer["ResultID"], json!(scan.result));

    // Moved under its ModifiedDateTime; a second PUT with the same one is 412;
    // an If-Match of the new ETag moves it again.
    let path = format!("Annotations({})", tick["ID"]);
    let moved = with(tick.clone(), json!({"Points": "33,34"}));
    let response = send(&app, Method::PUT, SCORER, &path, &strip(&moved), &[]).await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    let etag = response.headers()["ETag"].to_str().unwrap().to_owned();
    let response = send(&app, Method::PUT, SCORER, &path, &strip(&moved), &[]).await;
    assert_eq!(response.status(), StatusCode::PRECONDITION_FAILED);
    let now = json_as(&app, SCORER, &path).await;
    assert_eq!(now["Points"], "33,34");
    assert_eq!(now["odata.etag"], etag.as_str());
    let again = with(
        now.clone(),
        json!({"Points": "35,36", "ModifiedDateTime": Value::Null}),
    );
    let mut again = strip(&again);
    again.as_object_mut().unwrap().remove("ModifiedDateTime");
    let response = send(
        &app,
        Method::PUT,
        SCORER,
        &path,
        &again,
        &[("If-Match", &etag)],
    )
    .await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    // What the server keeps cannot change: the kind, the block, the marker.
    let now = json_as(&app, SCORER, &path).await;
    for (property, value) in [
        ("Kind", json!("cross")),
        ("BlockNumber", json!(scan.block_number + 1)),
        ("MarkedBy", json!(LEAD)),
    ] {
        let changed = with(strip(&now), json!({ property: value }));
        let response = send(&app, Method::PUT, SCORER, &path, &changed, &[]).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{property}");
        assert!(odata_error_message(response).await.contains(property));
    }
    // A PUT places it again by the same rules: off the scan is a 400.
    let off = with(strip(&now), json!({"Points": format!("{width},0")}));
    let response = send(&app, Method::PUT, SCORER, &path, &off, &[]).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert_eq!(json_as(&app, SCORER, &path).await["Points"], "35,36");

    // Removed: a stale If-Match is 412, the current one removes it.
    let response = send(
        &app,
        Method::DELETE,
        SCORER,
        &path,
        &Value::Null,
        &[("If-Match", &etag)],
    )
    .await;
    assert_eq!(response.status(), StatusCode::PRECONDITION_FAILED);
    let current = json_as(&app, SCORER, &path).await["odata.etag"]
        .as_str()
        .unwrap()
        .to_owned();
    let response = send(
        &app,
        Method::DELETE,
        SCORER,
        &path,
        &Value::Null,
        &[("If-Match", &current)],
    )
    .await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(get_as(&app, SCORER, &path).await.0, StatusCode::NOT_FOUND);
    assert_eq!(annotation_count(&app).await, 6);
}

/// A read entity as a PUT body: without the protocol's annotations.
fn strip(entity: &Value) -> Value {
    let mut body = entity.clone();
    body.as_object_mut()
        .unwrap()
        .retain(|name, _| !name.starts_with("odata.") && !name.contains('@'));
    body
}

async fn refused(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let scan = blocks(&app, "image/").await[0];
    let typed = blocks(&app, "text/plain").await[0];
    let (width, height) = scan_size(&app, scan).await;
    let chars = typed_chars(&app, typed).await;
    let mut no_kind = scan.body("tick");
    no_kind.as_object_mut().unwrap().remove("Kind");
    let mut no_block = scan.body("tick");
    no_block.as_object_mut().unwrap().remove("BlockNumber");
    let mut no_result = scan.body("tick");
    no_result.as_object_mut().unwrap().remove("ResultID");
    let long_points = vec!["1,1"; 4_001].join(" ");
    let cases: Vec<(Value, &str)> = vec![
        (no_kind, "Kind is required"),
        (
            with(scan.body("stamp"), json!({"Points": "1,1"})),
            "'stamp'",
        ),
        (no_block, "BlockNumber is required"),
        (no_result, "ResultID is required"),
        (scan.body("tick"), "Points is required"),
        (
            with(scan.body("tick"), json!({"Points": format!("{width},1")})),
            "outside the scan",
        ),
        (
            with(scan.body("tick"), json!({"Points": format!("1,{height}")})),
            "outside the scan",
        ),
        (
            with(scan.body("tick"), json!({"Points": "1,1 2,2"})),
            "exactly 1 point",
        ),
        (
            with(scan.body("pen"), json!({"Points": "1,1"})),
            "at least 2 points",
        ),
        (
            with(scan.body("pen"), json!({"Points": "1.5,1 2,2"})),
            "whole pixels",
        ),
        (
            with(scan.body("pen"), json!({"Points": "-1,1 2,2"})),
            "whole pixels",
        ),
        (
            with(scan.body("pen"), json!({"Points": long_points})),
            "Points",
        ),
        (
            with(
                scan.body("tick"),
                json!({"Points": "1,1", "TextStart": 0, "TextEnd": 1}),
            ),
            "TextStart",
        ),
        (
            with(scan.body("note"), json!({"Points": "1,1"})),
            "Text is required for a note",
        ),
        (
            with(scan.body("note"), json!({"Points": "1,1", "Text": "   "})),
            "Text is required for a note",
        ),
        (with(scan.body("tick"), json!({"Points": 5})), "Points"),
        (
            with(typed.body("pen"), json!({"TextStart": 0, "TextEnd": 2})),
            "'pen'",
        ),
        (
            with(typed.body("tick"), json!({"Points": "1,1"})),
            "Points places a mark on a scan",
        ),
        (
            with(typed.body("tick"), json!({"TextStart": 0})),
            "TextEnd are required",
        ),
        (
            with(
                typed.body("tick"),
                json!({"TextStart": 0, "TextEnd": chars + 1}),
            ),
            "not a range",
        ),
        (
            with(typed.body("tick"), json!({"TextStart": 3, "TextEnd": 3})),
            "not a range",
        ),
        (
            with(typed.body("tick"), json!({"TextStart": "0", "TextEnd": 2})),
            "TextStart",
        ),
        (
            with(
                scan.body("tick"),
                json!({"Points": "1,1", "BlockNumber": scan.block_number + 40}),
            ),
            "not an answer block of this task",
        ),
        (
            with(
                scan.body("tick"),
                json!({"Points": "1,1", "ResultID": 999_999}),
            ),
            "not a ScoringTask of this customer area",
        ),
        (
            with(scan.body("tick"), json!({"Points": "1,1", "Unknown": 1})),
            "Unknown",
        ),
    ];
    for (body, named) in cases {
        let (status, message) = place(&app, SCORER, &body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {message}");
        assert!(
            message.as_str().unwrap().contains(named),
            "{body}: {message}"
        );
    }
    // Not JSON at all, and through a navigation.
    let response = app
        .client
        .post(app.url(&format!("{}Annotations", app.root())))
        .basic_auth(SCORER, Some(scoredesk_server::seed::demo::DEMO_PASSWORD))
        .header("Content-Type", "application/json")
        .body("{\"Kind\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let tick = with(scan.body("tick"), json!({"Points": "1,1"}));
    let path = format!(
        "ScoringTasks(QuestionID={}L,ResultID={})/Answers",
        scan.question, scan.result
    );
    let response = send(&app, Method::POST, SCORER, &path, &tick, &[]).await;
    assert!(response.status().is_client_error(), "{}", response.status());
    // Another area's administrator names a Northwind task at his own root.
    let harbour = format!("/deliveryodata/{}/Annotations", app.harbour());
    let response = send(&app, Method::POST, "harbour-admin", &harbour, &tick, &[]).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert_eq!(annotation_count(&app).await, 0, "nothing written");

    // A PUT without a revision, and with a body of the wrong shape.
    let created = placed_ok(&app, SCORER, tick).await;
    let path = format!("Annotations({})", created["ID"]);
    let mut unrevised = strip(&created);
    unrevised
        .as_object_mut()
        .unwrap()
        .remove("ModifiedDateTime");
    let response = send(&app, Method::PUT, SCORER, &path, &unrevised, &[]).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(odata_error_message(response)
        .await
        .contains("ModifiedDateTime"));
    for key in [
        "Annotations(x)",
        "Annotations(1.5)",
        "Annotations(99999999999)",
    ] {
        let (status, _) = get_as(&app, SCORER, key).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{key}");
    }
    let (status, _) = get_as(&app, SCORER, "Annotations?$filter=Points gt 1").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(annotation_count(&app).await, 1);
}

async fn blind(backend: Backend) {
    let app = with_markers(backend).await;
    let scan = blocks(&app, "image/").await[0];
    let first = placed_ok(
        &app,
        SCORER,
        with(
            scan.body("note"),
            json!({"Points": "5,5", "Text": "first-marker-note-zebra"}),
        ),
    )
    .await;
    let own = placed_ok(
        &app,
        SECOND,
        with(scan.body("tick"), json!({"Points": "6,6"})),
    )
    .await;
    let first_path = format!("Annotations({})", first["ID"]);

    // The second marker: every URL form gives his own only.
    let forms = [
        "Annotations".to_owned(),
        scan.of_task(),
        format!("{}&$format=atom", scan.of_task()),
        "Annotations?$filter=MarkedBy eq 'northwind-scorer'".to_owned(),
        "Annotations?$expand=ScoringTask,Answer".to_owned(),
        "Annotations?$inlinecount=allpages".to_owned(),
        "Annotations/$count".to_owned(),
        format!("Annotations({})/ScoringTask", own["ID"]),
    ];
    for form in &forms {
        let (status, text) = get_as(&app, SECOND, form).await;
        assert_eq!(status, StatusCode::OK, "{form}: {text}");
        assert!(!text.contains("zebra"), "{form}: {text}");
        assert!(
            !text.contains(&format!("({})", first["ID"])),
            "{form}: {text}"
        );
    }
    assert_eq!(get_as(&app, SECOND, "Annotations/$count").await.1, "1");
    for form in [
        first_path.clone(),
        format!("{first_path}/ScoringTask"),
        format!("{first_path}/Text/$value"),
    ] {
        assert_eq!(
            get_as(&app, SECOND, &form).await.0,
            StatusCode::NOT_FOUND,
            "{form}"
        );
    }
    let moved = with(strip(&first), json!({"Points": "7,7"}));
    let response = send(&app, Method::PUT, SECOND, &first_path, &moved, &[]).await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    let response = send(&app, Method::DELETE, SECOND, &first_path, &Value::Null, &[]).await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);

    // The lead reads both, and may not change the markers'.
    let (status, text) = get_as(&app, LEAD, &scan.of_task()).await;
    assert_eq!(status, StatusCode::OK);
    assert!(text.contains("zebra"));
    assert_eq!(
        json_as(&app, LEAD, &scan.of_task()).await["value"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let response = send(&app, Method::PUT, LEAD, &first_path, &moved, &[]).await;
    assert_eq!(response.status(), StatusCode::CONFLICT);
    assert!(odata_error_message(response)
        .await
        .contains("by its marker only"));
    let response = send(&app, Method::DELETE, LEAD, &first_path, &Value::Null, &[]).await;
    assert_eq!(response.status(), StatusCode::CONFLICT);
    assert_eq!(json_as(&app, SCORER, &first_path).await["Points"], "5,5");

    // Coordinators have none; another area sees none of Northwind's.
    assert_eq!(
        get_as(&app, "northwind-coordinator", "Annotations").await.0,
        StatusCode::FORBIDDEN
    );
    let harbour = format!("/deliveryodata/{}/Annotations", app.harbour());
    let (status, text) = get_as(&app, "harbour-admin", &harbour).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!text.contains("zebra"));
    assert_eq!(
        get_as(&app, "harbour-admin", "Annotations").await.0,
        StatusCode::FORBIDDEN
    );
}

async fn purged_with_results(backend: Backend) {
    let app = with_markers(backend).await;
    let scans = blocks(&app, "image/").await;
    let doomed = scans[0];
    let kept = *scans
        .iter()
        .find(|block| block.result != doomed.result)
        .expect("scans of two results");
    for block in [doomed, kept] {
        placed_ok(
            &app,
            SCORER,
            with(block.body("tick"), json!({"Points": "1,1"})),
        )
        .await;
        placed_ok(
            &app,
            SECOND,
            with(block.body("cross"), json!({"Points": "2,2"})),
        )
        .await;
    }
    purged(&app, &format!("Results({})/Purge", doomed.result), "{}").await;
    let left = |result: i64| format!("SELECT COUNT(*) FROM annotations WHERE result_id = {result}");
    assert_eq!(app.sql_i64(&left(doomed.result)).await, 0);
    assert_eq!(app.sql_i64(&left(kept.result)).await, 2);
}
