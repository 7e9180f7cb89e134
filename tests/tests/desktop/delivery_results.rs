//! Issue 16, results administration in the real window (called from
//! delivery.rs's run, on the results its uploads made): E shows the assessment's
//! results; a result made "in progress" (as online delivery would leave it) is
//! paused, resumed, given extra time and terminated by keyboard; then purged,
//! after a confirmation that names it, with its audit entry followed to the end.

use fantoccini::key::Key;
use fantoccini::Locator;
use sqlx::Connection;

use crate::support::{press, shift, text_in, type_into, wait_for, Api, DesktopSession};

/// Sets a result's Status in the app's own database: the state a running online
/// attempt is in, which nothing in the offline path produces.
async fn set_status_in_app_database(session: &DesktopSession, result: &str, status: i64) {
    let url = format!("sqlite:{}", session.data_dir.join("scoredesk.db").display());
    let mut conn = sqlx::SqliteConnection::connect(&url).await.unwrap();
    sqlx::query("UPDATE results SET status = ? WHERE id = ?")
        .bind(status)
        .bind(result.parse::<i64>().unwrap())
        .execute(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
}

async fn status_shown(session: &DesktopSession, api: &Api, result: &str, status: i64) {
    wait_for(
        &session.client,
        &format!("#admin-results tr[data-id='{result}'][data-status='{status}']"),
    )
    .await;
    assert_eq!(
        api.get(&format!("Results({result})")).await["Status"],
        status
    );
}

pub async fn administers_results(session: &DesktopSession, api: &Api) {
    let client = &session.client;
    wait_for(client, "#show-results").await;
    // The newest result (an upload of this run) heads the list.
    let newest = api.get("Results?$orderby=ID desc&$top=1").await["value"][0].clone();
    let result = newest["ID"].to_string();
    let participant = newest["ParticipantName"].as_str().unwrap().to_owned();
    let assessment = newest["AssessmentID"].as_str().unwrap().to_owned();
    set_status_in_app_database(session, &result, 1).await;
    press(client, &['e']).await;
    wait_for(
        client,
        &format!("#admin-results tr.highlighted[data-id='{result}'][data-status='1']"),
    )
    .await;

    // What is left to score, as the API has it, and the band marked provisional
    // while anything is (issue 33, defect 5).
    let answers = api.get(&format!("Results({result})/Answers")).await;
    let unscored = answers["value"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["ActualScore"].is_null())
        .count();
    assert!(unscored > 0, "the upload's essays wait for a scorer");
    let row = wait_for(client, &format!("#admin-results tr[data-id='{result}']")).await;
    assert_eq!(text_in(&row, ".to-score").await, unscored.to_string());
    let band = text_in(&row, ".band").await;
    assert!(band.ends_with("(provisional)"), "{band}");

    press(client, &['h']).await;
    status_shown(session, api, &result, 6).await;
    press(client, &['g']).await;
    status_shown(session, api, &result, 1).await;
    press(client, &['t']).await;
    // In minutes (issue 33, defect 12): 5 typed is 300 seconds of ExtraTime.
    type_into(client, "extra-time", "5").await;
    press(client, &[Key::Enter.into()]).await;
    wait_for(client, "#results-message").await;
    for _ in 0..50 {
        if api.get(&format!("Results({result})")).await["ExtraTime"] == 300 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(
        api.get(&format!("Results({result})")).await["ExtraTime"],
        300
    );
    press(client, &['x']).await;
    status_shown(session, api, &result, 7).await;
    // Terminated: nothing more to change; H says so and changes nothing.
    press(client, &['h']).await;
    let refused = wait_for(client, "#results-error")
        .await
        .text()
        .await
        .unwrap();
    assert!(refused.contains("cannot be paused"), "{refused}");
    assert_eq!(api.get(&format!("Results({result})")).await["Status"], 7);
    // Nor is extra time offered on it: T says why, and the field is closed.
    press(client, &['t']).await;
    for _ in 0..50 {
        let said = wait_for(client, "#results-error")
            .await
            .text()
            .await
            .unwrap();
        if said.contains("extra time applies only while it is in progress or paused") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let said = wait_for(client, "#results-error")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        said.contains("is terminated: extra time applies only"),
        "{said}"
    );
    assert_eq!(
        wait_for(client, "#extra-time")
            .await
            .prop("disabled")
            .await
            .unwrap(),
        Some("true".to_owned())
    );
    assert_eq!(
        api.get(&format!("Results({result})")).await["ExtraTime"],
        300
    );
    session.screenshot("delivery-results-admin").await;

    // S: the result's marked script in a print window of its own, its questions
    // on it as the server prints them.
    let main = client.window().await.unwrap();
    let known = client.windows().await.unwrap();
    press(client, &['s']).await;
    let mut script = None;
    for _ in 0..200 {
        let windows = client.windows().await.unwrap();
        if let Some(new) = windows.into_iter().find(|w| !known.contains(w)) {
            script = Some(new);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    client
        .switch_to_window(script.expect("a marked script window"))
        .await
        .unwrap();
    let mut text = String::new();
    for _ in 0..200 {
        text = client
            .execute(
                "return document.body ? document.body.innerText : '';",
                vec![],
            )
            .await
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        if text.contains("marked script of result") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(
        text.contains(&format!("marked script of result {result}")),
        "{text}"
    );
    assert!(text.contains("Question "), "{text}");
    assert!(
        text.contains("Not marked yet."),
        "its essays wait for a scorer: {text}"
    );
    session.screenshot("delivery-marked-script").await;
    client.close_window().await.unwrap();
    client.switch_to_window(main).await.unwrap();

    // Shift+Delete: every result of the participant, counted; Esc keeps them.
    let theirs = api
        .get(&format!(
            "Results?$filter=ParticipantName eq '{participant}'"
        ))
        .await["value"]
        .as_array()
        .unwrap()
        .len();
    shift(client, Key::Delete.into()).await;
    let plan = wait_for(client, "#purge-confirm")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        plan.contains(&format!("Every result of {participant}: {theirs} result")),
        "{plan}"
    );
    press(client, &[Key::Escape.into()]).await;
    assert!(client.find(Locator::Css("#purge-confirm")).await.is_err());
    assert_eq!(api.status(&format!("Results({result})")).await, 200);

    // Delete: this result, named; Enter removes it; its audit entry is followed
    // until the purge is done.
    press(client, &[Key::Delete.into()]).await;
    let plan = wait_for(client, "#purge-confirm")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        plan.contains(&format!("Result {result} of {participant}")),
        "{plan}"
    );
    session.screenshot("delivery-purge-confirm").await;
    press(client, &[Key::Enter.into()]).await;
    let done = wait_for(client, "#purge-progress[data-in-queue='false']").await;
    assert_eq!(
        done.attr("data-affected").await.unwrap().as_deref(),
        Some("1")
    );
    assert_eq!(api.status(&format!("Results({result})")).await, 404);
    let entries = api.get("ResultsAuditLog?$orderby=ID desc&$top=1").await;
    let entry = &entries["value"][0];
    assert_eq!(entry["RequestType"], "Purge");
    assert_eq!(entry["IsInQueue"], false);
    assert_eq!(entry["TotalResultsAffected"], 1);
    let row = wait_for(client, &format!("#audit-log tr[data-id='{}']", entry["ID"])).await;
    assert!(row.text().await.unwrap().contains("done: 1 result"));
    assert!(client
        .find(Locator::Css(&format!(
            "#admin-results tr[data-id='{result}']"
        )))
        .await
        .is_err());
    session.screenshot("delivery-purge-done").await;
    erases_a_participant(session, api).await;

    // No retention policy in this area: the server's refusal is shown, nothing
    // is queued.
    let entries_before = api.get("ResultsAuditLog/$count").await;
    press(client, &['a']).await;
    let refused = wait_for(client, "#results-error")
        .await
        .text()
        .await
        .unwrap();
    assert!(refused.contains("no retention policy"), "{refused}");
    assert!(client.find(Locator::Css("#purge-confirm")).await.is_err());
    assert_eq!(api.get("ResultsAuditLog/$count").await, entries_before);
    shows_figures_and_saves_results(session, api, &assessment).await;
}

/// F (issue 34): the assessment's marking progress and item analysis, as the API
/// counts them, with the plot; then its results saved as a workbook and as CSV
/// (the "Save as" dialog asks where, then runs this command).
async fn shows_figures_and_saves_results(session: &DesktopSession, api: &Api, assessment: &str) {
    let client = &session.client;
    press(client, &['f']).await;
    let whole = wait_for(client, "#progress-table tr.progress-assessment").await;
    let progress = api
        .get(&format!("ScoringProgress?AssessmentID={assessment}L"))
        .await;
    let all = progress["value"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["By"] == "Assessment")
        .unwrap()
        .clone();
    let shown = whole.text().await.unwrap();
    for property in ["Open", "Scored"] {
        assert!(
            shown.contains(&all[property].to_string()),
            "{property} {} in {shown}",
            all[property]
        );
    }
    wait_for(client, "#test-figures").await;
    let questions = api
        .get(&format!(
            "ItemStatistics?$filter=AssessmentID eq {assessment}L"
        ))
        .await["value"]
        .as_array()
        .unwrap()
        .len();
    assert!(questions > 0);
    let rows = client
        .find_all(Locator::Css("#items-table tbody tr"))
        .await
        .unwrap();
    assert_eq!(rows.len(), questions, "a row per question");
    let points = client
        .find_all(Locator::Css("#items-plot circle"))
        .await
        .unwrap();
    assert_eq!(points.len(), questions, "a point per question");
    // The pace: a bar for each of the eight hours, the latest as many as the
    // API's ScoredByHour[0].
    let bars = client
        .find_all(Locator::Css("#pace-chart rect"))
        .await
        .unwrap();
    assert_eq!(bars.len(), 8);
    let latest = bars[7]
        .find(Locator::Css("title"))
        .await
        .unwrap()
        .html(true)
        .await
        .unwrap();
    assert_eq!(latest, all["ScoredByHour"][0].to_string());
    // The histogram: a bar for each total from 0 to the maximum.
    let statistics = api
        .get(&format!("AssessmentStatistics?AssessmentID={assessment}L"))
        .await;
    let totals = statistics["Distribution"].as_array().unwrap().len();
    assert!(totals > 1);
    let bars = client
        .find_all(Locator::Css("#histogram rect"))
        .await
        .unwrap();
    assert_eq!(bars.len(), totals, "a bar per total");
    session.screenshot("results-figures").await;

    let dir = tempfile::tempdir().unwrap();
    for (format, file, starts) in [
        ("xlsx", "results.xlsx", &b"PK"[..]),
        ("csv", "results.csv", "\u{feff}ResultID".as_bytes()),
    ] {
        let path = dir.path().join(file);
        let saved = client
            .execute_async(
                "const [assessmentId, format, path, done] = arguments; \
                 window.__TAURI_INTERNALS__.invoke('save_results', { assessmentId, format, path }) \
                   .then(() => done('saved'), (e) => done(JSON.stringify(e)));",
                vec![
                    serde_json::json!(assessment),
                    serde_json::json!(format),
                    serde_json::json!(path.display().to_string()),
                ],
            )
            .await
            .unwrap();
        assert_eq!(saved, serde_json::json!("saved"), "{format}");
        let bytes = std::fs::read(&path).unwrap();
        assert!(bytes.starts_with(starts), "{format}");
    }
    // A format the server does not write is refused by name, and nothing is made.
    let path = dir.path().join("results.pdf");
    let refused = client
        .execute_async(
            "const [assessmentId, path, done] = arguments; \
             window.__TAURI_INTERNALS__.invoke('save_results', { assessmentId, format: 'pdf', path }) \
               .then(() => done('saved'), (e) => done(JSON.stringify(e)));",
            vec![
                serde_json::json!(assessment),
                serde_json::json!(path.display().to_string()),
            ],
        )
        .await
        .unwrap();
    assert!(refused.to_string().contains("not a format"), "{refused}");
    assert!(!path.exists());
}

/// Shift+Delete, then P: every result of the highlighted result's participant and
/// the participant too, named and counted; Enter; the participant is gone.
async fn erases_a_participant(session: &DesktopSession, api: &Api) {
    let client = &session.client;
    let row = wait_for(client, "#admin-results tr.highlighted").await;
    let result = row.attr("data-id").await.unwrap().unwrap();
    let participant = api.get(&format!("Results({result})")).await["ParticipantName"]
        .as_str()
        .unwrap()
        .to_owned();
    let filter = format!("ParticipantName eq '{participant}'");
    let theirs = api.get(&format!("Results?$filter={filter}")).await["value"]
        .as_array()
        .unwrap()
        .len();
    shift(client, Key::Delete.into()).await;
    wait_for(client, "#purge-participant-too").await;
    press(client, &['p']).await;
    // The plan is asked for again (counted by the server): wait for the new one.
    let mut plan = String::new();
    for _ in 0..100 {
        plan = wait_for(client, "#purge-confirm")
            .await
            .text()
            .await
            .unwrap();
        if plan.contains("as a participant") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(
        plan.contains(&format!("Every result of {participant} ({theirs} result"))
            && plan.contains(&format!("and {participant} as a participant")),
        "{plan}"
    );
    press(client, &[Key::Enter.into()]).await;
    wait_for(
        client,
        &format!("#purge-progress[data-in-queue='false'][data-affected='{theirs}']"),
    )
    .await;
    let left = api.get(&format!("Results?$filter={filter}")).await;
    assert_eq!(left["value"].as_array().unwrap().len(), 0);
    let people = api
        .get(&format!("Participants?$filter=Name eq '{participant}'"))
        .await;
    assert_eq!(
        people["value"].as_array().unwrap().len(),
        0,
        "the participant is gone"
    );
    let entry = &api.get("ResultsAuditLog?$orderby=ID desc&$top=1").await["value"][0];
    assert_eq!(
        entry["RequestType"],
        "PurgeParticipantAndResultsByParticipantName"
    );
}
