//! The same participant's other answers, in the real window, keyboard only: a
//! typed answer whose result has other answers is taken and half scored; `P` lists
//! the result's other tasks (as the API has them, the one being marked left out),
//! `J` reads a typed one (its text the answer's `$value`), `Esc` goes back to
//! marking with the score as it was, nothing claimed.

use fantoccini::{Client, Locator};
use serde_json::Value;

use crate::support::{
    bring_to_head_where, dimension_maxima, press, queue, take_with_keyboard, wait_for, Api,
    DesktopSession,
};

/// The result's tasks, in the order of their questions' IDs, with their answers.
async fn tasks_of(api: &Api, result: i64) -> Vec<Value> {
    api.get(&format!(
        "ScoringTasks?$filter=ResultID%20eq%20{result}&$expand=Answer&$orderby=QuestionID"
    ))
    .await["value"]
        .as_array()
        .unwrap()
        .clone()
}

fn is_text(task: &Value) -> bool {
    task["Answer"]["odata.mediaContentType"]
        .as_str()
        .is_some_and(|m| m.starts_with("text/"))
}

async fn text_of(client: &Client, css: &str) -> String {
    wait_for(client, css).await.text().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_marker_reads_the_participants_other_answers_and_goes_back_to_marking() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    let api = Api::of(&session).await;

    // A typed answer to mark whose result has another typed answer.
    let mut wanted = std::collections::BTreeSet::new();
    for task in queue(&api).await.iter().filter(|t| is_text(t)) {
        let result = task["ResultID"].as_i64().unwrap();
        let others = tasks_of(&api, result).await;
        let question = task["QuestionID"].as_str().unwrap();
        if others
            .iter()
            .any(|o| o["QuestionID"] != question && is_text(o))
        {
            wanted.insert((question.to_owned(), result));
        }
    }
    let mine = bring_to_head_where(&api, |t| {
        is_text(t)
            && t["Question"]["Rubric"]
                .as_array()
                .is_some_and(|r| !r.is_empty())
            && wanted.contains(&(
                t["QuestionID"].as_str().unwrap().to_owned(),
                t["ResultID"].as_i64().unwrap(),
            ))
    })
    .await;
    let maxima = dimension_maxima(&api, &mine).await;
    assert!(maxima[0] >= 1);
    take_with_keyboard(client, &mine).await;
    press(client, &['1']).await;
    wait_for(client, "#overall-score[data-score='1']").await;

    // P: the result's other tasks, the one being marked left out.
    press(client, &['p']).await;
    wait_for(client, "#other-answers li[data-question]").await;
    let others: Vec<Value> = tasks_of(&api, mine.1)
        .await
        .into_iter()
        .filter(|t| t["QuestionID"] != mine.0.as_str())
        .collect();
    let listed = client
        .find_all(Locator::Css("#other-answers li[data-question]"))
        .await
        .unwrap();
    assert_eq!(listed.len(), others.len());
    for (row, task) in listed.iter().zip(&others) {
        assert_eq!(
            row.attr("data-question").await.unwrap().as_deref(),
            task["QuestionID"].as_str()
        );
    }

    // J down to the first typed one: its text is the answer's.
    let at = others.iter().position(is_text).unwrap();
    for _ in 0..at {
        press(client, &['j']).await;
    }
    let question = others[at]["QuestionID"].as_str().unwrap();
    let answer = &others[at]["Answer"];
    let expected = api
        .get_text(&format!(
            "Answers(QuestionID={question}L,ResultID={},Occurrence={},BlockNumber={})/$value",
            mine.1, answer["Occurrence"], answer["BlockNumber"]
        ))
        .await;
    let shown = text_of(
        client,
        &format!("#other-answer[data-question='{question}'] #other-answer-text"),
    )
    .await;
    assert_eq!(shown.trim(), expected.trim());
    session.screenshot("other-answers").await;

    // Esc: back to marking, the score as it was, the other task not claimed.
    press(client, &[fantoccini::key::Key::Escape.into()]).await;
    for _ in 0..50 {
        if client.find(Locator::Css("#other-answers")).await.is_err() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(
        client.find(Locator::Css("#other-answers")).await.is_err(),
        "closed"
    );
    wait_for(client, "#overall-score[data-score='1']").await;
    let status = api
        .get(&format!(
            "ScoringTasks(QuestionID={question}L,ResultID={})",
            mine.1
        ))
        .await["Status"]
        .clone();
    assert_eq!(status, others[at]["Status"], "reading claims nothing");
}
