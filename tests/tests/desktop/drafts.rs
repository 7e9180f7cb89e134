//! Issue 5 in the real window: the app is closed in the middle of a conflict, and
//! the scorer's work comes back on the next start, is resumed with one key, and is
//! saved on top of the other client's revision.

use fantoccini::key::Key;

use crate::support::{
    another_client_saves, ctrl, press, scoring_mid_edit, task_status, wait_for, Api, DesktopSession,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn work_left_in_a_conflict_when_the_app_closed_is_resumed_and_saved() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    let (api, task, mine) = scoring_mid_edit(&session).await;

    // Another client saves the ScoringResult; the scorer's save meets the conflict.
    let (question, result) = &task;
    let path = another_client_saves(&api, &task, 0, "Other client").await;
    ctrl(client, 's').await;
    wait_for(client, "#conflict-view").await;

    // The app is closed right there.
    let data = session.close().await;
    let session = DesktopSession::start_in(data).await;
    let client = &session.client;
    // The restarted app's server listens elsewhere.
    wait_for(client, "#task-list").await;
    let api = Api::of(&session).await;
    let kept = format!("#kept-drafts li[data-question='{question}'][data-result='{result}']");
    wait_for(client, &kept).await;
    session.screenshot("kept-drafts").await;

    // U resumes it: the scorer's scores are back, not the stored ones.
    wait_for(client, "#task-list li[data-question]").await;
    press(client, &['u']).await;
    wait_for(
        client,
        &format!("#scoring-view[data-question='{question}'][data-result='{result}']"),
    )
    .await;
    let total: i64 = mine.iter().sum();
    wait_for(client, &format!("#overall-score[data-score='{total}']")).await;
    assert_eq!(
        task_status(&api, &task).await,
        1,
        "still open, so claimed again"
    );

    // Saving meets the same conflict; Enter keeps the scorer's version on top.
    ctrl(client, 's').await;
    wait_for(client, "#conflict-view").await;
    press(client, &[Key::Enter.into()]).await;
    wait_for(client, "#last-outcome").await;
    assert_eq!(task_status(&api, &task).await, 2);
    let stored = api.get(&path).await;
    assert_eq!(stored["Score"], total);
    let scores: Vec<i64> = api.get(&format!("{path}/DimensionScores")).await["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["Score"].as_i64().unwrap())
        .collect();
    assert_eq!(scores, mine, "nothing the scorer typed was lost");
    // Saved, the draft is no longer listed.
    assert!(client.find(fantoccini::Locator::Css(&kept)).await.is_err());
    session.close().await;
}
