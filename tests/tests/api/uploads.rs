//! Answer uploads (spec, "External delivery"; contract, "Answer upload file"): the
//! spec's five steps over HTTP, ending in a scored Result whose essays the scorer's
//! queue picks up and scores to a final total; and every malformed upload refused
//! with a 4xx naming its field, leaving every table as it was.

use std::io::Cursor;

use base64::Engine;
use reqwest::StatusCode;
use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use serde_json::{json, Value};

use crate::batch::{batch_body, send, Op};

on_both_backends! {
    the_five_steps_of_external_delivery_end_in_a_result_the_scorers_finish => five_steps;
    a_malformed_upload_is_refused_naming_its_field_and_nothing_is_stored => malformed;
    two_uploads_of_one_attempt_at_once_make_one_result => at_once;
    uploads_of_many_attempts_at_once_each_make_their_own_result => many_at_once;
    an_upload_in_a_change_set_is_written_with_the_change_set_or_not_at_all => in_change_set;
}

const COORDINATOR: &str = "northwind-coordinator";

pub(crate) async fn post(app: &TestApp, set: &str, body: &Value) -> reqwest::Response {
    app.client
        .post(app.url(&format!("{}{set}", app.root())))
        .basic_auth(COORDINATOR, Some(DEMO_PASSWORD))
        .json(body)
        .send()
        .await
        .unwrap()
}

/// POSTs `body` to `set`, expecting 201; the created entity.
pub(crate) async fn created(app: &TestApp, set: &str, body: Value) -> Value {
    let response = post(app, set, &body).await;
    let status = response.status();
    let text = response.text().await.unwrap();
    assert_eq!(status, StatusCode::CREATED, "{set}: {text}");
    serde_json::from_str(&text).unwrap()
}

/// Posts a sheet's reading as `attempt`'s upload file (201 expected); the
/// attempt's Result as a scorer reads it.
pub(crate) async fn upload_reading(
    app: &TestApp,
    batch: i64,
    attempt: i64,
    reading: &scoredesk_sheets::AttemptReading,
) -> Value {
    let file =
        scoredesk_server::documents::sheet_upload::upload_file(batch as i32, reading).unwrap();
    created(app, "AnswerUploads", file).await;
    let result = app
        .sql_i64(&format!(
            "SELECT CAST(result_id AS BIGINT) FROM attempts WHERE id = {attempt}"
        ))
        .await;
    let (_, read) = app
        .get_json_with(
            crate::scoring_support::SCORER,
            &format!("{}Results({result})", app.root()),
            &[],
        )
        .await;
    read
}

/// The delivery set up for one participant: the snapshot, its batch, the attempt.
pub(crate) struct Delivery {
    pub assessment: i64,
    pub snapshot: i64,
    pub batch: i64,
    pub attempt: i64,
    pub group_name: String,
}

/// The demo assessment with one question of each kind and two essays with rubrics.
pub(crate) async fn deliver(app: &TestApp, external: &str) -> Delivery {
    let assessment = app
        .sql_i64(&format!(
            "SELECT MIN(aq.assessment_id) FROM assessment_questions aq JOIN questions q ON q.id = aq.question_id \
             WHERE aq.customer_id = {} AND q.question_type = 'multiple_response'",
            app.northwind()
        ))
        .await;
    let snapshot = created(
        app,
        "AssessmentSnapshots",
        json!({"ID": 0, "AssessmentID": assessment.to_string(), "Name": "Paper"}),
    )
    .await["ID"]
        .as_i64()
        .unwrap();
    let (group, participant) = app
        .sql_strings(&format!(
            "SELECT CAST(g.group_id AS TEXT) || ',' || CAST(g.participant_id AS TEXT) FROM group_participants g \
             WHERE g.customer_id = {} ORDER BY g.group_id, g.participant_id LIMIT 1",
            app.northwind()
        ))
        .await[0]
        .split_once(',')
        .map(|(g, p)| (g.parse::<i64>().unwrap(), p.parse::<i64>().unwrap()))
        .unwrap();
    let batch = created(
        app,
        "PrintBatches",
        json!({"ID": 0, "GroupID": group, "SnapshotID": snapshot, "Name": "Morning"}),
    )
    .await["ID"]
        .as_i64()
        .unwrap();
    let attempt = created(
        app,
        "Attempts",
        json!({"ID": 0, "ParticipantID": participant, "AssessmentID": assessment.to_string(),
               "AssessmentSnapshotID": snapshot, "ExternalAttemptID": external, "LockStatus": false, "LockRequired": false}),
    )
    .await["ID"]
        .as_i64()
        .unwrap();
    let group_name = app
        .sql_strings(&format!("SELECT name FROM groups WHERE id = {group}"))
        .await
        .remove(0);
    Delivery {
        assessment,
        snapshot,
        batch,
        attempt,
        group_name,
    }
}

