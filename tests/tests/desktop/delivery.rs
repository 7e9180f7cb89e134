//! Issue 16 in the real window: the coordinator's delivery desk. Signed in as the
//! embedded server's administrator, a coordinator takes a snapshot by keyboard and
//! opens its printable page and its answer key in windows of their own.

use std::time::Duration;

use fantoccini::key::Key;
use fantoccini::Client;
use serde_json::Value;

use crate::support::{press, type_into, wait_for, Api, DesktopSession};

/// The handle of a window that is not `known`, once there is one.
async fn new_window(
    client: &Client,
    known: &[fantoccini::wd::WindowHandle],
) -> fantoccini::wd::WindowHandle {
    for _ in 0..200 {
        let windows = client.windows().await.unwrap();
        if let Some(new) = windows.into_iter().find(|w| !known.contains(w)) {
            return new;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no new window opened");
}

/// The text of the page in window `handle`, once it has loaded its questions.
async fn page_text(client: &Client, handle: &fantoccini::wd::WindowHandle) -> String {
    client.switch_to_window(handle.clone()).await.unwrap();
    let mut text = String::new();
    for _ in 0..200 {
        let shown: Value = client
            .execute(
                "return document.body ? document.body.innerText : '';",
                vec![],
            )
            .await
            .unwrap_or(Value::Null);
        text = shown.as_str().unwrap_or_default().to_owned();
        if text.contains("Question 1") {
            return text;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let url = client.current_url().await.map(|u| u.to_string());
    panic!("the printable page never showed its questions: {url:?} shows {text:?}");
}

/// The desk's outcome line once it shows one; its error banner fails the test.
async fn outcome(client: &Client) -> String {
    let shown = wait_for(client, "#delivery-message, #delivery-error").await;
    let text = shown.text().await.unwrap();
    assert_eq!(
        shown.attr("id").await.unwrap().as_deref(),
        Some("delivery-message"),
        "{text}"
    );
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_coordinator_takes_a_snapshot_and_opens_its_paper_and_answer_key() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    let api = Api::of(&session).await;

    // D opens the desk (the account is the area's administrator).
    wait_for(client, "#tab-delivery").await;
    press(client, &['d']).await;
    wait_for(client, "#delivery-title").await;
    let first = wait_for(client, "#delivery-assessments button.chosen").await;
    let assessment = first.attr("data-id").await.unwrap().unwrap();
    let assessment_name = first.text().await.unwrap();
    // ↓ then ↑ comes back to it; its snapshot list loads.
    press(client, &[Key::Down.into(), Key::Up.into()]).await;
    wait_for(
        client,
        &format!("#delivery-assessments button.chosen[data-id='{assessment}']"),
    )
    .await;
    session.screenshot("delivery-desk").await;

    // S names a new snapshot; Enter takes it.
    press(client, &['s']).await;
    let name = "June sitting, hall B";
    type_into(client, "snapshot-name", name).await;
    press(client, &[Key::Enter.into()]).await;
    let message = outcome(client).await;
    assert!(message.contains(name), "{message}");
    let row = wait_for(client, "#snapshot-list tbody tr:first-child").await;
    let snapshot = row.attr("data-id").await.unwrap().unwrap();
    let stored = api.get(&format!("AssessmentSnapshots({snapshot})")).await;
    assert_eq!(stored["Name"], name);
    assert_eq!(stored["AssessmentID"], assessment);
    session.screenshot("delivery-snapshot-taken").await;

    // P opens the paper in a window of its own, through a link read just now.
    let main = client.window().await.unwrap();
    let known = client.windows().await.unwrap();
    press(client, &['p']).await;
    let paper = new_window(client, &known).await;
    let text = page_text(client, &paper).await;
    assert!(text.contains(&assessment_name), "{text}");
    assert!(
        !text.contains("Answer key"),
        "the paper is not the key: {text}"
    );
    let url = client.current_url().await.unwrap();
    assert!(
        url.path().ends_with(&format!("/snapshots/{snapshot}")),
        "{url}"
    );
    assert!(
        url.query()
            .unwrap_or_default()
            .contains("variant=questions"),
        "{url}"
    );
    session.screenshot("delivery-print-paper").await;

    // P again brings the same window back through a link read again: the one it
    // holds may have expired.
    client.switch_to_window(main.clone()).await.unwrap();
    let known = client.windows().await.unwrap();
    tokio::time::sleep(Duration::from_millis(20)).await;
    press(client, &['p']).await;
    client.switch_to_window(paper.clone()).await.unwrap();
    let mut again = url.clone();
    for _ in 0..100 {
        again = client.current_url().await.unwrap();
        if again != url {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_ne!(
        again, url,
        "the paper's window was shown again through a new link"
    );
    assert_eq!(again.path(), url.path());
    assert_eq!(
        client.windows().await.unwrap().len(),
        known.len(),
        "no second paper window"
    );

    // A opens the answer key beside it.
    client.switch_to_window(main.clone()).await.unwrap();
    press(client, &['a']).await;
    let key = new_window(client, &known).await;
    let text = page_text(client, &key).await;
    assert!(
        text.contains("Answer key: correct choices are filled in"),
        "{text}"
    );
    let url = client.current_url().await.unwrap();
    assert!(
        url.query().unwrap_or_default().contains("variant=answers"),
        "{url}"
    );
    session.screenshot("delivery-print-answer-key").await;
    client.switch_to_window(main).await.unwrap();

    batch_and_attempts(&session, &api, &snapshot).await;
    session.close().await;
}

/// B makes a print batch of the first group for the snapshot; Enter opens it; T
/// makes an attempt per participant with a progress bar, and T again makes none.
async fn batch_and_attempts(session: &DesktopSession, api: &Api, snapshot: &str) {
    let client = &session.client;
    press(client, &['b']).await;
    let group = wait_for(client, "#batch-group")
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap();
    type_into(client, "batch-name", "Hall B, morning").await;
    press(client, &[Key::Enter.into()]).await;
    assert!(outcome(client).await.contains("Hall B, morning"));
    let row = wait_for(client, "#batch-list tbody tr.highlighted").await;
    let batch = row.attr("data-id").await.unwrap().unwrap();
    let stored = api.get(&format!("PrintBatches({batch})")).await;
    assert_eq!(stored["GroupID"].to_string(), group);
    assert_eq!(stored["SnapshotID"].to_string(), snapshot);
    session.screenshot("delivery-batch-made").await;

    // Esc leaves the name field; Enter opens the highlighted batch.
    press(client, &[Key::Escape.into(), Key::Enter.into()]).await;
    wait_for(client, "#attempt-list").await;
    let members = api.get(&format!("Groups({group})/Participants")).await;
    let members = members["value"].as_array().unwrap().len();
    assert!(members > 0);
    let rows = client
        .find_all(fantoccini::Locator::Css("#attempt-list tbody tr"))
        .await
        .unwrap();
    assert_eq!(rows.len(), members, "one row per participant of the group");

    press(client, &['t']).await;
    let summary = wait_for(client, "#attempts-summary")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        summary.starts_with(&format!("{members} attempts created.")),
        "{summary}"
    );
    wait_for(client, "#attempts-progress").await;
    let bar = client
        .execute(
            "const bar = document.getElementById('attempts-progress'); return [bar.value, bar.max];",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        bar,
        serde_json::json!([members, members]),
        "the bar is full"
    );
    let made = api
        .get(&format!(
            "Attempts?$filter=AssessmentSnapshotID eq {snapshot}"
        ))
        .await;
    let made = made["value"].as_array().unwrap().clone();
    assert_eq!(made.len(), members);
    for attempt in &made {
        let external = attempt["ExternalAttemptID"].as_str().unwrap();
        assert!(
            external.starts_with(&format!("batch-{batch}-participant-")),
            "{external}"
        );
        assert!(attempt["ResultID"].is_null());
    }
    let waiting = client
        .find_all(fantoccini::Locator::Css(
            "#attempt-list tbody tr[data-attempt]:not([data-attempt=''])",
        ))
        .await
        .unwrap();
    assert_eq!(waiting.len(), members);
    session.screenshot("delivery-attempts-made").await;

    // Again: nothing is made twice.
    press(client, &['t']).await;
    let again = format!("0 attempts created, {members} already had one.");
    for _ in 0..100 {
        if wait_for(client, "#attempts-summary")
            .await
            .text()
            .await
            .unwrap()
            == again
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        wait_for(client, "#attempts-summary")
            .await
            .text()
            .await
            .unwrap(),
        again
    );
    let after = api
        .get(&format!(
            "Attempts?$filter=AssessmentSnapshotID eq {snapshot}"
        ))
        .await;
    assert_eq!(after["value"].as_array().unwrap().len(), members);

    press(client, &[Key::Escape.into()]).await;
    wait_for(client, "#batch-list").await;
}
