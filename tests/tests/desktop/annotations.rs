//! Annotations in the real window, keyboard only: on a scan, `E` starts
//! annotating, `T` a tick placed at the cursor the arrows moved, `X` a cross,
//! `N` a note typed in its field, `P` a pen stroke drawn with the arrows, `]`
//! and Delete remove one; each is what the server keeps (`Annotations`), at the
//! cursor's pixel of the scan. Submitted and reopened with Ctrl+Z, the marks are
//! on the script again. On a typed answer, `→` moves by words and Shift+`→`
//! selects one: a highlight, a tick and a note land on the characters of those
//! words in the answer's `$value`.

use fantoccini::key::Key;
use fantoccini::Client;
use serde_json::Value;

use crate::support::{
    bring_to_head, ctrl, dimension_maxima, press, score_all_by_keyboard, shift, take_with_keyboard,
    wait_for, Api, DesktopSession,
};

async fn annotations(api: &Api, (question, result): &(String, i64)) -> Vec<Value> {
    api.get(&format!(
        "Annotations?$filter=QuestionID eq {question}L and ResultID eq {result}&$orderby=ID"
    ))
    .await["value"]
        .as_array()
        .unwrap()
        .clone()
}

/// The keyboard cursor's pixel of the scan, as the layer shows it.
async fn cursor(client: &Client) -> String {
    let shown = wait_for(client, "#annotation-cursor").await;
    let x = shown.attr("data-x").await.unwrap().unwrap();
    let y = shown.attr("data-y").await.unwrap().unwrap();
    format!("{x},{y}")
}

