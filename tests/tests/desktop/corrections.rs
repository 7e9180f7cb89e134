//! Issue 12 in the real window: a submit undone with Ctrl+Z reopens the task with
//! its scores, and the corrected submit sets the participant's Result again; the
//! session's list shows what was scored.

use fantoccini::key::Key;

use crate::support::{
    bring_to_head, ctrl, dimension_maxima, press, score_all_by_keyboard, take_with_keyboard,
    task_status, total_score, wait_for, Api, DesktopSession,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_submit_undone_reopens_the_task_with_its_scores_and_the_result_follows_the_correction() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    let api = Api::of(&session).await;
    let task = bring_to_head(&api, "text/").await;
    let (question, result) = &task;
    let before = total_score(&api, *result).await;
    take_with_keyboard(client, &task).await;
    let maxima = dimension_maxima(&api, &task).await;
    score_all_by_keyboard(client, &maxima).await;
    ctrl(client, Key::Enter.into()).await;
    wait_for(client, "#last-outcome").await;
    let submitted: i64 = maxima.iter().sum();
    assert_eq!(task_status(&api, &task).await, 3);
    assert_eq!(total_score(&api, *result).await, before + submitted);
    let listed = format!("#session-history li[data-question='{question}'][data-result='{result}']");
    wait_for(client, &format!("{listed}[data-score='{submitted}']")).await;

    // Ctrl+Z: the task is claimed again and shows the submitted scores.
    ctrl(client, 'z').await;
    wait_for(
        client,
        &format!("#scoring-view[data-question='{question}'][data-result='{result}']"),
    )
    .await;
    wait_for(client, &format!("#overall-score[data-score='{submitted}']")).await;
    assert_eq!(task_status(&api, &task).await, 1, "claimed again");
    session.screenshot("correction").await;

    // The first dimension corrected to 0 and submitted: the Result follows.
    press(client, &['0']).await;
    let corrected = submitted - maxima[0];
    wait_for(client, &format!("#overall-score[data-score='{corrected}']")).await;
    ctrl(client, Key::Enter.into()).await;
    wait_for(client, &format!("{listed}[data-score='{corrected}']")).await;
    assert_eq!(task_status(&api, &task).await, 3);
    assert_eq!(
        total_score(&api, *result).await,
        before + corrected,
        "the participant's Result holds the corrected score"
    );

    // The list follows the account, not the computer's memory: after a restart it
    // comes back from the server's record, and Ctrl+Z still reopens the task.
    let data = session.close().await;
    let session = DesktopSession::start_in(data).await;
    let client = &session.client;
    wait_for(client, &format!("{listed}[data-score='{corrected}']")).await;
    ctrl(client, 'z').await;
    wait_for(
        client,
        &format!("#scoring-view[data-question='{question}'][data-result='{result}']"),
    )
    .await;
    wait_for(client, &format!("#overall-score[data-score='{corrected}']")).await;
    session.close().await;
}