/// Per snapshot question (in order): its type, and its choices' correctness in the
/// snapshot's order.
pub(crate) async fn snapshot_key(app: &TestApp, snapshot: i64) -> Vec<(String, Vec<bool>)> {
    let questions = app
        .sql_strings(&format!(
            "SELECT q.question_type FROM snapshot_questions s JOIN questions q ON q.id = s.question_id \
             WHERE s.snapshot_id = {snapshot} ORDER BY s.position"
        ))
        .await;
    let mut key = Vec::new();
    for (index, kind) in questions.into_iter().enumerate() {
        let correct: Vec<i64> = app
            .sql_column(&format!(
                "SELECT CAST(CASE WHEN c.is_correct THEN 1 ELSE 0 END AS BIGINT) FROM snapshot_choices s \
                 JOIN snapshot_questions q ON q.snapshot_id = s.snapshot_id AND q.position = s.position \
                 JOIN choices c ON c.question_id = q.question_id AND c.choice_order = s.choice_order \
                 WHERE s.snapshot_id = {snapshot} AND s.position = {} ORDER BY s.choice_position",
                index + 1
            ))
            .await;
        key.push((kind, correct.into_iter().map(|c| c == 1).collect()));
    }
    key
}

fn png(width: u32, height: u32) -> Vec<u8> {
    let mut bytes = Vec::new();
    image::GrayImage::from_pixel(width, height, image::Luma([200]))
        .write_to(&mut Cursor::new(&mut bytes), image::ImageFormat::Png)
        .unwrap();
    bytes
}

/// A photo-like JPEG: enough detail that its scan data is not trivial.
fn jpeg(width: u32, height: u32) -> Vec<u8> {
    let mut bytes = Vec::new();
    image::RgbImage::from_fn(width, height, |x, y| {
        image::Rgb([
            (x * 7 % 251) as u8,
            (y * 5 % 251) as u8,
            ((x ^ y) % 251) as u8,
        ])
    })
    .write_to(&mut Cursor::new(&mut bytes), image::ImageFormat::Jpeg)
    .unwrap();
    bytes
}

/// Where a JPEG's scan data begins (after its start-of-scan header).
fn scan_start(jpeg: &[u8]) -> usize {
    let sos = jpeg.windows(2).position(|w| w == [0xFF, 0xDA]).unwrap();
    sos + 2 + usize::from(u16::from_be_bytes([jpeg[sos + 2], jpeg[sos + 3]]))
}

/// A JPEG's headers, its frame claiming `width` × `height`, then its end marker.
fn jpeg_headers_claiming(width: u16, height: u16) -> Vec<u8> {
    let whole = jpeg(16, 16);
    let mut headers = whole[..scan_start(&whole)].to_vec();
    let sof = headers.windows(2).position(|w| w == [0xFF, 0xC0]).unwrap();
    headers[sof + 5..sof + 7].copy_from_slice(&height.to_be_bytes());
    headers[sof + 7..sof + 9].copy_from_slice(&width.to_be_bytes());
    headers.extend_from_slice(&[0xFF, 0xD9]);
    headers
}

/// A whole JPEG whose scan data is replaced by noise (no marker bytes in it).
fn jpeg_with_noise(width: u32, height: u32) -> Vec<u8> {
    let mut bytes = jpeg(width, height);
    let start = scan_start(&bytes);
    let end = bytes.len() - 2;
    let mut state = 0x2545_F491_u32;
    for byte in &mut bytes[start..end] {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        *byte = (state % 255) as u8;
    }
    bytes
}

/// A whole colour JPEG followed by a second, grey frame header: its scans were
/// once read against the first frame and counted against the second (a panic the
/// `image` fuzz target found).
fn jpeg_with_second_frame() -> Vec<u8> {
    let whole = jpeg(32, 32);
    let mut twice = whole[..whole.len() - 2].to_vec();
    twice.extend_from_slice(&[0xFF, 0xC0, 0, 11, 8, 0, 32, 0, 32, 1, 1, 0x11, 0]);
    twice.extend_from_slice(&[0xFF, 0xD9]);
    twice
}

