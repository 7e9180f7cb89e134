//! Issue 12 in the real window, keyboard first: the queue never offers a task that
//! cannot be scored, its numbers agree, keys reach the app whatever control has
//! focus, a row opens its own task, and a key that edits text never loses work.

use fantoccini::key::Key;
use fantoccini::{Client, Locator};

use crate::support::{
    ctrl, dimension_maxima, press, score_all_by_keyboard, shown_task, task_status, wait_for, Api,
    DesktopSession, SCORABLE,
};

/// The id of the element that has focus ("" for the page itself).
async fn focused_id(client: &Client) -> String {
    client
        .execute(
            "const e = document.activeElement; return e && e !== document.body ? (e.id || e.tagName) : '';",
            vec![],
        )
        .await
        .unwrap()
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// The key of the `n`th row (1-based) of the queue's list.
async fn row(client: &Client, n: usize) -> (String, i64) {
    let row = wait_for(
        client,
        &format!("#task-list li:nth-child({n})[data-question]"),
    )
    .await;
    let question = row.attr("data-question").await.unwrap().unwrap();
    let result = row.attr("data-result").await.unwrap().unwrap();
    (question, result.parse().unwrap())
}

/// Releases an untouched task with Ctrl+Backspace (no question asked) and waits for
/// the queue.
async fn release_untouched(client: &Client) {
    ctrl(client, Key::Backspace.into()).await;
    wait_for(client, "#task-list li[data-question]").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_queue_offers_only_scorable_tasks_and_its_keys_work_from_any_control() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#group-counts tbody tr").await;
    let api = Api::of(&session).await;

    // Tasks of questions without a rubric are counted apart, never listed.
    let waiting = api.count("Status eq 0 and not Question/Rubric/any()").await;
    assert!(waiting > 0, "the demo has tasks without a rubric");
    wait_for(
        client,
        &format!("#aside-counts[data-waiting-for-rubric='{waiting}']"),
    )
    .await;
    let scorable = api.count(SCORABLE).await;
    wait_for(
        client,
        &format!("#open-task-count[data-count='{scorable}']"),
    )
    .await;
    let mut groups_total = 0;
    for cell in client
        .find_all(Locator::Css("#group-counts .to-score"))
        .await
        .unwrap()
    {
        groups_total += cell.text().await.unwrap().parse::<i64>().unwrap();
    }
    assert_eq!(groups_total, scorable, "the header and the groups agree");
    let rows = client
        .find_all(Locator::Css("#task-list li[data-question]"))
        .await
        .unwrap();
    assert!(!rows.is_empty());
    for listed in rows {
        let question = listed.attr("data-question").await.unwrap().unwrap();
        let rubric = api.get(&format!("Questions({question}L)/Rubric")).await;
        assert_eq!(
            rubric["value"].as_array().unwrap().len(),
            1,
            "question {question} in the queue has a rubric"
        );
    }
    session.screenshot("queue-without-unscorable").await;

    // N takes the head even while a filter (a select) has focus: F focuses them in turn.
    let head = row(client, 1).await;
    press(client, &['f', 'f', 'f']).await;
    assert_eq!(focused_id(client).await, "question-filter");
    press(client, &['n']).await;
    assert_eq!(shown_task(client).await, head, "N opened the head");
    assert_eq!(task_status(&api, &head).await, 1);
    release_untouched(client).await;
    assert_eq!(task_status(&api, &head).await, 0);
    let filter = client
        .find(Locator::Id("question-filter"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap();
    assert_eq!(filter.as_deref(), Some(""), "N did not change the filter");

    // Esc gives the keyboard back to the page.
    press(client, &['f']).await;
    assert_eq!(focused_id(client).await, "group-filter");
    press(client, &[Key::Escape.into()]).await;
    assert_eq!(focused_id(client).await, "");

    // B toggles blind scoring; N works with the checkbox focused.
    press(client, &['b']).await;
    wait_for(client, "#blind-scoring:checked").await;
    client
        .find(Locator::Id("blind-scoring"))
        .await
        .unwrap()
        .send_keys(" ")
        .await
        .unwrap();
    wait_for(client, "#blind-scoring:not(:checked)").await;
    assert_eq!(focused_id(client).await, "blind-scoring");
    press(client, &['n']).await;
    assert_eq!(shown_task(client).await, head);
    release_untouched(client).await;

    // A row opens its own task: the second by Enter on it, the third by a click.
    let second = row(client, 2).await;
    client
        .find(Locator::Css("#task-list li:nth-child(2) button"))
        .await
        .unwrap()
        .send_keys(&Key::Enter.to_string())
        .await
        .unwrap();
    assert_eq!(shown_task(client).await, second, "Enter opened the row");
    assert_eq!(task_status(&api, &second).await, 1, "and claimed it");
    release_untouched(client).await;
    let third = row(client, 3).await;
    client
        .find(Locator::Css("#task-list li:nth-child(3) button"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(shown_task(client).await, third, "a click opened the row");
    release_untouched(client).await;

    shortcut_sheet_lists_every_desks_keys(&session).await;
    session.close().await;
}

/// `?` lists the keys of every desk, each under the desk it acts in (issue 33,
/// defect 9: the delivery, print batch and results keys were missing).
async fn shortcut_sheet_lists_every_desks_keys(session: &DesktopSession) {
    let client = &session.client;
    press(client, &['?']).await;
    wait_for(client, "#shortcut-sheet").await;
    let listed: Vec<(String, String)> = serde_json::from_value(
        client
            .execute(
                "const out = []; let where = '';
                 for (const e of document.querySelectorAll('#shortcut-sheet h3, #shortcut-sheet dt')) {
                   if (e.tagName === 'H3') where = e.textContent.trim();
                   else out.push([where, e.textContent.trim()]);
                 }
                 return out;",
                vec![],
            )
            .await
            .unwrap(),
    )
    .unwrap();
    for (desk, key) in [
        ("Delivery", "B"),
        ("Delivery", "[ ]"),
        ("Delivery", "E"),
        ("Delivery", "F2 / Delete"),
        ("Print batch", "F2 / Delete"),
        ("Print batch", "T"),
        ("Print batch", "O / F / U"),
        ("Print batch", "J K"),
        ("Scanned sheets' review", "Backspace or 0"),
        ("Results (administrators)", "H / G / X"),
        ("Results (administrators)", "T"),
        ("Results (administrators)", "Delete"),
        ("Results (administrators)", "Shift+Delete"),
        ("Queue", "B"),
        ("Queue", "G"),
        ("Queue", "F / X"),
        ("Content", "E"),
        ("Flags", "R / T"),
        ("Scoring", "Ctrl+F"),
    ] {
        assert!(
            listed.iter().any(|(d, k)| d == desk && k == key),
            "{key} under {desk} in: {listed:?}"
        );
    }
    session.screenshot("shortcut-sheet").await;
    press(client, &[Key::Escape.into()]).await;
    for _ in 0..50 {
        if client.find(Locator::Css("#shortcut-sheet")).await.is_err() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("Esc did not close the sheet");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctrl_backspace_in_a_comment_deletes_a_word_and_releasing_typed_work_asks_first() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    let api = Api::of(&session).await;
    press(client, &['n']).await;
    let task = shown_task(client).await;
    let maxima = dimension_maxima(&api, &task).await;
    score_all_by_keyboard(client, &maxima).await;

    // C: the selected dimension's comment. Ctrl+Backspace deletes the last word only.
    press(client, &['c']).await;
    press(client, &"Good work".chars().collect::<Vec<_>>()).await;
    ctrl(client, Key::Backspace.into()).await;
    let comment = client
        .execute("return document.activeElement.value", vec![])
        .await
        .unwrap();
    assert_eq!(comment.as_str(), Some("Good "), "one word deleted");
    assert!(client.find(Locator::Id("release-confirm")).await.is_err());
    assert_eq!(shown_task(client).await, task, "still scoring");
    assert_eq!(task_status(&api, &task).await, 1, "still claimed");

    // Outside the field, Ctrl+Backspace asks first; Esc keeps scoring.
    press(client, &[Key::Escape.into()]).await;
    ctrl(client, Key::Backspace.into()).await;
    wait_for(client, "#release-confirm").await;
    assert_eq!(focused_id(client).await, "release-keep-scoring");
    session.screenshot("release-asks-first").await;
    press(client, &[Key::Escape.into()]).await;
    assert!(client.find(Locator::Id("release-confirm")).await.is_err());
    assert_eq!(task_status(&api, &task).await, 1);

    // Confirmed (Ctrl+Backspace again), the task goes back; the work stays here.
    ctrl(client, Key::Backspace.into()).await;
    wait_for(client, "#release-confirm").await;
    ctrl(client, Key::Backspace.into()).await;
    let (question, result) = &task;
    wait_for(
        client,
        &format!("#kept-drafts li[data-question='{question}'][data-result='{result}']"),
    )
    .await;
    assert_eq!(task_status(&api, &task).await, 0, "released");

    // U resumes it, claimed again, with the scores and the comment.
    press(client, &['u']).await;
    assert_eq!(shown_task(client).await, task);
    let total: i64 = maxima.iter().sum();
    wait_for(client, &format!("#overall-score[data-score='{total}']")).await;
    let comment = wait_for(client, "#scoring-view .dimensions li:last-child textarea").await;
    assert_eq!(
        comment.prop("value").await.unwrap().as_deref(),
        Some("Good ")
    );
    assert_eq!(task_status(&api, &task).await, 1);
    session.close().await;
}
