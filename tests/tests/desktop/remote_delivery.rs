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
    answer_file, click, press, snapshot_questions, type_into, wait_for, Api, DesktopSession,
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
    let assessment = admin.get("Assessments?$orderby=Name&$top=1").await["value"][0]["ID"].clone();
    let snapshot = coordinator
        .post(
            "AssessmentSnapshots",
            json!({"ID": 0, "AssessmentID": assessment, "Name": "Remote sitting"}),
        )
        .await["ID"]
        .as_i64()
        .unwrap();
    let group = admin.get("Groups?$orderby=Name&$top=1").await["value"][0]["ID"]
        .as_i64()
        .unwrap();
    let batch = coordinator
        .post(
            "PrintBatches",
            json!({"ID": 0, "GroupID": group, "SnapshotID": snapshot, "Name": "Remote batch"}),
        )
        .await["ID"]
        .as_i64()
        .unwrap();

    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    click(client, "section.server button.link").await;
    type_into(client, "remote-url", &base).await;
    type_into(client, "remote-customer", &area.to_string()).await;
    type_into(client, "remote-username", COORDINATOR).await;
    type_into(client, "remote-password", DEMO_PASSWORD).await;
    click(client, "section.server form button[type='submit']").await;
    // Signed in, and at home on the desk.
    wait_for(client, "#connection-state[data-state='connected']").await;
    wait_for(client, "#delivery-title").await;
    wait_for(
        client,
        &format!("#snapshot-list tr.highlighted[data-id='{snapshot}']"),
    )
    .await;
    wait_for(
        client,
        &format!("#batch-list tr.highlighted[data-id='{batch}']"),
    )
    .await;
    press(client, &[Key::Enter.into()]).await;
    wait_for(client, "#attempt-list").await;
    press(client, &['t']).await;
    let summary = wait_for(client, "#attempts-summary")
        .await
        .text()
        .await
        .unwrap();
    let made = admin
        .get(&format!(
            "Attempts?$filter=AssessmentSnapshotID eq {snapshot}&$orderby=ID"
        ))
        .await;
    let attempts: Vec<i64> = made["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["ID"].as_i64().unwrap())
        .collect();
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
    press(client, &['u']).await;
    type_into(client, "upload-path", &folder.path().display().to_string()).await;
    press(client, &[Key::Enter.into()]).await;
    let summary = wait_for(
        client,
        "#upload-summary[data-done='true'][data-elapsed-ms]:not([data-elapsed-ms=''])",
    )
    .await
    .text()
    .await
    .unwrap();
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
        let row = wait_for(
            client,
            &format!("#upload-outcomes tr[data-file='a-{attempt}.json']"),
        )
        .await;
        assert_eq!(
            row.attr("data-kind").await.unwrap().as_deref(),
            Some("scored")
        );
        let result = admin.get(&format!("Attempts({attempt})")).await["ResultID"].clone();
        assert!(
            result.is_i64(),
            "attempt {attempt} has its result on PostgreSQL"
        );
        let shown = row
            .find(fantoccini::Locator::Css("td:nth-child(3)"))
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
