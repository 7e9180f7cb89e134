//! Results out (issue 34, docs/exports.md), end to end on both databases: a
//! OneRoster class and a hand-made class with hostile names come in; a snapshot,
//! batches and attempts for them go out; their uploads are scored, some essays by
//! a scorer; then the CSV, the workbook and the OneRoster gradebook are read back
//! with other libraries (Python's csv, openpyxl, zipfile) and checked against the
//! Results feed: every total, every question column adding up to it, provisional
//! results marked, formulas neutralised, the charts present, and the gradebook's
//! keys those of the school's roster.

use std::collections::HashMap;
use std::process::Command;

use reqwest::StatusCode;
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use scoredesk_server::export::{export_results, Format};
use scoredesk_server::import::Mode;
use scoredesk_server::model::area::CustomerArea;
use scoredesk_server::store::Store;
use serde_json::{json, Value};

use crate::rosters::{fixture, import};
use crate::uploads::{created, snapshot_key};

on_both_backends! {
    an_export_read_back_by_other_libraries_agrees_with_the_results => read_back;
}

const SCORER: &str = "northwind-scorer";
const HOSTILE_FIRST: &str = "=cmd|' /c calc'!A1";
const HOSTILE_LAST: &str = "+SUM(1,2)";

/// A plain roster: a class whose names a spreadsheet would run as formulas.
const HOSTILE_ROSTER: &str = "username,first_name,last_name,email,group\n\
    dde.tester,\"=cmd|' /c calc'!A1\",\"+SUM(1,2)\",,@Set 9\n\
    pat.plain,Pat,Plain,,@Set 9\n";

struct Sat {
    result: i64,
}

/// Delivers the assessment to every member of `group`: one batch, an attempt
/// each, an upload each (the first of every two right on every choice question,
/// the other choosing one wrong choice on the first), and returns their results.
async fn sit(app: &TestApp, assessment: i64, snapshot: i64, group: &str) -> Vec<Sat> {
    let group_id = app
        .sql_i64(&format!(
            "SELECT CAST(id AS BIGINT) FROM groups WHERE customer_id = {} AND name = '{group}'",
            app.northwind()
        ))
        .await;
    let members: Vec<i64> = app
        .sql_column(&format!(
            "SELECT CAST(participant_id AS BIGINT) FROM group_participants WHERE group_id = {group_id} ORDER BY participant_id"
        ))
        .await;
    assert!(!members.is_empty(), "{group} has members");
    let batch = created(
        app,
        "PrintBatches",
        json!({"ID": 0, "GroupID": group_id, "SnapshotID": snapshot, "Name": group}),
    )
    .await["ID"]
        .as_i64()
        .unwrap();
    let key = snapshot_key(app, snapshot).await;
    let mut sat = Vec::new();
    for (i, participant) in members.into_iter().enumerate() {
        let external = format!("paper-{group_id}-{participant}");
        let attempt = created(
            app,
            "Attempts",
            json!({"ID": 0, "ParticipantID": participant, "AssessmentID": assessment.to_string(),
                   "AssessmentSnapshotID": snapshot, "ExternalAttemptID": external,
                   "LockStatus": false, "LockRequired": false}),
        )
        .await["ID"]
            .as_i64()
            .unwrap();
        let mut file = crate::uploads::full_marks(attempt, Some(batch), &key);
        if i % 2 == 1 {
            // One wrong choice, alone, on the first choice question.
            let first = key.iter().position(|(kind, _)| kind != "essay").unwrap();
            let wrong = key[first].1.iter().position(|correct| !correct).unwrap();
            for (c, choice) in file["QuestionAndChoices"][first]["UploadedChoices"]
                .as_array_mut()
                .unwrap()
                .iter_mut()
                .enumerate()
            {
                choice["Selected"] = json!(c == wrong);
            }
        }
        created(app, "AnswerUploads", file).await;
        let result = app
            .sql_i64(&format!(
                "SELECT CAST(result_id AS BIGINT) FROM attempts WHERE id = {attempt}"
            ))
            .await;
        sat.push(Sat { result });
    }
    sat
}

