//! Issue 5, end to end in the real window: the queue, taking a task, the markup and
//! a text answer, then a scanned answer; every dimension scored and the task
//! submitted with the keyboard alone; the participant's Result checked through the
//! API of the app's own embedded server.

use fantoccini::key::Key;
use fantoccini::Locator;
use serde_json::Value;

use crate::support::{
    another_client_saves, bring_to_head, ctrl, dimension_maxima, press, score_all_by_keyboard,
    scoring_mid_edit, shift, take_with_keyboard, task_status, total_score, wait_for, Api,
    DesktopSession,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scorer_takes_scores_and_submits_tasks_with_the_keyboard_alone() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#group-counts tbody tr").await;
    let api = Api::of(&session).await;
    session.screenshot("queue").await;

    // Per group: the tasks a scorer can take (Status 0, the question has a rubric)
    // and the Saved ones (2).
    let first_group = wait_for(client, "#group-counts tbody tr").await;
    let group = first_group.attr("data-group").await.unwrap().unwrap();
    for (column, status) in [
        ("to-score", "Status eq 0 and Question/Rubric/any()"),
        ("saved", "Status eq 2"),
    ] {
        let shown: i64 = first_group
            .find(Locator::Css(&format!(".{column}")))
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
            .parse()
            .unwrap();
        let counted = api
            .count(&format!("Group/Name eq '{group}' and {status}"))
            .await;
        assert_eq!(shown, counted, "{column} of {group}");
    }

    // A typed answer: markup and text shown, scored and submitted by keyboard.
    let text_task = bring_to_head(&api, "text/").await;
    let before = total_score(&api, text_task.1).await;
    take_with_keyboard(client, &text_task).await;
    let markup = wait_for(client, "#question-markup")
        .await
        .text()
        .await
        .unwrap();
    assert!(markup.len() > 20, "the question is shown: {markup}");
    let answer = wait_for(client, "#answer-text").await.text().await.unwrap();
    assert!(!answer.trim().is_empty(), "the typed answer is shown");
    assert_eq!(
        task_status(&api, &text_task).await,
        1,
        "taking the task locks it"
    );
    let maxima = dimension_maxima(&api, &text_task).await;
    // Beside each dimension's keys, what earns each score, as the rubric says.
    let rubric = api
        .get(&format!(
            "ScoringTasks(QuestionID={}L,ResultID={})/ScoringResult",
            text_task.0, text_task.1
        ))
        .await["value"][0]["RubricID"]
        .clone();
    let levels = api
        .get(&format!(
            "DimensionLevels?$filter=RubricID eq {rubric}&$orderby=Order,Score"
        ))
        .await;
    let levels = levels["value"].as_array().unwrap();
    assert!(!levels.is_empty(), "the demo's typed rubrics have levels");
    let shown = client
        .execute(
            "return [...document.querySelectorAll('.levels li')].map(li => li.textContent.trim())",
            vec![],
        )
        .await
        .unwrap();
    let expected: Vec<String> = levels
        .iter()
        .map(|level| {
            format!(
                "{} {}",
                level["Score"],
                level["Description"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(shown, serde_json::json!(expected));
    score_all_by_keyboard(client, &maxima).await;
    // The level of each score given is the one highlighted.
    let chosen = client
        .execute(
            "return [...document.querySelectorAll('.levels li.chosen')].map(li => Number(li.dataset.score))",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(chosen, serde_json::json!(maxima));
    session.screenshot("scoring-text-answer").await;
    ctrl(client, Key::Enter.into()).await;
    wait_for(client, "#last-outcome").await;
    let scored: i64 = maxima.iter().sum();
    assert_eq!(task_status(&api, &text_task).await, 3);
    assert_eq!(
        total_score(&api, text_task.1).await,
        before + scored,
        "the participant's Result gained the score"
    );

    // A scanned answer: the image is shown, zoomed and rotated by keyboard, scored.
    let image_task = bring_to_head(&api, "image/").await;
    take_with_keyboard(client, &image_task).await;
    let image = wait_for(client, "#answer-image").await;
    let loaded = client
        .execute(
            "return arguments[0].complete && arguments[0].naturalWidth > 0",
            vec![serde_json::to_value(&image).unwrap()],
        )
        .await
        .unwrap();
    assert_eq!(loaded, Value::Bool(true), "the scan is decoded and shown");
    // WebKit decodes large images off the main thread: let it paint before the picture.
    client
        .execute_async(
            "const [image, done] = arguments; image.decode().then(() => requestAnimationFrame(() => requestAnimationFrame(() => done(true))), () => done(false));",
            vec![serde_json::to_value(&image).unwrap()],
        )
        .await
        .unwrap();
    session.screenshot("scoring-image-answer").await;
    // Fitted to the stage's width, at the top of the page.
    let start = viewer_geometry(client).await;
    assert_eq!(start.fit, "width");
    assert!(
        (start.page_width - start.stage_width).abs() <= 1.0,
        "{start:?}"
    );
    assert_eq!(start.y, 0.0, "the top of the page first");
    // The stage reaches down to the window's foot.
    let foot = client
        .execute(
            "return window.innerHeight - document.getElementById('answer-stage').getBoundingClientRect().bottom",
            vec![],
        )
        .await
        .unwrap()
        .as_f64()
        .unwrap();
    assert!(
        (0.0..=40.0).contains(&foot),
        "{foot} px under the stage: {start:?}"
    );
    // Shift+↓ shows most of the next screenful (or the rest of the page).
    shift(client, Key::Down.into()).await;
    let rest = (start.page_height - start.stage_height).max(0.0);
    let expected = -(0.8 * start.stage_height).min(rest).round();
    let moved = viewer_geometry(client).await;
    assert!(
        (moved.y - expected).abs() <= 1.0,
        "moved to {} for {expected}",
        moved.y
    );
    shift(client, Key::Up.into()).await;
    // + zooms about the top middle: the page's top stays at the stage's top.
    press(client, &['+']).await;
    let zoomed = viewer_geometry(client).await;
    assert!(zoomed.zoom_text.starts_with("125%"), "{zoomed:?}");
    assert_eq!(zoomed.y, 0.0);
    assert!((zoomed.page_width - 1.25 * start.page_width).abs() <= 1.0);
    assert!(
        (zoomed.x + start.stage_width / 8.0).abs() <= 1.0,
        "the middle stays: {zoomed:?}"
    );
    // F fits again; F once more fits the whole page.
    press(client, &['f']).await;
    assert_eq!(viewer_geometry(client).await.page_width, start.page_width);
    press(client, &['f']).await;
    let page = viewer_geometry(client).await;
    assert_eq!(page.fit, "page");
    assert!(page.page_height <= page.stage_height + 1.0, "{page:?}");
    let scrolled = client
        .execute("return window.scrollY", vec![])
        .await
        .unwrap();
    assert_eq!(
        scrolled.as_f64(),
        Some(0.0),
        "the keys moved the scan, not the page"
    );
    session.screenshot("scan-whole-page").await;
    // O turns clockwise, Shift+O back and past: a quarter turn each, both ways.
    press(client, &['o']).await;
    wait_for(client, "#answer-image[data-rotation='90']").await;
    press(client, &['O', 'O']).await;
    wait_for(client, "#answer-image[data-rotation='270']").await;
    let maxima = dimension_maxima(&api, &image_task).await;
    score_all_by_keyboard(client, &maxima).await;
    ctrl(client, 's').await;
    wait_for(client, "#last-outcome").await;
    assert_eq!(
        task_status(&api, &image_task).await,
        2,
        "saved for moderation"
    );
    session.screenshot("queue-after-scoring").await;
    session.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_conflicting_save_by_another_client_shows_the_conflict_view_and_loses_nothing() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    let (api, task, mine) = scoring_mid_edit(&session).await;

    // Meanwhile a moderator saves the same ScoringResult through the API.
    let path = another_client_saves(&api, &task, 1, "Moderator: see me").await;

    // The scorer submits: the app shows both versions instead of overwriting either.
    ctrl(client, Key::Enter.into()).await;
    wait_for(client, "#conflict-view").await;
    let comments_row = wait_for(client, "#conflict-view tr[data-field='comments'] td.stored")
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(comments_row, "Moderator: see me");
    session.screenshot("conflict").await;
    assert_eq!(
        task_status(&api, &task).await,
        1,
        "nothing was submitted yet"
    );

    // Enter keeps the scorer's version, re-applied on top of the stored revision.
    press(client, &[Key::Enter.into()]).await;
    wait_for(client, "#last-outcome").await;
    let stored = api.get(&path).await;
    assert_eq!(stored["Score"], mine.iter().sum::<i64>());
    let dimensions = api.get(&format!("{path}/DimensionScores")).await;
    let scores: Vec<i64> = dimensions["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["Score"].as_i64().unwrap())
        .collect();
    assert_eq!(scores, mine, "the scorer's dimension scores are kept");
    assert_eq!(task_status(&api, &task).await, 3);
    session.close().await;
}

/// Where the scan sits in the viewer, as the window lays it out.
#[derive(Debug)]
struct ViewerGeometry {
    stage_width: f64,
    stage_height: f64,
    page_width: f64,
    page_height: f64,
    x: f64,
    y: f64,
    fit: String,
    zoom_text: String,
}

async fn viewer_geometry(client: &fantoccini::Client) -> ViewerGeometry {
    let values = client
        .execute(
            "const s = document.getElementById('answer-stage'); const p = document.getElementById('answer-page'); \
             return [s.clientWidth, s.clientHeight, p.offsetWidth, p.offsetHeight, Number(p.dataset.x), Number(p.dataset.y), p.dataset.fit, document.getElementById('image-zoom').textContent];",
            vec![],
        )
        .await
        .unwrap();
    let number = |i: usize| values[i].as_f64().unwrap();
    ViewerGeometry {
        stage_width: number(0),
        stage_height: number(1),
        page_width: number(2),
        page_height: number(3),
        x: number(4),
        y: number(5),
        fit: values[6].as_str().unwrap().to_owned(),
        zoom_text: values[7].as_str().unwrap().to_owned(),
    }
}
