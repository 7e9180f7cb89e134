//! `kill -9` during `sheets scan` (issue 31): a batch's scanned sheets being read
//! back and uploaded attempt by attempt, the command killed once the first
//! attempt is in. Every attempt is whole or absent; the same command run again
//! says which were uploaded already and uploads the rest.

use std::process::Stdio;
use std::time::{Duration, Instant};

use scoredesk_e2e::paper::rng;
use scoredesk_e2e::sheets::{deliver_paper, printed, scan_attempts, Style};
use scoredesk_e2e::{Backend, TestApp};

use crate::scanning::sheets_scan;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sheets_scan_killed_mid_way_is_whole_or_absent_and_finishes_when_run_again_on_sqlite() {
    killed_mid_scan(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sheets_scan_killed_mid_way_is_whole_or_absent_and_finishes_when_run_again_on_postgres() {
    killed_mid_scan(Backend::Postgres).await;
}

async fn killed_mid_scan(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let delivery = deliver_paper(&app, 1).await;
    let (batch, attempts) = &delivery.batches[0];
    assert!(attempts.len() >= 4, "{} attempts", attempts.len());
    let print_dir = tempfile::tempdir().unwrap();
    let pages = printed(&app, *batch, print_dir.path()).await;
    let scans = tempfile::tempdir().unwrap();
    let (_, decisions) = scan_attempts(
        Style::Fill,
        &delivery,
        &pages,
        attempts,
        150.0,
        &mut rng(31),
        scans.path(),
    );
    let decided = print_dir.path().join("decisions.json");
    std::fs::write(&decided, serde_json::to_vec(&decisions).unwrap()).unwrap();
    let list = attempts
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let uploaded =
        format!("SELECT COUNT(*) FROM attempts WHERE id IN ({list}) AND result_id IS NOT NULL");

    let mut child = sheets_scan(&app, scans.path(), *batch, Some(&decided))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let begun = Instant::now();
    while app.sql_i64(&uploaded).await == 0 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the scan ended before an attempt was seen uploaded"
        );
        assert!(
            begun.elapsed() < Duration::from_secs(120),
            "no attempt was uploaded in 120 s"
        );
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = app.sql_i64(&uploaded).await;
    assert!(
        before < attempts.len() as i64,
        "killed after every attempt was in"
    );
    // Whole or absent: an attempt with a result has all of its answers.
    let questions = delivery.questions.len() as i64;
    let partial = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM attempts a WHERE a.id IN ({list}) AND a.result_id IS NOT NULL \
             AND (SELECT COUNT(*) FROM answers n WHERE n.result_id = a.result_id) <> {questions}"
        ))
        .await;
    assert_eq!(partial, 0, "an attempt half uploaded");

    let again = sheets_scan(&app, scans.path(), *batch, Some(&decided))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&again.stdout);
    assert!(
        again.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_eq!(
        text.matches("already uploaded").count() as i64,
        before,
        "{text}"
    );
    assert!(
        text.contains(&format!("{} uploaded", attempts.len() as i64 - before)),
        "{text}"
    );
    assert_eq!(app.sql_i64(&uploaded).await, attempts.len() as i64);
}
