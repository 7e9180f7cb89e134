//! Issue 16: the time from a folder of 100 answer files given to the window to the
//! last outcome on screen, measured in the window (the page's own clock, from the
//! path's Enter to the last row drawn) and from the test (Enter to the summary
//! seen over WebDriver). Written to artifacts/desktop/upload-timing.json, recorded
//! in docs/benchmarks.md; never asserted.

use std::time::Instant;

use fantoccini::key::Key;
use serde_json::json;

use crate::support::{
    answer_file, artifacts_dir, make_attempts, open_batch, paper_batch, press, snapshot_questions,
    type_into, wait_for, Api, DesktopSession,
};

const FILES: usize = 100;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_folder_of_100_answer_files_is_timed_to_its_last_outcome() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    let api = Api::of(&session).await;

    // Through the API: a snapshot of the first assessment, a batch of the first
    // group, and 100 attempts among its participants.
    let paper = paper_batch(&api, "Timed sitting").await;
    let (snapshot, batch) = (paper.snapshot, paper.batch);
    let questions = snapshot_questions(&api, &snapshot.to_string()).await;
    let folder = tempfile::tempdir().unwrap();
    let attempts = make_attempts(&api, &paper, FILES, "timed").await;
    for (n, attempt) in attempts.iter().enumerate() {
        let file = answer_file(*attempt, &batch.to_string(), &questions);
        std::fs::write(
            folder.path().join(format!("answers-{n:03}.json")),
            file.to_string(),
        )
        .unwrap();
    }

    // The desk opens on the newest snapshot and its newest batch.
    press(client, &['d']).await;
    open_batch(client, snapshot, batch).await;
    press(client, &['u']).await;
    type_into(client, "upload-path", &folder.path().display().to_string()).await;
    let started = Instant::now();
    press(client, &[Key::Enter.into()]).await;
    let summary = wait_for(
        client,
        "#upload-summary[data-done='true'][data-elapsed-ms]:not([data-elapsed-ms=''])",
    )
    .await;
    let seen_ms = started.elapsed().as_millis();
    let in_window_ms: u64 = summary
        .attr("data-elapsed-ms")
        .await
        .unwrap()
        .unwrap()
        .parse()
        .unwrap();
    let text = summary.text().await.unwrap();
    assert!(
        text.starts_with(&format!("{FILES} files: {FILES} scored, 0 refused")),
        "{text}"
    );
    session.screenshot("delivery-upload-100").await;
    let figures = json!({
        "files": FILES,
        "in_window_ms": in_window_ms,
        "seen_by_the_test_ms": seen_ms,
        "app": std::env::var("SCOREDESK_DESKTOP_BIN").unwrap_or_default(),
    });
    std::fs::write(
        artifacts_dir().join("upload-timing.json"),
        serde_json::to_string_pretty(&figures).unwrap(),
    )
    .unwrap();
    eprintln!("upload timing: {figures}");
    session.close().await;
}
