//! The comment bank in the real window, keyboard only: a comment another scorer
//! banked is inserted with Ctrl+K and its number, a comment written here is added
//! to the bank from its field, and what is submitted and banked is what the server
//! stores.

use fantoccini::key::Key;
use fantoccini::Client;

use crate::support::{
    bring_to_head, ctrl, dimension_maxima, press, score_all_by_keyboard, take_with_keyboard,
    wait_for, Api, DesktopSession,
};

/// The value of the text field `id`.
async fn field_value(client: &Client, id: &str) -> String {
    wait_for(client, &format!("#{id}"))
        .await
        .prop("value")
        .await
        .unwrap()
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_banked_comment_is_inserted_by_key_and_a_written_one_is_banked() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    let api = Api::of(&session).await;
    let task = bring_to_head(&api, "text/").await;
    let (question, result) = &task;

    // Another scorer of the area banked a comment for the rubric's first dimension.
    // Long enough to need several lines in the comment field (issue 33, defect 14:
    // a one-line field hid it).
    let shared = "Names every force, with its direction, and says which of them balance: \
                  the weight against the normal force, the push against friction. Says \
                  too what would change on a slope, which the question did not ask.";
    let rubric = api
        .get(&format!("Questions({question}L)/Rubric?$expand=Dimensions"))
        .await;
    let first_order = rubric["value"][0]["Dimensions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["Order"].as_i64().unwrap())
        .min()
        .unwrap();
    api.post(
        "BankedComments",
        serde_json::json!({"QuestionID": question, "DimensionOrder": first_order, "Text": shared}),
    )
    .await;

    // Ctrl+K on the page: the selected (first) dimension's bank; 1 inserts it.
    take_with_keyboard(client, &task).await;
    ctrl(client, 'k').await;
    wait_for(client, "#comment-bank button[data-id]:focus").await;
    session.screenshot("comment-bank").await;
    press(client, &['1']).await;
    assert!(
        client
            .find(fantoccini::Locator::Id("comment-bank"))
            .await
            .is_err(),
        "closed"
    );
    assert_eq!(
        field_value(client, &format!("comment-{first_order}")).await,
        shared
    );
    // All of it in view: the field grew to its text, nothing scrolled away.
    let (shown, whole): (i64, i64) = serde_json::from_value(
        client
            .execute(
                "const f = document.getElementById(arguments[0]); return [f.clientHeight, f.scrollHeight];",
                vec![serde_json::json!(format!("comment-{first_order}"))],
            )
            .await
            .unwrap(),
    )
    .unwrap();
    assert!(
        shown >= whole,
        "the comment field shows {shown} of its {whole} px"
    );
    assert!(shown > 40, "several lines tall, not one: {shown} px");
    session.screenshot("comment-bank-inserted").await;

    // The digits still score: the bank gave the keyboard back to the page.
    let maxima = dimension_maxima(&api, &task).await;
    score_all_by_keyboard(client, &maxima).await;

    // M, words, then Ctrl+K in the field: A offers them, Ctrl+Enter banks them.
    press(client, &['m']).await;
    let overall = "Well argued from first principles.";
    press(client, &overall.chars().collect::<Vec<_>>()).await;
    ctrl(client, 'k').await;
    wait_for(client, "#comment-bank-empty").await;
    press(client, &['a']).await;
    assert_eq!(field_value(client, "bank-text").await, overall);
    ctrl(client, Key::Enter.into()).await;
    wait_for(client, "#comment-bank button[data-id]").await;
    press(client, &[Key::Escape.into()]).await;
    assert!(client
        .find(fantoccini::Locator::Id("comment-bank"))
        .await
        .is_err());
    let focused = client
        .execute("return document.activeElement.id", vec![])
        .await
        .unwrap();
    assert_eq!(
        focused.as_str(),
        Some("overall-comments"),
        "back in the field"
    );

    // Submitted: the inserted and the typed comments are stored; the bank has both.
    press(client, &[Key::Escape.into()]).await;
    ctrl(client, Key::Enter.into()).await;
    wait_for(client, "#last-outcome").await;
    let scoring = api
        .get(&format!(
            "ScoringTasks(QuestionID={question}L,ResultID={result})/ScoringResult"
        ))
        .await["value"][0]
        .clone();
    assert_eq!(scoring["Comments"], overall);
    let first = api
        .get(&format!(
            "ScoringResults(QuestionID={question}L,RubricID={},ResultID={result})/DimensionScores?$filter=Order eq {first_order}",
            scoring["RubricID"]
        ))
        .await;
    assert_eq!(first["value"][0]["Comment"], shared);
    let bank = api
        .get(&format!(
            "BankedComments?$filter=QuestionID eq {question}L&$orderby=ID"
        ))
        .await;
    let banked: Vec<(serde_json::Value, String, String)> = bank["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["DimensionOrder"].clone(),
                c["Text"].as_str().unwrap().to_owned(),
                c["CreatedBy"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(banked.len(), 2, "{banked:?}");
    assert_eq!(
        banked[1],
        (
            serde_json::Value::Null,
            overall.to_owned(),
            "desktop".to_owned()
        )
    );
    session.close().await;
}
