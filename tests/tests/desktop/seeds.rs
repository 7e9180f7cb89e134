//! Check scripts (seeds) on the lead's desk in the real window, keyboard only: the
//! lead scores a script and makes it a seed on the flags desk (`N`, its reasons,
//! `Ctrl+Enter`), a marker at another desk is served it
//! among his tasks and marks it a mark under in every dimension, which pauses him
//! (tolerance 0); the flags desk (I) shows the seed marking with its deviation and
//! the pause with its figures; `U` with a note releases him, and his tasks of the
//! question are his again; the Markers desk (W) shows his seed's deviation beside
//! his other figures. The window's account is an administrator, who does
//! what a lead marker does.

use fantoccini::key::Key;
use serde_json::json;

use crate::support::{
    bring_to_head, ctrl, dimension_maxima, mark_through_the_feeds, markers_desk_on, press,
    score_all_by_keyboard, take_with_keyboard, type_into, wait_for, Api, DesktopSession,
};

type Task = (String, i64);

/// The open tasks of `question` that `marker` reads, newest result first.
async fn open_of(marker: &Api, question: &str) -> Vec<i64> {
    let tasks = marker
        .get(&format!(
            "ScoringTasks?$filter=Status%20eq%200%20and%20QuestionID%20eq%20{question}L&$orderby=ResultID%20desc&$top=200"
        ))
        .await;
    tasks["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["ResultID"].as_i64().unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seed_marked_out_of_line_is_shown_and_its_pause_released_on_the_lead_desk() {
    let session = DesktopSession::start().await;
    let client = &session.client;
    wait_for(client, "#task-list li[data-question]").await;
    let api = Api::of(&session).await;
    let marker = api.new_account(&session, "marker-one", "scorer").await;
    let source = bring_to_head(&api, "text/").await;
    let question = source.0.clone();
    let maxima = dimension_maxima(&api, &source).await;
    assert!(maxima.iter().all(|max| *max > 0), "{maxima:?}");

    // The lead marks the script in full and makes it a seed on his desk.
    take_with_keyboard(client, &source).await;
    score_all_by_keyboard(client, &maxima).await;
    ctrl(client, Key::Enter.into()).await;
    wait_for(client, "#last-outcome").await;
    press(client, &['i']).await;
    wait_for(client, "#no-seeds").await;
    press(client, &['n']).await;
    let chosen = wait_for(client, "#seed-script:focus").await;
    let label = chosen.text().await.unwrap();
    let definitive: i64 = maxima.iter().sum();
    assert!(label.contains(&format!("{definitive} marks")), "{label}");
    // Sent without reasons: refused, and it says why.
    ctrl(client, Key::Enter.into()).await;
    wait_for(client, "#seed-problem").await;
    type_into(client, "seed-reasons", "Full marks: every point argued.").await;
    session.screenshot("making-a-check-script").await;
    ctrl(client, Key::Enter.into()).await;
    wait_for(
        client,
        &format!(
            "#seeds li[data-question='{question}'][data-result='{}'][data-score='{definitive}']",
            source.1
        ),
    )
    .await;
    let made = api.get("Seeds").await;
    assert_eq!(made["value"].as_array().unwrap().len(), 1, "{made}");
    assert_eq!(made["value"][0]["ResultID"], source.1, "{made}");
    assert_eq!(
        made["value"][0]["Reasons"],
        "Full marks: every point argued."
    );
    assert_eq!(made["value"][0]["Score"], definitive);
    // Every script of the question brings a seed next; no deviation is tolerated.
    api.post(
        "MarkingPlans",
        json!({"QuestionID": question, "Share": 0, "SeedRate": 100, "SeedTolerance": 0}),
    )
    .await;

    // The marker scores a real script and is served the seed; he marks it a mark
    // under in every dimension.
    let before = open_of(&marker, &question).await;
    let real: Task = (question.clone(), before[0]);
    mark_through_the_feeds(&marker, &real, &maxima, "Fine.").await;
    let after = open_of(&marker, &question).await;
    assert!(!before.contains(&after[0]), "a copy was served: {after:?}");
    let copy: Task = (question.clone(), after[0]);
    let under: Vec<i64> = maxima.iter().map(|max| max - 1).collect();
    mark_through_the_feeds(&marker, &copy, &under, "Most points.").await;
    let deviation = -(maxima.len() as i32);
    assert!(
        open_of(&marker, &question).await.is_empty(),
        "paused: the question's tasks are gone from his reads"
    );

    // The lead's desk: the seed marking with its deviation, and the pause.
    press(client, &['q']).await;
    press(client, &['i']).await;
    let row = wait_for(client, "#seed-markings tr[data-marker='marker-one']").await;
    let text = row.text().await.unwrap();
    assert!(text.contains(&deviation.to_string()), "{text}");
    let pause = wait_for(client, "#open-pauses li.selected[data-marker='marker-one']").await;
    let text = pause.text().await.unwrap();
    assert!(text.contains("1 check script"), "{text}");
    assert!(
        text.contains(&format!("paused from marking question {question}")),
        "{text}"
    );
    session.screenshot("seeds-on-the-lead-desk").await;

    // U and a note: released.
    press(client, &['u']).await;
    wait_for(client, "#pause-release-note:focus").await;
    // Sent without a note: refused, and it says why.
    ctrl(client, Key::Enter.into()).await;
    wait_for(client, "#pauses-problem").await;
    type_into(
        client,
        "pause-release-note",
        "We went through the mark scheme together.",
    )
    .await;
    ctrl(client, Key::Enter.into()).await;
    wait_for(client, "#no-open-pauses").await;
    let releases = api.get("MarkerReleases").await;
    assert_eq!(
        releases["value"][0]["Note"], "We went through the mark scheme together.",
        "{releases}"
    );
    let open = api.get("MarkerPauses?$filter=IsOpen%20eq%20true").await;
    assert_eq!(open["value"], json!([]));
    assert!(
        !open_of(&marker, &question).await.is_empty(),
        "released: the question's tasks are his again"
    );

    // The Markers desk (W): his seed against its definitive marks, beside his
    // other figures; the question's line counts the check script.
    markers_desk_on(client, &question).await;
    let vs_seeds = wait_for(
        client,
        "#markers-table tr[data-marker='marker-one'] td.vs-seeds",
    )
    .await;
    let off = f64::from(deviation.unsigned_abs());
    assert_eq!(
        vs_seeds.text().await.unwrap(),
        format!("1: \u{2212}{off:.2} ({off:.2})")
    );
    let summary = wait_for(client, "#question-seeds")
        .await
        .text()
        .await
        .unwrap();
    assert!(summary.starts_with("1 check script marked"), "{summary}");
    session.screenshot("seeds-among-the-markers-figures").await;
}
