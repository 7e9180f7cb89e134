//! An answer group marked at once, in the real window, keyboard only: a typed
//! essay whose answer many others gave (the demo's common answer) is taken; the
//! scoring view says how many open scripts are alike (as `AnswersAlike` has
//! them); `A` lists them and `J` reads one (its text the answer's `$value`);
//! `Esc` goes back, every dimension is scored, and `A` then `Ctrl+Enter`
//! submits the script and applies its marks to the group: each member is then
//! Scored (3) with the same dimension scores, and the queue says how many.

use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use serde_json::Value;

use crate::support::{
    bring_to_head_where, ctrl, dimension_maxima, press, score_all_by_keyboard, take_with_keyboard,
    task_status, wait_for, Api, DesktopSession,
};

async fn alike(api: &Api, (question, result): &(String, i64)) -> Vec<i64> {
    api.get(&format!(
        "AnswersAlike?QuestionID={question}L&ResultID={result}"
    ))
    .await["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["ResultID"].as_i64().unwrap())
        .collect()
}

/// The dimension scores of a task, in order.
async fn dimension_scores(api: &Api, (question, result): &(String, i64)) -> Vec<Value> {
    let scoring = api
        .get(&format!(
            "ScoringTasks(QuestionID={question}L,ResultID={result})/ScoringResult"
        ))
        .await;
    let rubric = scoring["value"][0]["RubricID"].as_i64().unwrap();
    api.get(&format!(
        "ScoringResults(QuestionID={question}L,RubricID={rubric},ResultID={result})/DimensionScores?$orderby=Order"
    ))
    .await["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["Score"].clone())
        .collect()
}

async fn gone(client: &Client, css: &str) -> bool {
    for _ in 0..50 {
        if client.find(Locator::Css(css)).await.is_err() {
            return true;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_marker_marks_an_answer_group_at_once_and_each_member_is_scored() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    let api = Api::of(&session).await;

    // The newest open typed essay with answers alike; the tasks before it are
    // saved away by "another scorer", so its group is read after that.
    let mut grouped = std::collections::BTreeSet::new();
    for task in crate::support::queue(&api).await {
        let media = task["Answer"]["odata.mediaContentType"]
            .as_str()
            .unwrap_or("");
        if !media.starts_with("text/plain") {
            continue;
        }
        let key = (
            task["QuestionID"].as_str().unwrap().to_owned(),
            task["ResultID"].as_i64().unwrap(),
        );
        if !alike(&api, &key).await.is_empty() {
            grouped.insert(key);
        }
    }
    let mine = bring_to_head_where(&api, |t| {
        grouped.contains(&(
            t["QuestionID"].as_str().unwrap().to_owned(),
            t["ResultID"].as_i64().unwrap(),
        ))
    })
    .await;
    let members = alike(&api, &mine).await;
    assert!(!members.is_empty(), "the demo has answers alike");
    take_with_keyboard(client, &mine).await;
    wait_for(
        client,
        &format!("#answers-alike-button[data-alike='{}']", members.len()),
    )
    .await;

    // A: the group, as the API has it; J reads the second member's answer.
    press(client, &['a']).await;
    wait_for(client, "#answer-group li[data-result]").await;
    let listed = client
        .find_all(Locator::Css("#answer-group li[data-result]"))
        .await
        .unwrap();
    let mut shown_ids = Vec::new();
    for row in &listed {
        shown_ids.push(
            row.attr("data-result")
                .await
                .unwrap()
                .unwrap()
                .parse::<i64>()
                .unwrap(),
        );
    }
    assert_eq!(shown_ids, members);
    let at = usize::from(members.len() > 1);
    for _ in 0..at {
        press(client, &['j']).await;
    }
    let member = members[at];
    let answer = &api
        .get(&format!(
            "ScoringTasks(QuestionID={}L,ResultID={member})?$expand=Answer",
            mine.0
        ))
        .await["Answer"];
    let expected = api
        .get_text(&format!(
            "Answers(QuestionID={}L,ResultID={member},Occurrence={},BlockNumber={})/$value",
            mine.0, answer["Occurrence"], answer["BlockNumber"]
        ))
        .await;
    let shown = wait_for(
        client,
        &format!("#answer-group-answer[data-result='{member}'] #answer-group-text"),
    )
    .await
    .text()
    .await
    .unwrap();
    assert_eq!(shown.trim(), expected.trim());
    session.screenshot("answer-group").await;

    // Esc, score every dimension, then A and Ctrl+Enter: submitted and applied.
    press(client, &[Key::Escape.into()]).await;
    assert!(gone(client, "#answer-group").await, "closed");
    let maxima = dimension_maxima(&api, &mine).await;
    score_all_by_keyboard(client, &maxima).await;
    press(client, &['a']).await;
    wait_for(client, "#answer-group li[data-result]").await;
    ctrl(client, Key::Enter.into()).await;
    let outcome = wait_for(client, "#last-outcome").await;
    let said = outcome.text().await.unwrap();
    let applied = if members.len() == 1 {
        "Applied to 1 answer alike.".to_owned()
    } else {
        format!("Applied to {} answers alike.", members.len())
    };
    assert!(said.contains(&applied), "{said}");
    session.screenshot("answer-group-applied").await;

    assert_eq!(task_status(&api, &mine).await, 3);
    let given = dimension_scores(&api, &mine).await;
    let expected_scores: Vec<Value> = maxima.iter().map(|m| Value::from(*m)).collect();
    assert_eq!(given, expected_scores);
    for member in &members {
        let task = (mine.0.clone(), *member);
        assert_eq!(task_status(&api, &task).await, 3, "{task:?}");
        assert_eq!(dimension_scores(&api, &task).await, given, "{task:?}");
    }
    // The queue no longer offers them.
    assert!(alike(&api, &mine).await.is_empty());
}
