//! Issue 5 in the real window: the queue's assessment and question filters, and the
//! moderation list of saved tasks (Status 2), reviewed without being claimed.

use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use serde_json::Value;

use crate::support::{
    bring_to_head, ctrl, dimension_maxima, press, score_all_by_keyboard, take_with_keyboard,
    task_status, wait_for, Api, DesktopSession, SCORABLE,
};

/// The `data-<attribute>` of every row of a list, once the list shows rows that all
/// satisfy `expected` (the list reloads after a filter changes).
async fn rows_once(client: &Client, list: &str, attribute: &str, expected: &str) -> Vec<String> {
    for _ in 0..300 {
        let values = client
            .execute(
                "return [...document.querySelectorAll(arguments[0] + ' li[data-question]')].map(li => li.dataset[arguments[1]]);",
                vec![list.into(), attribute.into()],
            )
            .await
            .unwrap();
        let values: Vec<String> = serde_json::from_value(values).unwrap();
        if !values.is_empty() && values.iter().all(|v| v == expected) {
            return values;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("{list} never listed only {attribute} = {expected}");
}

/// Leaves a form control, so that the window's keys reach the app again.
async fn blur(client: &Client) {
    client
        .execute("document.activeElement?.blur();", vec![])
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn filters_narrow_the_queue_and_a_moderator_reviews_saved_scores() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    let api = Api::of(&session).await;

    // The assessment of the head task: the filter lists only that assessment's tasks.
    let head = wait_for(client, "#task-list li:first-child").await;
    let assessment = head.attr("data-assessment").await.unwrap().unwrap();
    wait_for(
        client,
        &format!("#assessment-filter option[value='{assessment}']"),
    )
    .await;
    client
        .find(Locator::Id("assessment-filter"))
        .await
        .unwrap()
        .select_by_value(&assessment)
        .await
        .unwrap();
    let shown = rows_once(client, "#task-list", "assessment", &assessment).await;
    let expected = api
        .count(&format!("{SCORABLE} and Assessment/ID eq {assessment}L"))
        .await as usize;
    assert_eq!(
        shown.len(),
        expected.min(12),
        "the rows of assessment {assessment}"
    );
    // The count of matching tasks is the service's.
    wait_for(client, &format!("#matching-count[data-count='{expected}']")).await;
    // And a question of it narrows the list further.
    let question = head.attr("data-question").await.unwrap().unwrap();
    client
        .find(Locator::Id("question-filter"))
        .await
        .unwrap()
        .select_by_value(&question)
        .await
        .unwrap();
    let shown = rows_once(client, "#task-list", "question", &question).await;
    let expected = api
        .count(&format!(
            "{SCORABLE} and Assessment/ID eq {assessment}L and QuestionID eq {question}L"
        ))
        .await as usize;
    assert_eq!(shown.len(), expected.min(12));
    wait_for(client, &format!("#matching-count[data-count='{expected}']")).await;
    session.screenshot("queue-filtered").await;
    for filter in ["question-filter", "assessment-filter"] {
        client
            .find(Locator::Id(filter))
            .await
            .unwrap()
            .select_by_value("")
            .await
            .unwrap();
    }
    blur(client).await;

    // A scorer saves a task for moderation (Ctrl+S).
    let task = bring_to_head(&api, "text/").await;
    take_with_keyboard(client, &task).await;
    let maxima = dimension_maxima(&api, &task).await;
    let saved: Vec<i64> = maxima.iter().map(|m| m - 1).collect();
    score_all_by_keyboard(client, &saved).await;
    press(client, &['m']).await;
    press(client, &"Check the method".chars().collect::<Vec<_>>()).await;
    press(client, &[Key::Escape.into()]).await;
    ctrl(client, 's').await;
    wait_for(client, "#last-outcome").await;
    assert_eq!(task_status(&api, &task).await, 2);

    // M shows the saved tasks; the arrows reach this one and Enter opens it.
    press(client, &['m']).await;
    let (question, result) = &task;
    let row = format!("#moderation-list li[data-question='{question}'][data-result='{result}']");
    wait_for(client, &row).await;
    // The row shows the saved score and comment.
    let total: i64 = saved.iter().sum();
    let shown = wait_for(client, &format!("{row} .s[data-score='{total}']"))
        .await
        .prop("textContent")
        .await
        .unwrap()
        .unwrap_or_default();
    assert!(shown.contains("Check the method"), "{shown}");
    // And who saved it: this app's account, from the server's ScoringEvents.
    wait_for(client, &format!("{row} .s[data-saved-by='desktop']")).await;
    assert!(shown.contains("saved by desktop"), "{shown}");
    // A filter on the list says so, with the count that matches; X clears it.
    client
        .find(Locator::Id("question-filter"))
        .await
        .unwrap()
        .select_by_value(question)
        .await
        .unwrap();
    let matching = api
        .count(&format!("Status eq 2 and QuestionID eq {question}L"))
        .await;
    wait_for(
        client,
        &format!("#moderation-matching[data-count='{matching}']"),
    )
    .await;
    blur(client).await;
    press(client, &['x']).await;
    for _ in 0..100 {
        if client
            .find(Locator::Id("moderation-matching"))
            .await
            .is_err()
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(client
        .find(Locator::Id("moderation-matching"))
        .await
        .is_err());
    // The unfiltered list has arrived (the filtered one stays on screen until it
    // does, and the arrows below count rows in it).
    let all_saved = api.count("Status eq 2").await.min(12);
    wait_for(
        client,
        &format!("#moderation-list li[data-question]:nth-child({all_saved})"),
    )
    .await;
    wait_for(client, &row).await;
    let index = client
        .execute(
            "return [...document.querySelectorAll('#moderation-list li')].findIndex(li => li.matches(arguments[0]));",
            vec![row.clone().into()],
        )
        .await
        .unwrap()
        .as_u64()
        .unwrap() as usize;
    assert!(
        index < 12,
        "the saved task is on the first screen of the list"
    );
    press(client, &vec!['j'; index]).await;
    wait_for(client, &format!("{row}.selected")).await;
    session.screenshot("moderation-list").await;
    press(client, &[Key::Enter.into()]).await;
    wait_for(client, "#review-badge").await;
    for (order, score) in saved.iter().enumerate() {
        wait_for(
            client,
            &format!("#dimension-{}[data-score='{score}']", order + 1),
        )
        .await;
    }
    assert_eq!(
        task_status(&api, &task).await,
        2,
        "reviewing does not claim the task"
    );
    session.screenshot("moderation-review").await;

    // Esc leaves it unchanged; opened again, the moderator changes a score and submits.
    press(client, &[Key::Escape.into()]).await;
    wait_for(client, &format!("{row}.selected")).await;
    assert_eq!(task_status(&api, &task).await, 2);
    press(client, &[Key::Enter.into()]).await;
    wait_for(client, "#review-badge").await;
    score_all_by_keyboard(client, &maxima).await;
    ctrl(client, Key::Enter.into()).await;
    wait_for(client, "#last-outcome").await;
    assert_eq!(task_status(&api, &task).await, 3);
    let stored: Value = api
        .get(&format!(
            "ScoringTasks(QuestionID={question}L,ResultID={result})/ScoringResult"
        ))
        .await;
    assert_eq!(stored["value"][0]["Score"], maxima.iter().sum::<i64>());
    // Scored tasks leave the moderation list.
    for _ in 0..100 {
        if client.find(Locator::Css(&row)).await.is_err() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(
        client.find(Locator::Css(&row)).await.is_err(),
        "{row} left the list"
    );
    session.close().await;
}