fn base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// A correct upload: every choice question answered right, the first essay typed,
/// the second a scanned image.
pub(crate) fn full_marks(attempt: i64, batch: Option<i64>, key: &[(String, Vec<bool>)]) -> Value {
    let mut essays = 0;
    let questions: Vec<Value> = key
        .iter()
        .enumerate()
        .map(|(index, (kind, choices))| {
            let number = index + 1;
            if kind == "essay" {
                essays += 1;
                if essays == 1 {
                    json!({"QuestionOrderNumber": number, "TextResponse": "Inertia: the body keeps moving."})
                } else {
                    json!({"QuestionOrderNumber": number, "ImageResponse": {"MediaType": "image/png", "Data": base64(&png(60, 40))}})
                }
            } else {
                let chosen: Vec<Value> = choices
                    .iter()
                    .enumerate()
                    .map(|(i, correct)| json!({"ChoiceOrderNumber": (i + 1).to_string(), "Selected": correct}))
                    .collect();
                json!({"QuestionOrderNumber": number, "UploadedChoices": chosen})
            }
        })
        .collect();
    let mut file = json!({"AttemptID": attempt, "QuestionAndChoices": questions});
    if let Some(batch) = batch {
        file["BatchID"] = json!(batch.to_string());
    }
    file
}

