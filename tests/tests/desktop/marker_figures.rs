//! The lead marker's figures in the real window, keyboard only. Three markers at
//! other desks mark scripts of one question through the spec's feeds: one in
//! line, one who grows harsher as he goes (25 scripts: two windows of the drift
//! plot), one who marks three lower than the others would. The window's account (an administrator)
//! opens the Markers desk (W), chooses the question (J), and reads each marker's
//! scripts and mean as the server computes them, the low marker called harsher
//! and drawn apart, the drifting one's line falling; `]` highlights a marker in
//! the table and both plots, which axe finds nothing serious in.

use fantoccini::{Client, Locator};
use serde_json::Value;

use crate::support::{
    dimension_maxima, mark_through_the_feeds, markers_desk_on, press, wait_for, Api, DesktopSession,
};

type Task = (String, i64);

/// The open tasks of the question with the most of them (a question with a rubric).
async fn busiest_question(api: &Api) -> Vec<Task> {
    let feed = api
        .get("ScoringTasks?$filter=Status%20eq%200%20and%20Question/Rubric/any()&$select=QuestionID,ResultID&$top=1000")
        .await;
    let mut by_question: std::collections::BTreeMap<String, Vec<i64>> = Default::default();
    for task in feed["value"].as_array().unwrap() {
        by_question
            .entry(task["QuestionID"].as_str().unwrap().to_owned())
            .or_default()
            .push(task["ResultID"].as_i64().unwrap());
    }
    let (question, results) = by_question
        .into_iter()
        .max_by_key(|(_, results)| results.len())
        .unwrap();
    results.into_iter().map(|r| (question.clone(), r)).collect()
}

/// Dimension scores adding up to `total` (each at most its maximum), first ones first.
fn scores_for(total: i64, maxima: &[i64]) -> Vec<i64> {
    let mut left = total;
    maxima
        .iter()
        .map(|max| {
            let score = left.min(*max);
            left -= score;
            score
        })
        .collect()
}

/// The text of `css` once it appears.
async fn text_of(client: &Client, css: &str) -> String {
    wait_for(client, css).await.text().await.unwrap()
}

/// The y of each point of a polyline's `points`.
fn ys(points: &str) -> Vec<f64> {
    points
        .split_whitespace()
        .map(|xy| xy.split(',').nth(1).unwrap().parse().unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lead_reads_each_markers_figures_and_sees_who_stands_out_by_keyboard() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    let api = Api::of(&session).await;
    let tasks = busiest_question(&api).await;
    assert!(
        tasks.len() >= 50,
        "a question with 50 scripts to mark: {}",
        tasks.len()
    );
    let question = tasks[0].0.clone();
    let maxima = dimension_maxima(&api, &tasks[0]).await;
    let full: i64 = maxima.iter().sum();
    assert!(full >= 4, "a question worth a few marks");

    // Each script's "true" total runs over the whole range. In line: marks it.
    // Drifting: marks it for 20 scripts, then two lower. Low: three lower.
    let truth = |n: i64| n % (full + 1);
    let steady = api.new_account(&session, "steady-marker", "scorer").await;
    let drifting = api.new_account(&session, "drifting-marker", "scorer").await;
    let low = api.new_account(&session, "low-marker", "scorer").await;
    let mut scripts = tasks.iter();
    let plan: Vec<(&Api, i64)> = (0..12)
        .map(|n| (&steady, truth(n)))
        .chain((0..25).map(|n| (&drifting, if n < 20 { truth(n) } else { truth(n - 20) - 2 })))
        .chain((0..12).map(|n| (&low, truth(n) - 3)))
        .collect();
    for (marker, total) in plan {
        let scores = scores_for(total.max(0), &maxima);
        mark_through_the_feeds(marker, scripts.next().unwrap(), &scores, "").await;
    }
    let served = api
        .get(&format!("MarkerStatistics?QuestionID={question}L"))
        .await;
    let served: Vec<Value> = served["value"].as_array().unwrap().clone();

    // W opens the desk; J to the question.
    markers_desk_on(client, &question).await;
    wait_for(client, "#markers-table tr[data-marker='low-marker']").await;

    let summary = text_of(client, "#question-figures").await;
    assert!(summary.starts_with("49 scripts by 3 markers"), "{summary}");
    for row in &served[1..] {
        let marker = row["Marker"].as_str().unwrap();
        let cells = client
            .find(Locator::Css(&format!(
                "#markers-table tr[data-marker='{marker}']"
            )))
            .await
            .unwrap()
            .find_all(Locator::Css("td"))
            .await
            .unwrap();
        let scripts = cells[1].text().await.unwrap();
        assert_eq!(scripts, row["Scripts"].to_string(), "{marker}'s scripts");
        let mean = cells[2].text().await.unwrap();
        let expected = format!("{:.2}", row["MeanScore"].as_f64().unwrap());
        assert!(
            mean.starts_with(&expected),
            "{marker}'s mean: {mean}, served {expected}"
        );
    }
    let low_row = "#markers-table tr.stands-out[data-marker='low-marker'] .standing";
    let standing = text_of(client, low_row).await;
    assert!(standing.contains("harsher"), "{standing}");
    let steady_row = "#markers-table tr[data-marker='steady-marker'] .standing";
    let standing = text_of(client, steady_row).await;
    assert!(standing.contains("in line"), "{standing}");
    wait_for(
        client,
        "#means-plot g.marker-mean.stands-out[data-marker='low-marker']",
    )
    .await;
    let dots = client
        .find_all(Locator::Css("#means-plot g.marker-mean"))
        .await
        .unwrap();
    assert_eq!(dots.len(), 3, "one mean a marker");

    // The drifting marker's two windows: the second below the first.
    let line = wait_for(
        client,
        "#drift-plot g.marker-drift[data-marker='drifting-marker'] polyline",
    )
    .await;
    let points = line.attr("points").await.unwrap().unwrap();
    let heights = ys(&points);
    assert_eq!(heights.len(), 2, "{points}");
    assert!(heights[1] > heights[0], "falls as he goes: {points}");

    // ] highlights the first marker by name in the table and both plots.
    press(client, &[']']).await;
    wait_for(
        client,
        "#markers-table tr.selected[data-marker='drifting-marker']",
    )
    .await;
    wait_for(
        client,
        "#drift-plot g.marker-drift.selected[data-marker='drifting-marker']",
    )
    .await;
    wait_for(
        client,
        "#means-plot g.marker-mean.selected[data-marker='drifting-marker']",
    )
    .await;
    press(client, &[']']).await;
    wait_for(
        client,
        "#markers-table tr.selected[data-marker='low-marker']",
    )
    .await;
    session.screenshot("markers-desk").await;
    // The table and both plots, audited as every desk is (accessibility.rs).
    let serious = crate::accessibility::audit(client, "light", "markers").await;
    assert!(serious.is_empty(), "{}", serious.join("\n"));

    // The scoring queue is a key away.
    press(client, &['q']).await;
    wait_for(client, "#task-list").await;
}