/// Scores every open essay of `result` through the scorer's feeds: each dimension
/// one under its maximum, the task finished (Status 3).
pub(crate) async fn score_essays(app: &TestApp, result: i64) {
    let (status, tasks) = app
        .get_json_with(
            SCORER,
            &format!(
                "{}Results({result})/ScoringTasks?$filter=Status eq 0",
                app.root()
            ),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{tasks}");
    for task in tasks["value"].as_array().unwrap() {
        let question = task["QuestionID"].as_str().unwrap();
        let task_path = format!(
            "{}ScoringTasks(QuestionID={question}L,ResultID={result})",
            app.root()
        );
        let scoring = app.get_json(&format!("{task_path}/ScoringResult")).await["value"][0].clone();
        let rubric = scoring["RubricID"].as_i64().unwrap();
        let result_path = format!(
            "{}ScoringResults(QuestionID={question}L,RubricID={rubric},ResultID={result})",
            app.root()
        );
        let dimensions = app
            .get_json(&format!("{result_path}/DimensionScores?$expand=Dimension"))
            .await;
        let mut total = 0;
        for dimension in dimensions["value"].as_array().unwrap() {
            let max = dimension["Dimension"]["MaxScore"].as_i64().unwrap();
            let order = dimension["Order"].as_i64().unwrap();
            let path = format!(
                "{}DimensionScores(QuestionID={question}L,RubricID={rubric},ResultID={result},Order={order})",
                app.root()
            );
            let response = app
                .put_json(
                    SCORER,
                    &path,
                    &json!({"Score": max - 1, "Comment": ""}),
                    &[],
                )
                .await;
            assert_eq!(response.status(), StatusCode::NO_CONTENT);
            total += max - 1;
        }
        let response = app
            .put_json(
                SCORER,
                &result_path,
                &json!({"Score": total, "Comments": "", "ModifiedDateTime": scoring["ModifiedDateTime"]}),
                &[],
            )
            .await;
        assert_eq!(response.status(), StatusCode::NO_CONTENT);
        let response = app
            .put_json(SCORER, &task_path, &json!({"Status": 3}), &[])
            .await;
        assert_eq!(response.status(), StatusCode::NO_CONTENT);
    }
}

fn read_with_other_libraries(dir: &std::path::Path) -> Value {
    let python = std::env::var("SCOREDESK_STATS_PYTHON").unwrap_or_else(|_| {
        panic!("SCOREDESK_STATS_PYTHON: run the tests with scripts/test, which installs openpyxl")
    });
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/api/exports/read_back.py"
    );
    let output = Command::new(python)
        .arg(script)
        .arg(dir.join("results.csv"))
        .arg(dir.join("results.xlsx"))
        .arg(dir.join("gradebook.zip"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

async fn read_back(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    import(&app, &fixture(), Mode::Commit).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let hostile = dir.path().join("set9.csv");
    std::fs::write(&hostile, HOSTILE_ROSTER).unwrap();
    import(&app, &hostile, Mode::Commit).await.unwrap();

    let assessment = app
        .sql_i64(&format!(
            "SELECT MIN(aq.assessment_id) FROM assessment_questions aq JOIN questions q ON q.id = aq.question_id \
             WHERE aq.customer_id = {} AND q.question_type = 'multiple_response'",
            app.northwind()
        ))
        .await;
    let snapshot = created(
        &app,
        "AssessmentSnapshots",
        json!({"ID": 0, "AssessmentID": assessment.to_string(), "Name": "Paper"}),
    )
    .await["ID"]
        .as_i64()
        .unwrap();
    let literature = sit(&app, assessment, snapshot, "Literature, Year 11").await;
    let set9 = sit(&app, assessment, snapshot, "@Set 9").await;
    // Zoë's and the hostile student's essays are scored; the others wait.
    score_essays(&app, literature[0].result).await;
    score_essays(&app, set9[0].result).await;

    let store = Store::connect(app.database_url()).await.unwrap();
    let area = CustomerArea::new(app.northwind()).unwrap();
    for (format, name) in [
        (Format::Csv, "results.csv"),
        (Format::Xlsx, "results.xlsx"),
        (Format::OneRoster, "gradebook.zip"),
    ] {
        export_results(&store, area, assessment, format, &dir.path().join(name))
            .await
            .unwrap();
    }
    store.close().await;
    let files = read_with_other_libraries(dir.path());

    // The same file over HTTP, for a coordinator: ExportResults (a GET function).
    let call = |format: &str| {
        format!(
            "{}ExportResults?AssessmentID={assessment}L&Format='{format}'",
            app.root()
        )
    };
    let (status, body) = app
        .get_json_with("northwind-coordinator", &call("csv"), &[])
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let served = base64::Engine::decode(
        &base64::engine::general_purpose::STANDARD,
        body["value"].as_str().unwrap(),
    )
    .unwrap();
    assert_eq!(
        served,
        std::fs::read(dir.path().join("results.csv")).unwrap(),
        "the command's file and the function's are the same bytes"
    );
    let (status, _) = app.get_json_with(SCORER, &call("csv"), &[]).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, body) = app
        .get_json_with("northwind-coordinator", &call("pdf"), &[])
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body.to_string().contains("the formats are"), "{body}");

    // The Results feed: every result of the assessment, its total and status.
    let (all, _) = app.get_all_pages(&format!("{}Results", app.root())).await;
    let feed: HashMap<i64, &Value> = all
        .iter()
        .filter(|r| r["AssessmentID"].as_str() == Some(&assessment.to_string()))
        .map(|r| (r["ID"].as_i64().unwrap(), r))
        .collect();
    assert!(feed.len() > 4, "demo results and ours");

    // CSV: a BOM, a header, a row per Result.
    assert_eq!(files["csv"]["bom"], true);
    let csv: Vec<Vec<String>> = serde_json::from_value(files["csv"]["rows"].clone()).unwrap();
    let header = &csv[0];
    let column = |name: &str| header.iter().position(|h| h == name).unwrap();
    let questions: Vec<usize> = (0..header.len())
        .filter(|&c| header[c].starts_with('Q') && header[c][1..].parse::<u32>().is_ok())
        .collect();
    assert_eq!(questions.len(), snapshot_key(&app, snapshot).await.len());
    assert_eq!(csv.len() - 1, feed.len(), "one row per Result");
    let mut provisional = 0;
    for row in &csv[1..] {
        let id: i64 = row[column("ResultID")].parse().unwrap();
        let result = feed
            .get(&id)
            .unwrap_or_else(|| panic!("result {id} is the assessment's"));
        let total: i64 = row[column("TotalScore")].parse().unwrap();
        assert_eq!(total, result["TotalScore"].as_i64().unwrap(), "result {id}");
        let sum: i64 = questions
            .iter()
            .filter_map(|&c| row[c].parse::<i64>().ok())
            .sum();
        assert_eq!(sum, total, "result {id}: its questions add up to its total");
        let waiting = questions.iter().any(|&c| row[c].is_empty());
        assert_eq!(
            row[column("Provisional")],
            waiting.to_string(),
            "result {id}"
        );
        provisional += usize::from(waiting);
    }
    assert!(provisional > 0, "some essays wait for a scorer");
    let row_of = |result: i64| {
        csv.iter()
            .find(|row| row[0] == result.to_string())
            .unwrap()
            .clone()
    };
    let zoe = row_of(literature[0].result);
    assert_eq!(zoe[column("Participant")], "zoe.garcia");
    assert_eq!(zoe[column("ParticipantKey")], "u-s-01");
    assert_eq!(zoe[column("LastName")], "García, Jr.");
    assert_eq!(zoe[column("Group")], "Literature, Year 11");
    assert_eq!(zoe[column("Provisional")], "false", "her essays are scored");
    assert_eq!(row_of(literature[1].result)[column("Provisional")], "true");
    let dde = row_of(set9[0].result);
    assert_eq!(dde[column("FirstName")], format!("'{HOSTILE_FIRST}"));
    assert_eq!(dde[column("LastName")], format!("'{HOSTILE_LAST}"));
    assert_eq!(dde[column("Group")], "'@Set 9");

    // The workbook: the same rows, text kept text, the charts there.
    let xlsx = &files["xlsx"];
    let sheet = |name: &str| xlsx[name]["rows"].as_array().unwrap().clone();
    let results = sheet("Results");
    assert_eq!(results.len(), csv.len());
    for (row, csv_row) in results.iter().zip(&csv).skip(1) {
        let id = row[0]["value"].as_i64().unwrap();
        assert_eq!(id.to_string(), csv_row[0]);
        assert_eq!(
            row[column("TotalScore")]["value"].as_i64(),
            feed[&id]["TotalScore"].as_i64(),
            "result {id} in the workbook"
        );
        assert_eq!(row[column("Provisional")]["type"], "b");
    }
    let dde_row = results
        .iter()
        .find(|row| row[0]["value"].as_i64() == Some(set9[0].result))
        .unwrap();
    for (name, value) in [("FirstName", HOSTILE_FIRST), ("LastName", HOSTILE_LAST)] {
        let cell = &dde_row[column(name)];
        assert_eq!(
            cell["value"], value,
            "the name itself, not a formula's result"
        );
        assert_eq!(cell["type"], "s", "{name} is text, never a formula");
        assert_eq!(cell["quote_prefix"], true, "{name} stays text when edited");
    }
    assert_eq!(xlsx["Item statistics"]["charts"], json!(["ScatterChart"]));
    assert_eq!(xlsx["Distribution"]["charts"], json!(["BarChart"]));
    // Each question's facility is the mean of its column over the final results,
    // over its maximum.
    let finals: Vec<&Vec<String>> = csv[1..]
        .iter()
        .filter(|row| row[column("Provisional")] == "false" && row[column("Status")] == "3")
        .collect();
    let items = sheet("Item statistics");
    for (j, &c) in questions.iter().enumerate() {
        let item = &items[j + 1];
        assert_eq!(item[0]["value"], format!("Q{}", j + 1));
        let max = item[4]["value"].as_f64().unwrap();
        let mean = finals
            .iter()
            .map(|row| row[c].parse::<f64>().unwrap())
            .sum::<f64>()
            / finals.len() as f64;
        let facility = item[6]["value"].as_f64().unwrap();
        assert!(
            (facility - mean / max).abs() < 1e-9,
            "Q{}: {facility}",
            j + 1
        );
        assert_eq!(item[5]["value"].as_u64(), Some(finals.len() as u64));
    }

    // The gradebook: the school's keys, one result each, totals as scores.
    let gradebook = &files["oneroster"];
    let manifest: HashMap<String, String> = gradebook["manifest.csv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["propertyName"].as_str().unwrap().to_owned(),
                r["value"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(manifest["oneroster.version"], "1.1");
    assert_eq!(manifest["file.results"], "bulk");
    let graded = gradebook["results.csv"].as_array().unwrap();
    assert_eq!(graded.len(), feed.len());
    let zoe_graded = graded
        .iter()
        .find(|r| r["sourcedId"] == format!("scoredesk-result-{}", literature[0].result))
        .unwrap();
    assert_eq!(zoe_graded["studentSourcedId"], "u-s-01");
    assert_eq!(
        zoe_graded["lineItemSourcedId"],
        format!("scoredesk-{assessment}-c-lit")
    );
    assert_eq!(zoe_graded["scoreStatus"], "fully graded");
    assert_eq!(
        zoe_graded["score"],
        feed[&literature[0].result]["TotalScore"]
            .as_i64()
            .unwrap()
            .to_string()
    );
    let waiting = graded
        .iter()
        .find(|r| r["sourcedId"] == format!("scoredesk-result-{}", literature[1].result))
        .unwrap();
    assert_eq!(waiting["scoreStatus"], "partially graded");
    let line_items = gradebook["lineItems.csv"].as_array().unwrap();
    let lit = line_items
        .iter()
        .find(|l| l["classSourcedId"] == "c-lit")
        .unwrap();
    assert_eq!(
        lit["resultValueMax"],
        feed[&literature[0].result]["MaxScore"]
            .as_i64()
            .unwrap()
            .to_string()
    );
    let set9_item = line_items
        .iter()
        .find(|l| l["classSourcedId"] == "'@Set 9")
        .expect("a hand-made class has its name, neutralised, for a key");
    assert_eq!(set9_item["categorySourcedId"], "scoredesk-assessments");
}