async fn five_steps(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    // 1. to 3.: snapshot, batch, attempt.
    let delivery = deliver(&app, "paper-001").await;
    let key = snapshot_key(&app, delivery.snapshot).await;
    let file = full_marks(delivery.attempt, Some(delivery.batch), &key);
    let open_before = app
        .sql_i64("SELECT COUNT(*) FROM scoring_tasks WHERE status = 0")
        .await;
    // 4. the upload.
    let response = post(&app, "AnswerUploads", &file).await;
    assert_eq!(
        response.status(),
        StatusCode::CREATED,
        "{}",
        response.text().await.unwrap()
    );
    // 5. the attempt's result, read back.
    let attempt = app
        .get_json(&format!("{}Attempts({})", app.root(), delivery.attempt))
        .await;
    let result_id = attempt["ResultID"]
        .as_i64()
        .expect("the attempt has its result");
    let result = app
        .get_json(&format!(
            "{}Results({result_id})?$expand=Answers",
            app.root()
        ))
        .await;
    assert_eq!(result["AssessmentID"], delivery.assessment.to_string());
    assert_eq!(result["GroupName"], delivery.group_name);
    let answers = result["Answers"].as_array().unwrap();
    assert_eq!(answers.len(), key.len());
    let choice_marks: i64 = app
        .sql_i64(&format!(
            "SELECT CAST(SUM(q.max_score) AS BIGINT) FROM snapshot_questions s JOIN questions q ON q.id = s.question_id \
             WHERE s.snapshot_id = {} AND q.question_type <> 'essay'",
            delivery.snapshot
        ))
        .await;
    assert_eq!(
        result["TotalScore"].as_i64().unwrap(),
        choice_marks,
        "every choice right, essays not yet scored"
    );
    for (answer, (kind, _)) in answers.iter().zip(&key) {
        assert_eq!(answer["ActualScore"].is_null(), kind == "essay", "{answer}");
    }
    let topics = app
        .get_json(&format!("{}Results({result_id})/TopicScores", app.root()))
        .await;
    assert!(!topics["value"].as_array().unwrap().is_empty());
    // The uploaded file comes back byte for byte; the batch knows its last upload.
    let stored = app
        .client
        .get(app.url(&format!(
            "{}AnswerUploads({})/$value",
            app.root(),
            delivery.attempt
        )))
        .basic_auth(COORDINATOR, Some(DEMO_PASSWORD))
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    assert_eq!(serde_json::from_slice::<Value>(&stored).unwrap(), file);
    let batch = app
        .get_json(&format!("{}PrintBatches({})", app.root(), delivery.batch))
        .await;
    assert!(batch["LastUploadedDateTime"].is_string());
    // The essays are in the scorer's queue at once...
    let essays = key.iter().filter(|(kind, _)| kind == "essay").count() as i64;
    assert_eq!(
        app.sql_i64("SELECT COUNT(*) FROM scoring_tasks WHERE status = 0")
            .await,
        open_before + essays
    );
    let (status, queue) = app
        .get_json_with(
            "northwind-scorer",
            &format!(
                "{}Results({result_id})/ScoringTasks?$filter=Status eq 0",
                app.root()
            ),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let queue = queue["value"].as_array().unwrap().clone();
    assert_eq!(queue.len() as i64, essays);
    // ...the typed one shows as text, the scanned one as the image uploaded...
    for task in &queue {
        let path = format!(
            "{}ScoringTasks(QuestionID={}L,ResultID={result_id})/Answer/$value",
            app.root(),
            task["QuestionID"].as_str().unwrap()
        );
        let media = app
            .client
            .get(app.url(&path))
            .basic_auth("northwind-scorer", Some(DEMO_PASSWORD))
            .send()
            .await
            .unwrap();
        assert_eq!(media.status(), StatusCode::OK);
        let kind = media.headers()["content-type"].to_str().unwrap().to_owned();
        assert!(
            kind.starts_with("text/plain") || kind == "image/png",
            "{kind}"
        );
    }
    // ...and scored through the scorer's rules to a final total.
    let mut essay_marks = 0;
    for task in &queue {
        let question = task["QuestionID"].as_str().unwrap();
        let task_path = format!(
            "{}ScoringTasks(QuestionID={question}L,ResultID={result_id})",
            app.root()
        );
        let scoring = app.get_json(&format!("{task_path}/ScoringResult")).await["value"][0].clone();
        let rubric = scoring["RubricID"].as_i64().unwrap();
        let result_path = format!(
            "{}ScoringResults(QuestionID={question}L,RubricID={rubric},ResultID={result_id})",
            app.root()
        );
        let dimensions = app
            .get_json(&format!("{result_path}/DimensionScores?$expand=Dimension"))
            .await;
        let mut total = 0;
        for dimension in dimensions["value"].as_array().unwrap() {
            let max = dimension["Dimension"]["MaxScore"].as_i64().unwrap();
            let order = dimension["Order"].as_i64().unwrap();
            let response = app
                .put_json(
                    "northwind-scorer",
                    &format!("{}DimensionScores(QuestionID={question}L,RubricID={rubric},ResultID={result_id},Order={order})", app.root()),
                    &json!({"Score": max - 1, "Comment": "uploaded"}),
                    &[],
                )
                .await;
            assert_eq!(response.status(), StatusCode::NO_CONTENT);
            total += max - 1;
        }
        let response = app
            .put_json(
                "northwind-scorer",
                &result_path,
                &json!({"Score": total, "Comments": "", "ModifiedDateTime": scoring["ModifiedDateTime"]}),
                &[],
            )
            .await;
        assert_eq!(response.status(), StatusCode::NO_CONTENT);
        let response = app
            .put_json("northwind-scorer", &task_path, &json!({"Status": 3}), &[])
            .await;
        assert_eq!(response.status(), StatusCode::NO_CONTENT);
        essay_marks += total;
    }
    let result = app
        .get_json(&format!("{}Results({result_id})", app.root()))
        .await;
    assert_eq!(
        result["TotalScore"].as_i64().unwrap(),
        choice_marks + essay_marks
    );
    // The attempt is used: a second upload is 409.
    let again = post(&app, "AnswerUploads", &file).await;
    assert_eq!(again.status(), StatusCode::CONFLICT);
    assert!(odata_error_message(again).await.contains("AttemptID"));
}

/// A PNG whose header claims `width` × `height` (its pixels a single one): what a
/// decompression bomb looks like before decoding.
fn claimed_png(width: u32, height: u32) -> Vec<u8> {
    let mut bytes = png(1, 1);
    // IHDR: 8 bytes of signature, 4 of length, 4 of type, then width and height.
    bytes[16..20].copy_from_slice(&width.to_be_bytes());
    bytes[20..24].copy_from_slice(&height.to_be_bytes());
    let crc = crc32(&bytes[12..29]);
    bytes[29..33].copy_from_slice(&crc.to_be_bytes());
    bytes
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for byte in data {
        crc ^= u32::from(*byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

const TABLES: [&str; 8] = [
    "results",
    "answers",
    "scoring_tasks",
    "topic_scores",
    "answer_uploads",
    "scoring_task_counts",
    "attempts",
    "print_batches",
];

async fn table_state(app: &TestApp) -> Vec<String> {
    let mut state = Vec::new();
    for table in TABLES {
        state.push(format!(
            "{table}: {}",
            app.sql_i64(&format!("SELECT COUNT(*) FROM {table}")).await
        ));
    }
    state.push(format!(
        "attempts with results: {}",
        app.sql_i64("SELECT COUNT(*) FROM attempts WHERE result_id IS NOT NULL")
            .await
    ));
    state.push(format!(
        "uploaded batches: {}",
        app.sql_i64("SELECT COUNT(*) FROM print_batches WHERE last_uploaded_at IS NOT NULL")
            .await
    ));
    state.push(format!(
        "counted tasks: {}",
        app.sql_i64("SELECT CAST(SUM(tasks) AS BIGINT) FROM scoring_task_counts")
            .await
    ));
    state
}

async fn malformed(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let delivery = deliver(&app, "paper-bad").await;
    let key = snapshot_key(&app, delivery.snapshot).await;
    let good = full_marks(delivery.attempt, Some(delivery.batch), &key);
    let single = key
        .iter()
        .position(|(kind, _)| kind == "multiple_choice")
        .unwrap();
    let essay = key.iter().position(|(kind, _)| kind == "essay").unwrap();
    // Attempts that cannot take an upload: without a snapshot, of another batch's
    // snapshot, already used; and another area's.
    let participant = app
        .sql_i64(&format!(
            "SELECT CAST(MIN(id) AS BIGINT) FROM participants WHERE customer_id = {}",
            app.northwind()
        ))
        .await;
    let no_snapshot = created(
        &app,
        "Attempts",
        json!({"ParticipantID": participant, "AssessmentID": delivery.assessment.to_string()}),
    )
    .await["ID"]
        .as_i64()
        .unwrap();
    let other = deliver(&app, "paper-other").await;
    let used = deliver(&app, "paper-used").await;
    let used_file = full_marks(used.attempt, None, &snapshot_key(&app, used.snapshot).await);
    assert_eq!(
        post(&app, "AnswerUploads", &used_file).await.status(),
        StatusCode::CREATED
    );
    let harbour_attempt = app
        .sql_i64(&format!(
            "SELECT COALESCE(CAST(MAX(id) AS BIGINT), 0) FROM attempts WHERE customer_id = {}",
            app.harbour()
        ))
        .await;
    let before = table_state(&app).await;

    let with = |change: &dyn Fn(&mut Value)| {
        let mut file = good.clone();
        change(&mut file);
        file
    };
    let cases: Vec<(Value, &str)> = vec![
        (json!({}), "AttemptID"),
        (json!([]), "upload file"),
        (json!("a string"), "upload file"),
        (with(&|f| f["AttemptID"] = json!("seventeen")), "AttemptID"),
        (with(&|f| f["AttemptID"] = json!(99_999_999)), "AttemptID"),
        (with(&|f| f["AttemptID"] = json!(1e40)), "AttemptID"),
        (with(&|f| f["AttemptID"] = json!(no_snapshot)), "AttemptID"),
        (
            with(&|f| f["AttemptID"] = json!(harbour_attempt.max(1) + 1_000_000)),
            "AttemptID",
        ),
        (with(&|f| f["BatchID"] = json!("x")), "BatchID"),
        (with(&|f| f["BatchID"] = json!("99999")), "BatchID"),
        (
            with(&|f| f["BatchID"] = json!(other.batch.to_string())),
            "BatchID",
        ),
        (with(&|f| f["Colour"] = json!("red")), "Colour"),
        (
            with(&|f| f["QuestionAndChoices"] = json!("none")),
            "QuestionAndChoices",
        ),
        (
            with(&|f| f["QuestionAndChoices"][0]["QuestionOrderNumber"] = json!(0)),
            "QuestionOrderNumber",
        ),
        (
            with(&|f| f["QuestionAndChoices"][0]["QuestionOrderNumber"] = json!(key.len() + 1)),
            "QuestionOrderNumber",
        ),
        (
            with(&|f| f["QuestionAndChoices"][1]["QuestionOrderNumber"] = json!(1)),
            "QuestionOrderNumber",
        ),
        (
            with(&|f| f["QuestionAndChoices"][0]["Extra"] = json!(1)),
            "Extra",
        ),
        (
            with(&|f| {
                f["QuestionAndChoices"][single]["UploadedChoices"][0]["ChoiceOrderNumber"] =
                    json!("99")
            }),
            "ChoiceOrderNumber",
        ),
        (
            with(&|f| {
                f["QuestionAndChoices"][single]["UploadedChoices"][0]["ChoiceOrderNumber"] =
                    json!("first")
            }),
            "ChoiceOrderNumber",
        ),
        (
            with(&|f| {
                f["QuestionAndChoices"][single]["UploadedChoices"][0]["Selected"] = json!("yes")
            }),
            "Selected",
        ),
        (
            with(&|f| {
                for choice in f["QuestionAndChoices"][single]["UploadedChoices"]
                    .as_array_mut()
                    .unwrap()
                {
                    choice["Selected"] = json!(true);
                }
            }),
            "UploadedChoices",
        ),
        (
            with(&|f| f["QuestionAndChoices"][single]["TextResponse"] = json!("text on a choice")),
            "TextResponse",
        ),
        (
            with(&|f| {
                f["QuestionAndChoices"][essay]["UploadedChoices"] =
                    json!([{"ChoiceOrderNumber": "1", "Selected": true}])
            }),
            "UploadedChoices",
        ),
        (
            with(&|f| {
                f["QuestionAndChoices"][essay]["ImageResponse"] =
                    json!({"MediaType": "image/png", "Data": base64(&png(4, 4))})
            }),
            "ImageResponse",
        ),
        (
            with(&|f| f["QuestionAndChoices"][essay]["TextResponse"] = json!(12)),
            "TextResponse",
        ),
        (
            with(
                &|f| f["QuestionAndChoices"][essay] = json!({"QuestionOrderNumber": essay + 1, "ImageResponse": {"MediaType": "image/png", "Data": "not base64!"}}),
            ),
            "ImageResponse.Data",
        ),
        (
            with(
                &|f| f["QuestionAndChoices"][essay] = json!({"QuestionOrderNumber": essay + 1, "ImageResponse": {"MediaType": "image/png", "Data": base64(b"not an image")}}),
            ),
            "ImageResponse.Data",
        ),
        (
            with(
                &|f| f["QuestionAndChoices"][essay] = json!({"QuestionOrderNumber": essay + 1, "ImageResponse": {"MediaType": "image/png", "Data": base64(&png(60, 40)[..80])}}),
            ),
            "ImageResponse.Data",
        ),
        (
            with(
                &|f| f["QuestionAndChoices"][essay] = json!({"QuestionOrderNumber": essay + 1, "ImageResponse": {"MediaType": "image/jpeg", "Data": base64(&png(60, 40))}}),
            ),
            "ImageResponse.Data",
        ),
        (
            with(
                &|f| f["QuestionAndChoices"][essay] = json!({"QuestionOrderNumber": essay + 1, "ImageResponse": {"MediaType": "image/gif", "Data": base64(&png(60, 40))}}),
            ),
            "ImageResponse.MediaType",
        ),
        (
            with(
                &|f| f["QuestionAndChoices"][essay] = json!({"QuestionOrderNumber": essay + 1, "ImageResponse": {"MediaType": "image/png", "Data": base64(&claimed_png(20_000, 20_000))}}),
            ),
            "ImageResponse.Data",
        ),
        // Broken JPEGs, which a lenient decoder fills with grey (issue 31): cut
        // short, headers alone claiming 6000 × 6666, noise for scan data.
        (
            with(
                &|f| f["QuestionAndChoices"][essay] = json!({"QuestionOrderNumber": essay + 1, "ImageResponse": {"MediaType": "image/jpeg", "Data": base64(&jpeg(200, 150)[..jpeg(200, 150).len() - 300])}}),
            ),
            "ImageResponse.Data",
        ),
        (
            with(
                &|f| f["QuestionAndChoices"][essay] = json!({"QuestionOrderNumber": essay + 1, "ImageResponse": {"MediaType": "image/jpeg", "Data": base64(&jpeg_headers_claiming(6000, 6666))}}),
            ),
            "ImageResponse.Data",
        ),
        (
            with(
                &|f| f["QuestionAndChoices"][essay] = json!({"QuestionOrderNumber": essay + 1, "ImageResponse": {"MediaType": "image/jpeg", "Data": base64(&jpeg_with_noise(200, 150))}}),
            ),
            "ImageResponse.Data",
        ),
        (
            with(
                &|f| f["QuestionAndChoices"][essay] = json!({"QuestionOrderNumber": essay + 1, "ImageResponse": {"MediaType": "image/jpeg", "Data": base64(&jpeg_with_second_frame())}}),
            ),
            "ImageResponse.Data",
        ),
        (
            with(
                &|f| f["QuestionAndChoices"][essay] = json!({"QuestionOrderNumber": essay + 1, "ImageResponse": {"Data": base64(&png(4, 4))}}),
            ),
            "MediaType",
        ),
        (
            with(&|f| f["QuestionAndChoices"][essay]["TextResponse"] = json!("x".repeat(100_001))),
            "TextResponse",
        ),
        (
            with(&|f| {
                f["QuestionAndChoices"][0]
                    .as_object_mut()
                    .unwrap()
                    .remove("QuestionOrderNumber")
                    .map(drop)
                    .unwrap_or(())
            }),
            "QuestionOrderNumber",
        ),
    ];
    let count = cases.len();
    for (file, field) in cases {
        let response = post(&app, "AnswerUploads", &file).await;
        let status = response.status();
        let message = odata_error_message(response).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{field}: {message}");
        assert!(message.contains(field), "expected {field} in: {message}");
    }
    // A file with several problems is refused with all of them, in the file's
    // order, so that it is mended once (docs/upload-format.md, "Refusals").
    let several = with(&|f| {
        f["QuestionAndChoices"][single]["UploadedChoices"][0]["ChoiceOrderNumber"] = json!(99);
        f["QuestionAndChoices"][essay] = json!({"QuestionOrderNumber": essay + 1, "ImageResponse": {"MediaType": "image/png", "Data": base64(b"not an image")}});
        f["QuestionAndChoices"]
            .as_array_mut()
            .unwrap()
            .push(json!({"QuestionOrderNumber": key.len() + 5}));
    });
    let response = post(&app, "AnswerUploads", &several).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let message = odata_error_message(response).await;
    let fields = [
        format!(
            "QuestionAndChoices[{single}].UploadedChoices[0].ChoiceOrderNumber: 99 is not a choice"
        ),
        format!("QuestionAndChoices[{essay}].ImageResponse.Data"),
        format!("QuestionAndChoices[{}].QuestionOrderNumber", key.len()),
    ];
    assert!(message.starts_with("3 problems: "), "{message}");
    let at = |field: &str| {
        message
            .find(field)
            .unwrap_or_else(|| panic!("{field} in: {message}"))
    };
    let mut entries = [single, essay, key.len()];
    entries.sort_unstable();
    let order: Vec<usize> = entries
        .iter()
        .map(|entry| at(&format!("QuestionAndChoices[{entry}].")))
        .collect();
    assert!(
        order.windows(2).all(|w| w[0] < w[1]),
        "in the file's order: {message}"
    );
    for field in &fields {
        at(field);
    }
    let image_only = with(&|f| {
        f["QuestionAndChoices"][essay] = json!({"QuestionOrderNumber": essay + 1, "ImageResponse": {"MediaType": "image/png", "Data": base64(b"not an image")}});
    });
    let response = post(&app, "AnswerUploads", &image_only).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let message = odata_error_message(response).await;
    assert!(
        message.starts_with(&fields[1]),
        "one problem reads as before: {message}"
    );
    // The attempt already used, and bodies that are not the file at all.
    let response = post(&app, "AnswerUploads", &used_file).await;
    assert_eq!(response.status(), StatusCode::CONFLICT);
    assert!(odata_error_message(response).await.contains("AttemptID"));
    let raw = |body: &'static str, content_type: &'static str| {
        app.client
            .post(app.url(&format!("{}AnswerUploads", app.root())))
            .basic_auth(COORDINATOR, Some(DEMO_PASSWORD))
            .header("Content-Type", content_type)
            .body(body)
            .send()
    };
    for (body, content_type, status) in [
        (
            "{\"AttemptID\": 1, ",
            "application/json",
            StatusCode::BAD_REQUEST,
        ),
        ("", "application/json", StatusCode::BAD_REQUEST),
        (
            "AttemptID=1",
            "application/x-www-form-urlencoded",
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
        (
            "{\"AttemptID\": 1}",
            "text/plain",
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
        (
            "\u{feff}{\"AttemptID\": }",
            "application/json",
            StatusCode::BAD_REQUEST,
        ),
    ] {
        let response = raw(body, content_type).await.unwrap();
        assert_eq!(response.status(), status, "{body}");
        odata_error_message(response).await;
    }
    let scorer = app
        .client
        .post(app.url(&format!("{}AnswerUploads", app.root())))
        .basic_auth("northwind-scorer", Some(DEMO_PASSWORD))
        .json(&good)
        .send()
        .await
        .unwrap();
    assert_eq!(scorer.status(), StatusCode::FORBIDDEN);
    assert_eq!(
        table_state(&app).await,
        before,
        "nothing of {count} refused uploads was stored"
    );
    // The good file still goes through afterwards.
    assert_eq!(
        post(&app, "AnswerUploads", &good).await.status(),
        StatusCode::CREATED
    );
}

async fn at_once(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let delivery = deliver(&app, "paper-twice").await;
    let file = full_marks(
        delivery.attempt,
        Some(delivery.batch),
        &snapshot_key(&app, delivery.snapshot).await,
    );
    let answers =
        futures::future::join_all((0..5).map(|_| post(&app, "AnswerUploads", &file))).await;
    let statuses: Vec<StatusCode> = answers.iter().map(|r| r.status()).collect();
    scoredesk_e2e::assert_one_created_the_rest_conflict(&statuses);
    assert_eq!(
        app.sql_i64(&format!(
            "SELECT COUNT(*) FROM results WHERE attempt_id = {}",
            delivery.attempt
        ))
        .await,
        1
    );
}

/// Another attempt at the delivery's snapshot, for the same participant.
pub(crate) async fn another_attempt(app: &TestApp, delivery: &Delivery, external: &str) -> i64 {
    let participant = app
        .sql_i64(&format!(
            "SELECT CAST(participant_id AS BIGINT) FROM attempts WHERE id = {}",
            delivery.attempt
        ))
        .await;
    created(
        app,
        "Attempts",
        json!({"ID": 0, "ParticipantID": participant, "AssessmentID": delivery.assessment.to_string(),
               "AssessmentSnapshotID": delivery.snapshot, "ExternalAttemptID": external,
               "LockStatus": false, "LockRequired": false}),
    )
    .await["ID"]
        .as_i64()
        .unwrap()
}

/// Twelve attempts uploaded at the same moment, four of them twice: the server
/// writes waiting uploads in one transaction (store::upload_writer), and each must
/// still come out as if alone: its own result, with its own answers and scores.
/// Even attempts get full marks, odd ones an empty file (0, no scorer's tasks), so
/// that results given to the wrong attempts would show.
async fn many_at_once(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let delivery = deliver(&app, "paper-many-0").await;
    let key = snapshot_key(&app, delivery.snapshot).await;
    let mut attempts = vec![delivery.attempt];
    for n in 1..12 {
        attempts.push(another_attempt(&app, &delivery, &format!("paper-many-{n}")).await);
    }
    let file_of = |index: usize| {
        if index.is_multiple_of(2) {
            full_marks(attempts[index], Some(delivery.batch), &key)
        } else {
            json!({"AttemptID": attempts[index], "BatchID": delivery.batch.to_string(), "QuestionAndChoices": []})
        }
    };
    let sent: Vec<usize> = (0..12).chain(0..4).collect();
    let files: Vec<Value> = sent.iter().map(|&index| file_of(index)).collect();
    let answers =
        futures::future::join_all(files.iter().map(|file| post(&app, "AnswerUploads", file))).await;
    let statuses: Vec<StatusCode> = answers.iter().map(|r| r.status()).collect();
    for index in 0..12 {
        let theirs: Vec<StatusCode> = sent
            .iter()
            .zip(&statuses)
            .filter(|(sent, _)| **sent == index)
            .map(|(_, status)| *status)
            .collect();
        scoredesk_e2e::assert_one_created_the_rest_conflict(&theirs);
    }
    let questions = key.len() as i64;
    let essays = key.iter().filter(|(kind, _)| kind == "essay").count() as i64;
    for (index, attempt) in attempts.iter().enumerate() {
        let result = app
            .sql_i64(&format!(
                "SELECT CAST(result_id AS BIGINT) FROM attempts WHERE id = {attempt}"
            ))
            .await;
        let facts = app
            .sql_strings(&format!(
                "SELECT CAST(r.attempt_id AS TEXT) || ',' || CAST(r.total_score AS TEXT) || ',' || \
                 CAST((SELECT COUNT(*) FROM answers a WHERE a.result_id = r.id) AS TEXT) || ',' || \
                 CAST((SELECT COUNT(*) FROM scoring_tasks t WHERE t.result_id = r.id) AS TEXT) || ',' || \
                 CAST((SELECT COUNT(*) FROM answer_uploads u WHERE u.attempt_id = r.attempt_id) AS TEXT) \
                 FROM results r WHERE r.id = {result}"
            ))
            .await;
        let facts: Vec<i64> = facts[0].split(',').map(|n| n.parse().unwrap()).collect();
        let full = index.is_multiple_of(2);
        assert_eq!(facts[0], *attempt, "result {result} is attempt {attempt}'s");
        assert_eq!(facts[1] > 0, full, "attempt {attempt}'s total: {facts:?}");
        assert_eq!(facts[2], questions, "attempt {attempt}'s answers");
        assert_eq!(
            facts[3],
            if full { essays } else { 0 },
            "attempt {attempt}'s tasks"
        );
        assert_eq!(facts[4], 1, "attempt {attempt}'s stored file");
    }
    assert_eq!(
        app.sql_i64(&format!(
            "SELECT COUNT(*) FROM results WHERE attempt_id IN ({})",
            attempts
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(",")
        ))
        .await,
        12
    );
}

/// In a `$batch` change set the upload is part of the change set's transaction:
/// a later failing operation takes it back; alone in one, it is written.
async fn in_change_set(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let delivery = deliver(&app, "paper-change-set").await;
    let file = full_marks(
        delivery.attempt,
        Some(delivery.batch),
        &snapshot_key(&app, delivery.snapshot).await,
    );
    let upload = || Op {
        method: "POST",
        url: "AnswerUploads".into(),
        headers: Vec::new(),
        body: file.clone(),
    };
    // The ExternalAttemptID is taken: this POST fails with 409, after the upload.
    let participant = app
        .sql_i64(&format!(
            "SELECT CAST(participant_id AS BIGINT) FROM attempts WHERE id = {}",
            delivery.attempt
        ))
        .await;
    let duplicate_attempt = Op {
        method: "POST",
        url: "Attempts".into(),
        headers: Vec::new(),
        body: json!({"ID": 0, "ParticipantID": participant, "AssessmentID": delivery.assessment.to_string(),
                     "AssessmentSnapshotID": delivery.snapshot, "ExternalAttemptID": "paper-change-set",
                     "LockStatus": false, "LockRequired": false}),
    };
    let before = table_state(&app).await;
    let (status, inner, text) = send(
        &app,
        COORDINATOR,
        batch_body(&[vec![upload(), duplicate_attempt]], &[]),
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED);
    assert_eq!(inner, vec![409], "{text}");
    assert_eq!(table_state(&app).await, before, "the upload was taken back");
    let (status, inner, text) = send(&app, COORDINATOR, batch_body(&[vec![upload()]], &[])).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    assert_eq!(inner, vec![201], "{text}");
    assert_eq!(
        app.sql_i64(&format!(
            "SELECT COUNT(*) FROM results WHERE attempt_id = {}",
            delivery.attempt
        ))
        .await,
        1
    );
}
