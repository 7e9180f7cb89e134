//! Double-blind second marking in the real window, keyboard only. A question gets a
//! plan that double-marks every script. The window's marker submits one (Ctrl+Enter)
//! and is told it is kept for a second marking; on the second-marking desk (S) he
//! never sees it offered, but sees a script another marker marked first: Enter takes
//! it, nothing of the first marking is on the page, digits score it far from the
//! first, and Ctrl+Enter sends it to a resolution. A third script two other markers
//! marked apart waits for a resolution: the window's lead (an administrator) takes
//! it and sees both earlier markings, gives it back (Ctrl+Backspace), takes it again,
//! leaves it half marked (Esc: kept on the server), goes on with it, and submits the
//! final mark, which the task and the participant's result then carry.

use fantoccini::key::Key;
use serde_json::{json, Value};

use crate::support::{
    bring_to_head, ctrl, dimension_maxima, mark_through_the_feeds, press, score_all_by_keyboard,
    take_with_keyboard, task_status, total_score, wait_for, Api, DesktopSession,
};

/// A comment only the first marker writes: it must never reach a second marker's page.
const FIRST_MARKERS_WORDS: &str = "first-marker-only-7Q2";

type Task = (String, i64);

/// The question's other open tasks (not `except`), oldest key first.
async fn open_tasks_of(api: &Api, question: &str, except: i64) -> Vec<Task> {
    let tasks = api
        .get(&format!(
            "ScoringTasks?$filter=Status%20eq%200%20and%20QuestionID%20eq%20{question}L&$top=20"
        ))
        .await;
    tasks["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (question.to_owned(), t["ResultID"].as_i64().unwrap()))
        .filter(|(_, result)| *result != except)
        .collect()
}

/// A marker at another desk scores `task` through the spec's PUTs and submits it
/// (Status 3): the plan keeps it as the first marking.
async fn first_marking(marker: &Api, task: &Task, scores: &[i64]) {
    mark_through_the_feeds(marker, task, scores, FIRST_MARKERS_WORDS).await;
    let (question, result) = task;
    let task_path = format!("ScoringTasks(QuestionID={question}L,ResultID={result})");
    assert_eq!(
        marker.get(&task_path).await["Status"],
        2,
        "kept for a second marking"
    );
}

/// Another marker takes the round `task` waits in and submits `scores` through the feeds.
async fn marking_by(marker: &Api, (question, result): &Task, scores: &[i64]) {
    let marking = marker
        .post(
            "Markings",
            json!({"QuestionID": question, "ResultID": result}),
        )
        .await;
    let id = &marking["ID"];
    let rows = marker.get(&format!("Markings({id})/Scores")).await;
    for (row, score) in rows["value"].as_array().unwrap().iter().zip(scores) {
        let path = format!("MarkingScores(MarkingID={id},Order={})", row["Order"]);
        let mut body = row.clone();
        body["Score"] = json!(score);
        assert!(marker.put(&path, body).await.is_success(), "{path}");
    }
    let mut body = marker.get(&format!("Markings({id})")).await;
    body["IsSubmitted"] = json!(true);
    body["Comments"] = json!(FIRST_MARKERS_WORDS);
    assert!(marker
        .put(&format!("Markings({id})"), body)
        .await
        .is_success());
}

/// The text of `css` once it appears.
async fn text_of(client: &fantoccini::Client, css: &str) -> String {
    wait_for(client, css).await.text().await.unwrap()
}

fn row_of((question, result): &Task, kind: &str) -> String {
    format!(
        "#second-rounds li[data-kind='{kind}'][data-question='{question}'][data-result='{result}']"
    )
}

/// Highlights `row` with J, from the top of the list.
async fn highlight(client: &fantoccini::Client, row: &str) {
    for _ in 0..10 {
        if client
            .find(fantoccini::Locator::Css(&format!("{row}.selected")))
            .await
            .is_ok()
        {
            return;
        }
        press(client, &['j']).await;
    }
    wait_for(client, &format!("{row}.selected")).await;
}

async fn markings_of(api: &Api, (question, result): &Task) -> Vec<Value> {
    api.get(&format!(
        "Markings?$filter=QuestionID%20eq%20{question}L%20and%20ResultID%20eq%20{result}&$expand=Scores&$orderby=Round"
    ))
    .await["value"]
        .as_array()
        .unwrap()
        .clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_script_is_marked_twice_blind_and_resolved_by_keyboard() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    let api = Api::of(&session).await;
    let one = api.new_account(&session, "marker-one", "scorer").await;
    let two = api.new_account(&session, "marker-two", "scorer").await;
    let mine = bring_to_head(&api, "text/").await;
    let question = mine.0.clone();
    let maxima = dimension_maxima(&api, &mine).await;
    let zeros = vec![0; maxima.len()];
    assert!(maxima.iter().sum::<i64>() > 0);
    let others = open_tasks_of(&api, &question, mine.1).await;
    assert!(
        others.len() >= 2,
        "the demo's question has tasks to double-mark"
    );
    let (blind_one, resolved) = (others[0].clone(), others[1].clone());
    api.post(
        "MarkingPlans",
        json!({"QuestionID": question, "Share": 100, "Tolerance": 0, "Rule": "resolution"}),
    )
    .await;

    // The window's marker submits: kept for a second marking, and told so.
    take_with_keyboard(client, &mine).await;
    score_all_by_keyboard(client, &maxima).await;
    ctrl(client, Key::Enter.into()).await;
    let said = text_of(client, "#last-outcome").await;
    assert!(said.contains("kept for a second marking"), "{said}");
    assert_eq!(task_status(&api, &mine).await, 2);
    let kept = markings_of(&api, &mine).await;
    assert_eq!(kept.len(), 1);
    assert_eq!(
        (kept[0]["Round"].as_i64(), kept[0]["MarkedBy"].as_str()),
        (Some(1), Some("desktop"))
    );

    // Another marker's first marking; the desk offers it, never the window's own.
    first_marking(&one, &blind_one, &maxima).await;
    press(client, &['s']).await;
    wait_for(client, &row_of(&blind_one, "waiting")).await;
    assert!(
        client
            .find(fantoccini::Locator::Css(&row_of(&mine, "waiting")))
            .await
            .is_err(),
        "a marker is never offered a script he marked"
    );
    session.screenshot("second-marking-desk").await;
    highlight(client, &row_of(&blind_one, "waiting")).await;
    press(client, &[Key::Enter.into()]).await;
    wait_for(
        client,
        &format!(
            "#marking-view[data-round='2'][data-result='{}']",
            blind_one.1
        ),
    )
    .await;
    wait_for(client, "#answer-text").await;
    let page = client.source().await.unwrap();
    assert!(
        !page.contains(FIRST_MARKERS_WORDS),
        "the second marker reads nothing of the first"
    );
    assert!(client
        .find(fantoccini::Locator::Css("#earlier-markings"))
        .await
        .is_err());
    // Far from the first marking: every dimension 0.
    let keys: Vec<char> = zeros.iter().map(|_| '0').collect();
    press(client, &keys).await;
    wait_for(client, "#marking-total[data-score='0']").await;
    session.screenshot("second-marking").await;
    ctrl(client, Key::Enter.into()).await;
    let said = text_of(client, "#marking-outcome").await;
    assert!(said.contains("a lead marker resolves"), "{said}");
    let marked = markings_of(&api, &blind_one).await;
    assert_eq!(marked.len(), 2);
    assert_eq!(
        (marked[1]["MarkedBy"].as_str(), marked[1]["Score"].as_i64()),
        (Some("desktop"), Some(0))
    );
    assert_eq!(
        task_status(&api, &blind_one).await,
        2,
        "waits for a resolution"
    );

    // Two other markers apart: the window's lead resolves it and sees both markings.
    first_marking(&one, &resolved, &maxima).await;
    marking_by(&two, &resolved, &zeros).await;
    press(client, &['r']).await;
    let waiting = row_of(&resolved, "waiting");
    wait_for(client, &format!("{waiting}[data-round='3']")).await;
    highlight(client, &waiting).await;
    press(client, &[Key::Enter.into()]).await;
    wait_for(
        client,
        &format!(
            "#marking-view[data-round='3'][data-result='{}']",
            resolved.1
        ),
    )
    .await;
    let total: i64 = maxima.iter().sum();
    wait_for(
        client,
        &format!("#earlier-markings li[data-round='1'][data-score='{total}']"),
    )
    .await;
    wait_for(
        client,
        "#earlier-markings li[data-round='2'][data-score='0']",
    )
    .await;
    let beside = wait_for(client, "#marking-view .dimension p.earlier")
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(
        beside,
        format!("Round 1: {} · Round 2: 0", maxima[0]),
        "each dimension says what the markings gave it"
    );
    session.screenshot("resolution").await;

    // Given back untouched: offered again.
    ctrl(client, Key::Backspace.into()).await;
    let said = text_of(client, "#marking-outcome").await;
    assert!(said.contains("given back"), "{said}");
    wait_for(client, &waiting).await;
    assert_eq!(
        markings_of(&api, &resolved).await.len(),
        2,
        "the taken round went with it"
    );

    // Taken again, half marked, left for later: kept on the server, and gone on with.
    highlight(client, &waiting).await;
    press(client, &[Key::Enter.into()]).await;
    wait_for(client, "#marking-view[data-round='3']").await;
    let first = char::from_digit(maxima[0] as u32, 10).unwrap();
    press(client, &[first]).await;
    wait_for(client, "#marking-kept[data-kept='true']").await;
    press(client, &[Key::Escape.into()]).await;
    let row = row_of(&resolved, "mine");
    wait_for(client, &row).await;
    let third = markings_of(&api, &resolved).await;
    assert_eq!(
        third[2]["Scores"][0]["Score"].as_i64(),
        Some(maxima[0]),
        "kept on the server"
    );
    assert_eq!(third[2]["IsSubmitted"], false);
    highlight(client, &row).await;
    press(client, &[Key::Enter.into()]).await;
    wait_for(
        client,
        &format!("#marking-total[data-score='{}']", maxima[0]),
    )
    .await;
    let rest: Vec<char> = maxima[1..]
        .iter()
        .map(|m| char::from_digit(*m as u32, 10).unwrap())
        .collect();
    press(client, &rest).await;
    wait_for(client, &format!("#marking-total[data-score='{total}']")).await;
    let before = total_score(&api, resolved.1).await;
    ctrl(client, Key::Enter.into()).await;
    let said = text_of(client, "#marking-outcome").await;
    assert!(
        said.contains(&format!("your resolution is the final mark ({total})")),
        "{said}"
    );
    assert_eq!(task_status(&api, &resolved).await, 3);
    let scoring = api
        .get(&format!(
            "ScoringTasks(QuestionID={}L,ResultID={})/ScoringResult",
            resolved.0, resolved.1
        ))
        .await;
    assert_eq!(scoring["value"][0]["Score"].as_i64(), Some(total));
    assert_eq!(
        total_score(&api, resolved.1).await,
        before + total,
        "the result is rescored with the final mark"
    );
    wait_for(client, "#no-second-rounds, #second-rounds li").await;
}
