//! Issue 33, defect 2: with a four-dimension rubric the answer scrolled away while
//! the lower dimensions were scored, and the overall comment sat under the pinned
//! Save/Submit bar. The scoring view is two panes that scroll on their own: the
//! answer stays on screen while every dimension is scored, and the foot never
//! covers the field being typed into.

use fantoccini::Client;
use serde_json::Value;

use crate::support::{press, take_with_keyboard, wait_for, Api, DesktopSession};

/// Where an element is in the window, and the window's height.
#[derive(Debug)]
struct Placed {
    top: f64,
    bottom: f64,
    viewport: f64,
}

async fn placed(client: &Client, css: &str) -> Placed {
    let rect = client
        .execute(
            "const r = document.querySelector(arguments[0]).getBoundingClientRect();\
             return [r.top, r.bottom, window.innerHeight];",
            vec![Value::from(css)],
        )
        .await
        .unwrap();
    let at = |i: usize| rect[i].as_f64().unwrap();
    Placed {
        top: at(0),
        bottom: at(1),
        viewport: at(2),
    }
}

/// The first open task of the demo's four-dimension question ("Letter to the
/// council"), brought to the head of the queue by saving the newer tasks through
/// the API, as other scorers would.
async fn four_dimension_task(api: &Api) -> (String, i64) {
    let questions = api
        .get("Questions?$filter=Rubric/any()&$select=QuestionID,Description")
        .await;
    let letter = questions["value"]
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["Description"] == "Letter to the council")
        .expect("the demo's letter question")["QuestionID"]
        .as_str()
        .unwrap()
        .to_owned();
    crate::support::bring_to_head_where(api, |t| t["QuestionID"] == letter.as_str()).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_answer_stays_in_view_and_the_foot_covers_no_field() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#group-counts tbody tr").await;
    let api = Api::of(&session).await;
    let task = four_dimension_task(&api).await;
    take_with_keyboard(client, &task).await;
    let dimensions = client
        .execute(
            "return document.querySelectorAll('#scoring-view .dimension').length",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(dimensions, 4, "the letter's rubric has four dimensions");

    // Each dimension in turn, selected by the previous score: the answer's start
    // stays on screen, and the selected dimension's field is above the foot.
    for order in 1..=4 {
        let answer = placed(client, "#answer-text").await;
        assert!(
            answer.top >= 0.0 && answer.top < answer.viewport - 80.0,
            "dimension {order}: the answer has left the screen: {answer:?}"
        );
        let field = placed(client, &format!("#score-{order}")).await;
        let foot = placed(client, "#scoring-view .footer").await;
        assert!(
            field.top >= 0.0 && field.bottom <= foot.top,
            "dimension {order}: its field {field:?} is off screen or under the foot {foot:?}"
        );
        if order == 4 {
            session.screenshot("scoring-fourth-dimension").await;
        }
        press(client, &['1']).await;
        wait_for(client, &format!("#dimension-{order}[data-score='1']")).await;
    }

    // The overall comment (M): typed in view, never under the foot, however long.
    press(client, &['m']).await;
    let long = "The proposal is clear and the reasons are relevant. ".repeat(6);
    let comments = wait_for(client, "#overall-comments:focus").await;
    comments.send_keys(&long).await.unwrap();
    let field = placed(client, "#overall-comments").await;
    let foot = placed(client, "#scoring-view .footer").await;
    assert!(
        field.top >= 0.0 && field.bottom <= foot.top + 1.0,
        "the overall comment {field:?} is off screen or under the foot {foot:?}"
    );
    let answer = placed(client, "#answer-text").await;
    assert!(
        answer.top >= 0.0 && answer.top < answer.viewport - 80.0,
        "typing the overall comment scrolled the answer away: {answer:?}"
    );
    session.screenshot("scoring-overall-comment").await;
    session.close().await;
}
