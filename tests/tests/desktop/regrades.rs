//! Issue 38 in the real window: a rubric change that regrades marked scripts.
//! Three scripts of a demo essay are marked with full marks through the feeds;
//! the administrator corrects the essay's rubric on the content desk by
//! keyboard, is offered the regrade with the server's count, makes the first
//! dimension's top level worth one less, gives the reason and confirms with
//! Ctrl+Enter; every script moves onto the new rubric with its total and its
//! Result one less.

use fantoccini::key::Key;
use fantoccini::Client;
use serde_json::Value;

use crate::support::{
    ctrl, dimension_maxima, mark_through_the_feeds, press, total_score, type_into, wait_for, Api,
    DesktopSession,
};

/// A demo essay with a rubric and three open tasks, and its assessment.
async fn essay_to_regrade(api: &Api) -> (String, String, Vec<(String, i64)>) {
    let assessments = api.get("Assessments").await;
    for assessment in assessments["value"].as_array().unwrap() {
        let id = assessment["ID"].as_str().unwrap().to_owned();
        let questions = api
            .get(&format!("Assessments({id}L)/Questions?$expand=Rubric"))
            .await;
        for question in questions["value"].as_array().unwrap() {
            if question["QuestionType"] != "essay"
                || question["Rubric"].as_array().is_none_or(Vec::is_empty)
            {
                continue;
            }
            let q = question["QuestionID"].as_str().unwrap().to_owned();
            let open = api
                .get(&format!(
                    "ScoringTasks?$filter=QuestionID eq {q}L and Status eq 0&$top=3"
                ))
                .await;
            let tasks: Vec<(String, i64)> = open["value"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| (q.clone(), t["ResultID"].as_i64().unwrap()))
                .collect();
            if tasks.len() == 3 {
                return (id, q, tasks);
            }
        }
    }
    panic!("the demo has an essay with a rubric and three open tasks");
}

/// Presses `key` until `css` is on screen (at most `most` times).
async fn press_until(client: &Client, key: char, css: &str, most: usize) {
    for _ in 0..most {
        if client.find(fantoccini::Locator::Css(css)).await.is_ok() {
            return;
        }
        press(client, &[key]).await;
        tokio::time::sleep(std::time::Duration::from_millis(150)).await;
    }
    wait_for(client, css).await;
}

async fn scoring_result(api: &Api, (question, result): &(String, i64)) -> Value {
    api.get(&format!(
        "ScoringTasks(QuestionID={question}L,ResultID={result})/ScoringResult"
    ))
    .await["value"][0]
        .clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rubric_corrected_after_marking_regrades_the_marked_scripts_by_keyboard() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    let api = Api::of(&session).await;
    let (assessment, question, tasks) = essay_to_regrade(&api).await;
    let maxima = dimension_maxima(&api, &tasks[0]).await;
    let top = maxima[0];
    assert!(top >= 1, "{maxima:?}");
    let old = scoring_result(&api, &tasks[0]).await["RubricID"]
        .as_i64()
        .unwrap();
    let mut totals = Vec::new();
    for task in &tasks {
        mark_through_the_feeds(&api, task, &maxima, "Full marks.").await;
        totals.push(total_score(&api, task.1).await);
    }

    // The content desk: the essay's assessment, then the essay, then E.
    press(client, &['c']).await;
    wait_for(client, "#rubric-assessment").await;
    press_until(
        client,
        ']',
        &format!("#rubric-assessment[data-id='{assessment}']"),
        40,
    )
    .await;
    press_until(
        client,
        'j',
        &format!("#rubric-questions tr.highlighted[data-id='{question}']"),
        40,
    )
    .await;
    press(client, &['e']).await;
    let name = wait_for(client, "#rubric-name").await;
    let named = name.prop("value").await.unwrap().unwrap_or_default();
    type_into(
        client,
        "rubric-name",
        &format!("{named} (after standardisation)"),
    )
    .await;
    ctrl(client, 's').await;

    // The regrade offered, with the server's count; each score kept as it opens.
    let summary = wait_for(client, "#regrade-summary")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        summary.starts_with(&format!(
            "3 scripts were marked with rubric {old} (3 scored"
        )),
        "{summary}"
    );
    assert_eq!(
        wait_for(client, "#regrade-changes-0")
            .await
            .text()
            .await
            .unwrap(),
        "kept"
    );
    // The first dimension's top level is worth one less; a reason is required.
    type_into(
        client,
        &format!("regrade-score-0-{top}"),
        &(top - 1).to_string(),
    )
    .await;
    let changes = wait_for(client, "#regrade-changes-0")
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(changes, format!("{top}→{}", top - 1));
    assert!(wait_for(client, "#regrade-problems")
        .await
        .text()
        .await
        .unwrap()
        .contains("Say why"));
    type_into(
        client,
        "regrade-reason",
        "Standardisation: the top level needs a second example.",
    )
    .await;
    // Esc leaves the field, a second says the scripts stay; neither regrades nor closes.
    press(client, &[Key::Escape.into(), Key::Escape.into()]).await;
    wait_for(client, "#regrade-leaving").await;
    session.screenshot("content-regrade").await;
    ctrl(client, Key::Enter.into()).await;
    let message = wait_for(client, "#content-message[data-shown='true']")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        message.contains(&format!(
            "3 scripts regraded onto it from rubric {old}: 3 totals changed, 3 results rescored."
        )),
        "{message}"
    );

    // Every script: on the new rubric, one mark less, and its Result with it.
    let current = api.get(&format!("Questions({question}L)/Rubric")).await["value"][0]["ID"]
        .as_i64()
        .unwrap();
    assert_ne!(current, old);
    for (task, before) in tasks.iter().zip(&totals) {
        let now = scoring_result(&api, task).await;
        assert_eq!(now["RubricID"], current);
        assert_eq!(now["Score"], maxima.iter().sum::<i64>() - 1);
        assert_eq!(
            total_score(&api, task.1).await,
            before - 1,
            "result {}",
            task.1
        );
    }
    let audit = api.get("RubricRegrades").await;
    assert_eq!(
        audit["value"][0]["Reason"],
        "Standardisation: the top level needs a second example."
    );
    assert_eq!(audit["value"][0]["Scripts"], 3);
}
