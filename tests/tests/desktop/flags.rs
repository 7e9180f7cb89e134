//! Flags to the lead marker in the real window, keyboard only: the marker flags
//! the typed answer in front of him (Ctrl+F, a reason by its number, N and a
//! note, Ctrl+Enter) and the task leaves the queue; on the flags desk (I) the
//! flag is listed, Enter reads its script, R with a note releases it; a second
//! flag taken over with T opens the script to mark, and its submission scores it.
//! The window's account is an administrator, who answers as a lead marker does.

use fantoccini::key::Key;
use serde_json::json;

use crate::support::{
    bring_to_head, ctrl, dimension_maxima, press, score_all_by_keyboard, take_with_keyboard,
    task_status, type_into, wait_for, Api, DesktopSession,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_is_raised_while_marking_and_answered_on_the_flags_desk() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    let api = Api::of(&session).await;
    let task = bring_to_head(&api, "text/").await;
    let (question, result) = &task;
    let row = format!("[data-question='{question}'][data-result='{result}']");

    take_with_keyboard(client, &task).await;
    ctrl(client, 'f').await;
    wait_for(client, "#flag-dialog").await;
    // Sent without a reason: refused, and it says how to choose one.
    ctrl(client, Key::Enter.into()).await;
    wait_for(client, "#flag-missing").await;
    press(client, &['3']).await;
    wait_for(
        client,
        "#flag-dialog label.chosen input[data-reason='off-rubric']",
    )
    .await;
    press(client, &['n']).await;
    wait_for(client, "#flag-note:focus").await;
    type_into(
        client,
        "flag-note",
        "Answers the other question on the paper.",
    )
    .await;
    session.screenshot("flag-dialog").await;
    ctrl(client, Key::Enter.into()).await;
    let said = wait_for(client, "#last-outcome")
        .await
        .text()
        .await
        .unwrap();
    assert!(said.contains("Flagged to the lead marker"), "{said}");

    let open = api.get("Flags?$filter=IsOpen eq true").await;
    let flags = open["value"].as_array().unwrap();
    assert_eq!(flags.len(), 1, "{open}");
    assert_eq!(flags[0]["Reason"], "off-rubric");
    assert_eq!(flags[0]["Note"], "Answers the other question on the paper.");
    assert_eq!(flags[0]["QuestionID"].as_str(), Some(question.as_str()));
    let marker = flags[0]["RaisedBy"].as_str().unwrap().to_owned();
    assert_eq!(
        task_status(&api, &task).await,
        1,
        "the flag locked the task"
    );

    // The flags desk: the flag highlighted; Enter reads the script, Esc closes it.
    press(client, &['i']).await;
    wait_for(client, &format!("#open-flags li.selected{row}")).await;
    session.screenshot("flags-desk").await;
    press(client, &[Key::Enter.into()]).await;
    wait_for(client, &format!("#scoring-view{row}")).await;
    wait_for(client, "#close-button").await;
    press(client, &[Key::Escape.into()]).await;
    wait_for(client, &format!("#open-flags li.selected{row}")).await;
    assert_eq!(
        task_status(&api, &task).await,
        1,
        "reading it claimed nothing"
    );

    // R and a note: released to the queue.
    press(client, &['r']).await;
    wait_for(client, "#flag-answer-note:focus").await;
    type_into(
        client,
        "flag-answer-note",
        "It answers ours too: mark it on the rubric.",
    )
    .await;
    ctrl(client, Key::Enter.into()).await;
    wait_for(client, "#no-open-flags").await;
    wait_for(client, "#answered-flags li").await;
    assert_eq!(task_status(&api, &task).await, 0, "released");
    let answers = api.get("FlagAnswers").await;
    assert_eq!(answers["value"][0]["Outcome"], "released", "{answers}");
    assert_eq!(
        answers["value"][0]["AnsweredBy"].as_str(),
        Some(marker.as_str())
    );

    // Another marker flags it again; T takes it over and opens it to mark.
    api.post(
        "Flags",
        json!({"QuestionID": question, "ResultID": result, "Reason": "unreadable", "Note": "Faint."}),
    )
    .await;
    press(client, &['q']).await;
    press(client, &['i']).await;
    wait_for(client, &format!("#open-flags li.selected{row}")).await;
    press(client, &['t']).await;
    wait_for(client, "#flag-answer-note:focus").await;
    type_into(client, "flag-answer-note", "I will mark this one.").await;
    ctrl(client, Key::Enter.into()).await;
    wait_for(client, &format!("#scoring-view{row}")).await;
    assert_eq!(
        task_status(&api, &task).await,
        1,
        "taken over: still locked"
    );
    let maxima = dimension_maxima(&api, &task).await;
    score_all_by_keyboard(client, &maxima).await;
    ctrl(client, Key::Enter.into()).await;
    wait_for(client, "#flags-desk #no-open-flags").await;
    assert_eq!(
        task_status(&api, &task).await,
        3,
        "the lead's marks submitted"
    );
    let taken = api.get("FlagAnswers?$filter=Outcome eq 'taken-over'").await;
    assert_eq!(taken["value"].as_array().unwrap().len(), 1, "{taken}");
}
