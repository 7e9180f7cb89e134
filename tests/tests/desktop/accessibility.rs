//! Issue 33: accessibility checked, not assumed. axe-core (the npm package the UI
//! installs) runs in the real window on every desk and dialog, reached by keyboard
//! as a user reaches them, in the light theme and in the dark one (the system's
//! choice, GTK_THEME); each desk's findings are written to
//! `artifacts/desktop/axe/<theme>-<desk>.json`, and no serious or critical one may
//! remain.

use fantoccini::key::Key;
use fantoccini::Client;
use serde_json::Value;

use crate::support::{artifacts_dir, ctrl, press, wait_for, Api, DesktopSession};

/// axe-core as the UI's `npm ci` installed it.
fn axe_source() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../ui/node_modules/axe-core/axe.min.js"
    );
    std::fs::read_to_string(path).expect("axe-core is installed with the UI's packages (npm ci)")
}

/// Runs axe on the page as it is; writes its violations to `axe/<desk>.json` and
/// returns the serious and critical ones, described.
pub(crate) async fn audit(client: &Client, theme: &str, desk: &str) -> Vec<String> {
    let loaded = client
        .execute("return typeof window.axe !== 'undefined'", vec![])
        .await
        .unwrap();
    if loaded != Value::Bool(true) {
        client
            .execute(&format!("{};\nreturn true;", axe_source()), vec![])
            .await
            .unwrap();
    }
    let found = client
        .execute_async(
            "const done = arguments[arguments.length - 1];\
             axe.run(document, { resultTypes: ['violations'] })\
               .then((r) => done(JSON.stringify(r.violations.map((v) => ({\
                  id: v.id, impact: v.impact, help: v.help,\
                  nodes: v.nodes.slice(0, 8).map((n) => ({ target: n.target.join(' '), summary: n.failureSummary })) })))))\
               .catch((e) => done('axe failed: ' + e));",
            vec![],
        )
        .await
        .unwrap();
    let text = found.as_str().unwrap().to_owned();
    assert!(!text.starts_with("axe failed"), "{desk}: {text}");
    let violations: Value = serde_json::from_str(&text).unwrap();
    let dir = artifacts_dir().join("axe");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join(format!("{theme}-{desk}.json")),
        serde_json::to_string_pretty(&violations).unwrap(),
    )
    .unwrap();
    violations
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| matches!(v["impact"].as_str(), Some("serious" | "critical")))
        .map(|v| {
            format!(
                "{desk}: {} ({}): {} at {}",
                v["id"], v["impact"], v["help"], v["nodes"]
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_desk_passes_axe_with_no_serious_or_critical_finding() {
    let mut serious = tour(DesktopSession::start().await, "light").await;
    let data = tempfile::tempdir().unwrap();
    let dark = DesktopSession::start_with(data, &[("GTK_THEME", "Adwaita:dark")]).await;
    let is_dark = dark
        .client
        .execute(
            "return matchMedia('(prefers-color-scheme: dark)').matches",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        is_dark,
        Value::Bool(true),
        "the dark theme reaches the page"
    );
    serious.extend(tour(dark, "dark").await);
    assert!(
        serious.is_empty(),
        "{} serious or critical findings:\n{}",
        serious.len(),
        serious.join("\n")
    );
}

/// Every desk and dialog in turn, audited in `theme`; the serious findings.
async fn tour(session: DesktopSession, theme: &str) -> Vec<String> {
    let client = &session.client;
    let audit = |desk: &'static str| audit(client, theme, desk);
    wait_for(client, "#task-list li[data-question]").await;
    let api = Api::of(&session).await;
    let mut serious = Vec::new();

    serious.extend(audit("queue").await);
    press(client, &['?']).await;
    wait_for(client, "#shortcut-sheet").await;
    serious.extend(audit("shortcut-sheet").await);
    press(client, &[Key::Escape.into()]).await;
    press(client, &['g']).await;
    wait_for(client, "#question-picker").await;
    serious.extend(audit("question-picker").await);
    press(client, &[Key::Escape.into()]).await;

    press(client, &['n']).await;
    wait_for(client, "#scoring-view").await;
    serious.extend(audit("scoring").await);
    ctrl(client, 'k').await;
    wait_for(client, "#comment-bank").await;
    serious.extend(audit("comment-bank").await);
    press(client, &[Key::Escape.into()]).await;
    press(client, &['p']).await;
    wait_for(client, "#other-answers").await;
    wait_for(client, "#other-answer, #no-other-answers").await;
    serious.extend(audit("other-answers").await);
    press(client, &[Key::Escape.into()]).await;
    ctrl(client, 'f').await;
    wait_for(client, "#flag-dialog").await;
    serious.extend(audit("flag-dialog").await);
    press(client, &[Key::Escape.into()]).await;
    ctrl(client, Key::Backspace.into()).await; // release the task, untouched
    wait_for(client, "#task-list").await;

    press(client, &['m']).await;
    wait_for(client, "#tab-moderation[aria-selected='true']").await;
    serious.extend(audit("moderation").await);
    press(client, &['i']).await;
    wait_for(client, "#flags-desk #open-flags").await;
    serious.extend(audit("flags").await);
    press(client, &['s']).await;
    wait_for(client, "#second-marking-desk #second-rounds").await;
    serious.extend(audit("second marking").await);

    press(client, &['d']).await;
    wait_for(client, "#delivery-assessments button.chosen").await;
    wait_for(client, "#snapshot-list, #no-snapshots").await;
    serious.extend(audit("delivery").await);
    press(client, &['e']).await;
    wait_for(client, "#admin-results, #no-results").await;
    serious.extend(audit("results").await);
    press(client, &['e']).await;

    // A batch: a snapshot and a batch made through the API, opened by keyboard.
    let assessment = wait_for(client, "#delivery-assessments button.chosen")
        .await
        .attr("data-id")
        .await
        .unwrap()
        .unwrap();
    let snapshot = api
        .post(
            "AssessmentSnapshots",
            serde_json::json!({"AssessmentID": assessment, "Name": "Audit"}),
        )
        .await["ID"]
        .clone();
    let group = api.get("Groups?$top=1").await["value"][0]["ID"].clone();
    api.post(
        "PrintBatches",
        serde_json::json!({"GroupID": group, "SnapshotID": snapshot, "Name": "Audit batch"}),
    )
    .await;
    press(client, &['r']).await;
    wait_for(client, "#batch-list tbody tr.highlighted").await;
    press(client, &[Key::Enter.into()]).await;
    wait_for(client, "#attempt-list").await;
    serious.extend(audit("batch").await);
    press(client, &[Key::F2.into()]).await;
    wait_for(client, "#rename-or-delete").await;
    serious.extend(audit("rename-dialog").await);
    press(
        client,
        &[Key::Escape.into(), Key::Escape.into(), Key::Escape.into()],
    )
    .await;

    press(client, &['c']).await;
    wait_for(client, "#rubric-assessment").await;
    serious.extend(audit("content").await);

    session.close().await;
    serious
}
