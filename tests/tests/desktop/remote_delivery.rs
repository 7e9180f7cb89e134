//! Issue 16 against a remote server on PostgreSQL: a coordinator signs in through
//! the connection form, lands on the delivery desk (they may not read the
//! scorers' tasks), makes a print batch's attempts and uploads a folder of answer
//! files; every outcome is checked against the PostgreSQL server's API.

use std::time::Duration;

use fantoccini::key::Key;
use scoredesk_e2e::{Backend, TestApp};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use serde_json::json;

use crate::support::{
    answer_file, make_attempts, open_batch, outcome_row, paper_batch, press, sign_in_remote,
    snapshot_attempts, snapshot_questions, upload_folder, wait_for, Api, DesktopSession,
};

const COORDINATOR: &str = "northwind-coordinator";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_coordinator_uploads_answer_files_to_a_remote_server_on_postgresql() {
    let server = TestApp::spawn_with_demo(Backend::Postgres).await;
    let base = server.url("").trim_end_matches('/').to_owned();
    let area = server.northwind();
    let admin = Api::at(&base, area);
    let coordinator = admin.signed_in_as(COORDINATOR, DEMO_PASSWORD);

    // Through the API: a snapshot of the first assessment and a batch of the
    // first group, as another coordinator's tool would have made them.
    let paper = paper_batch(&coordinator, "Remote sitting").await;
    let (snapshot, batch) = (paper.snapshot, paper.batch);

    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    sign_in_remote(client, &base, area, COORDINATOR, DEMO_PASSWORD).await;
    // Signed in, and at home on the desk.
    wait_for(client, "#connection-state[data-state='connected']").await;
    wait_for(client, "#delivery-title").await;
    // The scorer's tabs are not theirs: none is shown, and Q stays on the desk.
    assert!(client
        .find(fantoccini::Locator::Id("tab-queue"))
        .await
        .is_err());
    press(client, &['q']).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(client
        .find(fantoccini::Locator::Id("delivery-title"))
        .await
        .is_ok());
    open_batch(client, snapshot, batch).await;
    press(client, &['t']).await;
    let summary = wait_for(client, "#attempts-summary")
        .await
        .text()
        .await
        .unwrap();
    let attempts = snapshot_attempts(&admin, &snapshot.to_string()).await;
    assert!(!attempts.is_empty());
    assert!(
        summary.starts_with(&format!("{} attempts created.", attempts.len())),
        "{summary}"
    );

    // Every attempt's file but the last; the last one's names a question the
    // snapshot does not have.
    let questions = snapshot_questions(&admin, &snapshot.to_string()).await;
    let folder = tempfile::tempdir().unwrap();
    let (last, valid) = attempts.split_last().unwrap();
    for attempt in valid {
        let file = answer_file(*attempt, &batch.to_string(), &questions);
        std::fs::write(
            folder.path().join(format!("a-{attempt}.json")),
            file.to_string(),
        )
        .unwrap();
    }
    let mut broken = answer_file(*last, &batch.to_string(), &questions);
    broken["QuestionAndChoices"][0]["QuestionOrderNumber"] = json!(40);
    std::fs::write(folder.path().join("z-broken.json"), broken.to_string()).unwrap();
    let summary = upload_folder(client, folder.path()).await;
    assert!(
        summary.starts_with(&format!(
            "{} files: {} scored, 1 refused",
            attempts.len(),
            valid.len()
        )),
        "{summary}"
    );
    let message = wait_for(
        client,
        "#upload-outcomes tr[data-file='z-broken.json'] .message",
    )
    .await
    .text()
    .await
    .unwrap();
    assert!(message.contains("QuestionOrderNumber: 40"), "{message}");
    for attempt in valid {
        let row = outcome_row(client, &format!("a-{attempt}.json"), "scored").await;
        let result = admin.get(&format!("Attempts({attempt})")).await["ResultID"].clone();
        assert!(
            result.is_i64(),
            "attempt {attempt} has its result on PostgreSQL"
        );
        let shown = row
            .find(fantoccini::Locator::Css("td.result-id"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert_eq!(shown, result.to_string());
    }
    assert!(admin.get(&format!("Attempts({last})")).await["ResultID"].is_null());
    tokio::time::sleep(Duration::from_millis(200)).await;
    session.screenshot("remote-postgres-upload").await;
    session.close().await;
}

/// Files sent while the server is down are shown as not sent, each with Send
/// again; nothing is retried by itself: once the server is back, the one file
/// sent again is scored and the others stay as they were.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answer_files_the_server_never_got_are_sent_again_one_by_one() {
    let remote_dir = tempfile::tempdir().unwrap();
    let mut remote = crate::remote::RemoteServer::start(remote_dir.path()).await;
    let admin = Api::at(&remote.url(), remote.customer_id);
    let paper = paper_batch(&admin, "Offline sitting").await;
    let batch = paper.batch;
    let questions = snapshot_questions(&admin, &paper.snapshot.to_string()).await;
    let folder = tempfile::tempdir().unwrap();
    let attempts = make_attempts(&admin, &paper, 3, "offline").await;
    for (n, attempt) in attempts.iter().enumerate() {
        let file = answer_file(*attempt, &batch.to_string(), &questions);
        std::fs::write(folder.path().join(format!("f-{n}.json")), file.to_string()).unwrap();
    }

    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    sign_in_remote(
        client,
        &remote.url(),
        remote.customer_id,
        "northwind-admin",
        DEMO_PASSWORD,
    )
    .await;
    // Connected to the new server (the app shows its account; until then the
    // built-in server's desk would open, and close again on the switch), which is
    // asked whether this account may use the desk: Esc gives the keyboard back to
    // the page, D opens the desk once the answer is in.
    for _ in 0..100 {
        let detail = wait_for(client, "#connection-detail")
            .await
            .text()
            .await
            .unwrap();
        if detail.contains("northwind-admin") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for _ in 0..50 {
        press(client, &[Key::Escape.into(), 'd']).await;
        if client
            .find(fantoccini::Locator::Id("delivery-title"))
            .await
            .is_ok()
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    open_batch(client, paper.snapshot, batch).await;

    remote.stop().await;
    let summary = upload_folder(client, folder.path()).await;
    assert!(summary.contains("3 not sent (retry them)"), "{summary}");
    for n in 0..3 {
        let row = outcome_row(client, &format!("f-{n}.json"), "unreachable").await;
        let message = row.text().await.unwrap();
        assert!(message.contains("not sent: Cannot reach"), "{message}");
    }
    session.screenshot("upload-not-sent").await;

    remote.resume().await;
    crate::support::click(
        client,
        "#upload-outcomes tr[data-file='f-1.json'] button.retry",
    )
    .await;
    wait_for(
        client,
        "#upload-outcomes tr[data-file='f-1.json'][data-kind='scored']",
    )
    .await;
    assert!(admin.get(&format!("Attempts({})", attempts[1])).await["ResultID"].is_i64());
    for n in [0, 2] {
        outcome_row(client, &format!("f-{n}.json"), "unreachable").await;
        assert!(admin.get(&format!("Attempts({})", attempts[n])).await["ResultID"].is_null());
    }
    session.screenshot("upload-sent-again").await;
    session.close().await;
    remote.stop().await;
}
