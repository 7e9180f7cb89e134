//! The figures issues 5 and 12 set targets for, measured in the real window: app
//! start to the queue on screen (first start, which seeds the demo, and a later
//! start), and "next task" to the answer on screen, for a 12-megapixel scan and for
//! a typed answer, each including the first open of a session. The UI measures them
//! itself (ui/src/lib/timing.ts); this test drives the app, checks that "next" used
//! the scan decoded ahead, and writes the figures to `artifacts/desktop/timings.json`.
//! It asserts no time: the figures are read by `scripts/bench --desktop`, which runs
//! it against the release build (docs/benchmarks.md).

use std::path::Path;
use std::time::Duration;

use fantoccini::Client;
use serde_json::{json, Value};
use sqlx::Connection;

use crate::support::{artifacts_dir, ctrl, press, queue, wait_for, Api, DesktopSession};

/// A 12-megapixel page (3000 × 4000, colour JPEG).
const SCAN_SIZE: (u32, u32) = (3000, 4000);
/// How long after the queue is ready the first "next" is pressed.
const FIRST_PRESS_AFTER: std::time::Duration = std::time::Duration::from_secs(3);

/// How many tasks with a large scan "next" opens, one after another:
/// `SCOREDESK_TIMING_SAMPLES` (scripts/bench --desktop asks for 8), else 3, which
/// is enough for the test's checks (each scan takes a while to draw).
fn sample_count() -> usize {
    std::env::var("SCOREDESK_TIMING_SAMPLES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(3)
}

/// The UI's figures, once `ready` (a JavaScript condition on them) holds.
async fn timings(client: &Client, ready: &str) -> Value {
    for _ in 0..600 {
        let script =
            format!("const t = window.scoredeskTimings; return t && ({ready}) ? t : null;");
        let value = client
            .execute(&script, vec![])
            .await
            .expect("reading timings");
        if !value.is_null() {
            return value;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the timings never satisfied {ready}");
}

/// Lines up open tasks at the head of the queue, in order: `scans` with a scanned
/// answer, then `typed` with a typed one, saving for moderation the ones between
/// them, as other scorers would.
async fn line_up_tasks(
    api: &Api,
    scans: usize,
    typed: usize,
) -> (Vec<(String, i64)>, Vec<(String, i64)>) {
    let (mut scanned, mut texts) = (Vec::new(), Vec::new());
    for task in queue(api).await {
        if texts.len() == typed {
            break;
        }
        let key = (
            task["QuestionID"].as_str().unwrap().to_owned(),
            task["ResultID"].as_i64().unwrap(),
        );
        let media = task["Answer"]["odata.mediaContentType"]
            .as_str()
            .unwrap_or_default();
        if scanned.len() < scans && media.starts_with("image/") {
            scanned.push(key);
        } else if scanned.len() == scans && media.starts_with("text/") {
            texts.push(key);
        } else {
            let path = format!("ScoringTasks(QuestionID={}L,ResultID={})", key.0, key.1);
            assert!(api.put(&path, json!({"Status": 2})).await.is_success());
        }
    }
    assert_eq!(
        (scanned.len(), texts.len()),
        (scans, typed),
        "enough scanned and typed answers in the demo's queue"
    );
    (scanned, texts)
}

/// Opens each task with "next" once it heads the queue (the first a while after the
/// queue is ready, as a person reads it first), then saves it for moderation so that
/// the next heads the queue. Returns "next" to the answer on screen, and to the
/// `open_task` command's answer, in milliseconds, per task.
async fn open_in_turn(
    session: &DesktopSession,
    tasks: &[(String, i64)],
    scanned: bool,
    first_of_session: bool,
) -> (Vec<f64>, Vec<f64>) {
    let client = &session.client;
    let (mut samples, mut take_samples) = (Vec::new(), Vec::new());
    let mut phases = Vec::new();
    for (index, (question, result)) in tasks.iter().enumerate() {
        let key = format!("{question}/{result}");
        let head = format!("li:first-child[data-question='{question}'][data-result='{result}']");
        // A scan is decoded ahead before "next"; the test waits for it as a scorer
        // would be reading the task before.
        let list = if scanned {
            format!("#task-list[data-prepared='{key}'] {head}")
        } else {
            format!("#task-list {head}")
        };
        wait_for(client, &list).await;
        if index == 0 && first_of_session {
            // Pressed the instant the queue is ready, the app is still busy starting
            // (docs/benchmarks.md).
            tokio::time::sleep(FIRST_PRESS_AFTER).await;
        }
        let before = timings(client, "true").await["nextToAnswerMs"]
            .as_array()
            .unwrap()
            .len();
        press(client, &['n']).await;
        let figures = timings(client, &format!("t.nextToAnswerMs.length > {before}")).await;
        let taken = &figures["nextToAnswerMs"][before];
        assert_eq!(taken["key"], key.as_str());
        if scanned {
            assert_eq!(taken["prepared"], true, "next used the scan decoded ahead");
            wait_for(client, &format!("#scoring-view[data-prepared='true'][data-question='{question}'][data-result='{result}']")).await;
            let size = client
                .execute(
                    "const i = document.getElementById('answer-image'); return [i.naturalWidth, i.naturalHeight];",
                    vec![],
                )
                .await
                .unwrap();
            assert_eq!(
                size,
                json!([825, 1100]),
                "the screen gets the downscaled copy"
            );
            if index == 0 {
                session.screenshot("large-scan").await;
            }
        } else {
            wait_for(client, "#answer-text").await;
        }
        samples.push(taken["ms"].as_f64().unwrap());
        phases.push(taken["phases"].clone());
        take_samples.push(taken["takeMs"].as_f64().unwrap());
        ctrl(client, 's').await;
        wait_for(client, "#last-outcome").await;
    }
    println!(
        "phases of {}: {}",
        if scanned { "scans" } else { "typed answers" },
        Value::Array(phases)
    );
    (samples, take_samples)
}

/// Replaces the tasks' answers in the app's database by large scans, each a
/// different page (a scan the web view has shown before would come from its cache),
/// as if they had been delivered so. Returns the size of the first.
async fn deliver_large_scans(data_dir: &Path, tasks: &[(String, i64)]) -> usize {
    let url = format!("sqlite:{}", data_dir.join("scoredesk.db").display());
    let mut conn = sqlx::SqliteConnection::connect(&url).await.unwrap();
    let mut first_size = 0;
    for (seed, (question, result)) in (7u64..).zip(tasks) {
        let scan =
            scoredesk_server::seed::scans::render_colour_scan_at(seed, SCAN_SIZE.0, SCAN_SIZE.1);
        first_size = if first_size == 0 {
            scan.len()
        } else {
            first_size
        };
        let replaced = sqlx::query(
            "UPDATE answers SET content = ?, media_type = 'image/jpeg' \
             WHERE question_id = ? AND result_id = ?",
        )
        .bind(&scan)
        .bind(question.parse::<i64>().unwrap())
        .bind(result)
        .execute(&mut conn)
        .await
        .unwrap()
        .rows_affected();
        assert_eq!(replaced, 1, "one answer block");
    }
    first_size
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn start_up_and_next_task_to_a_scan_and_to_a_typed_answer_are_measured_in_the_window() {
    // First start: the embedded server creates its database and seeds the demo.
    let session = DesktopSession::start().await;
    let first_start = timings(&session.client, "t.startToQueueMs !== null").await["startToQueueMs"]
        .as_f64()
        .unwrap();
    let api = Api::of(&session).await;
    // The typed answers: `sample_count()` after the scans, and one more that opens a
    // session of its own.
    let (scans, mut texts) = line_up_tasks(&api, sample_count(), sample_count() + 1).await;
    let last_text = texts.pop().unwrap();
    let data = session.close().await;
    let scan_bytes = deliver_large_scans(data.path(), &scans).await;

    // A later start, on the same data: the figure a scorer sees every morning. The
    // session's first "next" opens a scan.
    let session = DesktopSession::start_in(data).await;
    let later_start = timings(&session.client, "t.startToQueueMs !== null").await["startToQueueMs"]
        .as_f64()
        .unwrap();
    let (scan_samples, scan_takes) = open_in_turn(&session, &scans, true, true).await;
    let (typed_samples, typed_takes) = open_in_turn(&session, &texts, false, false).await;
    // Another session whose first "next" opens a typed answer.
    let data = session.close().await;
    let session = DesktopSession::start_in(data).await;
    timings(&session.client, "t.startToQueueMs !== null").await;
    let (first_typed, _) = open_in_turn(&session, &[last_text], false, true).await;

    let figures = json!({
        "appStartToQueueMs": { "firstStartWithDemoSeed": first_start, "laterStart": later_start },
        "nextTaskToScanMs": {
            "scan": format!("{} x {} colour JPEG, {} KB", SCAN_SIZE.0, SCAN_SIZE.1, scan_bytes / 1024),
            "preparedAhead": true,
            "distinctScans": scans.len(),
            "firstPressAfterQueueMs": FIRST_PRESS_AFTER.as_millis(),
            "firstOfSession": scan_samples[0],
            "samples": scan_samples,
            "median": median(scan_samples.clone()),
            "takeTaskSamples": scan_takes,
            "takeTaskMedian": median(scan_takes.clone()),
        },
        "nextTaskToTypedAnswerMs": {
            "firstOfSession": first_typed[0],
            "samples": typed_samples,
            // Which question each was: their rubrics differ in size.
            "questions": texts.iter().map(|(question, _)| question.clone()).collect::<Vec<_>>(),
            "median": median(typed_samples.clone()),
            "takeTaskMedian": median(typed_takes.clone()),
        },
        "app": std::env::var("SCOREDESK_DESKTOP_BIN").unwrap_or_else(|_| "debug build".into()),
    });
    let path = artifacts_dir().join("timings.json");
    std::fs::write(&path, serde_json::to_string_pretty(&figures).unwrap()).unwrap();
    println!("{figures:#}");
    session.close().await;
}