async fn marks_shown(client: &Client, count: usize) {
    for _ in 0..100 {
        let shown = client
            .find_all(fantoccini::Locator::Css(
                "#annotation-layer g[data-annotation-id]",
            ))
            .await
            .unwrap();
        if shown.len() == count {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("{count} marks were not shown on the scan");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_marker_annotates_a_scan_and_a_typed_answer_by_keyboard() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    let api = Api::of(&session).await;

    // A scan.
    let scan = bring_to_head(&api, "image/").await;
    take_with_keyboard(client, &scan).await;
    wait_for(client, "#answer-image").await;
    wait_for(client, "#annotation-hint").await;
    press(client, &['e']).await;
    wait_for(client, "#annotation-tools").await;
    press(
        client,
        &['t', Key::Right.into(), Key::Right.into(), Key::Down.into()],
    )
    .await;
    let tick_at = cursor(client).await;
    press(client, &[Key::Enter.into()]).await;
    marks_shown(client, 1).await;
    press(client, &['x', Key::Down.into(), Key::Down.into()]).await;
    let cross_at = cursor(client).await;
    press(client, &[Key::Enter.into()]).await;
    marks_shown(client, 2).await;
    press(client, &['n', Key::Left.into(), Key::Enter.into()]).await;
    let note_at = cursor(client).await;
    wait_for(client, "#annotation-note:focus").await;
    wait_for(client, "#annotation-note")
        .await
        .send_keys("Check the units")
        .await
        .unwrap();
    press(client, &[Key::Enter.into()]).await;
    marks_shown(client, 3).await;
    let stroke_from = cursor(client).await;
    press(
        client,
        &[
            'p',
            Key::Enter.into(),
            Key::Right.into(),
            Key::Right.into(),
            Key::Up.into(),
        ],
    )
    .await;
    let stroke_to = cursor(client).await;
    press(client, &[Key::Enter.into()]).await;
    marks_shown(client, 4).await;
    press(client, &['o']).await;
    session.screenshot("annotations-scan").await;

    let kept = annotations(&api, &scan).await;
    let kinds: Vec<&str> = kept.iter().map(|a| a["Kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["tick", "cross", "note", "pen"]);
    assert_eq!(kept[0]["Points"], tick_at.as_str());
    assert_eq!(kept[1]["Points"], cross_at.as_str());
    assert_eq!(kept[2]["Points"], note_at.as_str());
    assert_eq!(kept[2]["Text"], "Check the units");
    let pen = kept[3]["Points"].as_str().unwrap();
    assert!(
        pen.starts_with(&stroke_from) && pen.ends_with(&stroke_to),
        "{pen}"
    );
    assert_eq!(pen.split(' ').count(), 4, "{pen}");
    assert_ne!(tick_at, cross_at);

    // ] chooses the first, Delete removes it; Esc stops annotating.
    press(client, &[']', Key::Delete.into()]).await;
    marks_shown(client, 3).await;
    assert_eq!(annotations(&api, &scan).await.len(), 3);
    press(client, &[Key::Escape.into()]).await;

    // Submitted, then reopened with Ctrl+Z: the marks are on the script again.
    let maxima = dimension_maxima(&api, &scan).await;
    score_all_by_keyboard(client, &maxima).await;
    ctrl(client, Key::Enter.into()).await;
    wait_for(client, "#last-outcome").await;
    ctrl(client, 'z').await;
    wait_for(
        client,
        &format!(
            "#scoring-view[data-question='{}'][data-result='{}']",
            scan.0, scan.1
        ),
    )
    .await;
    marks_shown(client, 3).await;
    wait_for(client, "#annotation-list li").await;
    ctrl(client, Key::Enter.into()).await;
    wait_for(client, "#last-outcome").await;

    // A typed answer: the second word highlighted, the third ticked and noted.
    let typed = bring_to_head(&api, "text/").await;
    take_with_keyboard(client, &typed).await;
    wait_for(client, "#answer-text").await;
    let answer = &api
        .get(&format!(
            "ScoringTasks(QuestionID={}L,ResultID={})?$expand=Answer",
            typed.0, typed.1
        ))
        .await["Answer"];
    let text = api
        .get_text(&format!(
            "Answers(QuestionID={}L,ResultID={},Occurrence={},BlockNumber={})/$value",
            typed.0, typed.1, answer["Occurrence"], answer["BlockNumber"]
        ))
        .await;
    let words = words_of(&text);
    assert!(words.len() >= 3, "{text}");
    press(client, &['e', Key::Right.into()]).await;
    shift(client, Key::Right.into()).await;
    press(client, &['h', Key::Enter.into()]).await;
    wait_for(client, "#answer-text span.highlighted").await;
    press(client, &['t', Key::Enter.into(), 'n', Key::Enter.into()]).await;
    wait_for(client, "#annotation-note:focus")
        .await
        .send_keys("Explain why")
        .await
        .unwrap();
    press(client, &[Key::Enter.into()]).await;
    wait_for(client, "#answer-text sup[data-kind='note']").await;
    session.screenshot("annotations-text").await;

    let kept = annotations(&api, &typed).await;
    let placed: Vec<(&str, i64, i64)> = kept
        .iter()
        .map(|a| {
            (
                a["Kind"].as_str().unwrap(),
                a["TextStart"].as_i64().unwrap(),
                a["TextEnd"].as_i64().unwrap(),
            )
        })
        .collect();
    let (second, third) = (words[1], words[2]);
    assert_eq!(
        placed,
        [
            ("highlighter", second.0, second.1),
            ("tick", third.0, third.1),
            ("note", third.0, third.1),
        ],
        "{text}"
    );
    assert_eq!(kept[2]["Text"], "Explain why");
    assert!(kept.iter().all(|a| a["Points"].is_null()));
}

/// The words of `text` as ranges of its characters (letters, digits, apostrophes
/// and hyphens), counted as the server counts them.
fn words_of(text: &str) -> Vec<(i64, i64)> {
    let mut words = Vec::new();
    let mut start = None;
    let chars: Vec<char> = text.chars().collect();
    for (index, c) in chars.iter().chain(std::iter::once(&' ')).enumerate() {
        let in_word = c.is_alphanumeric() || matches!(c, '\'' | '’' | '-');
        match (in_word, start) {
            (true, None) => start = Some(index),
            (false, Some(from)) => {
                words.push((from as i64, index as i64));
                start = None;
            }
            _ => {}
        }
    }
    words
}
