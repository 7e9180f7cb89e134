//! Rosters in (issue 34, docs/rosters.md): a hand-checked OneRoster 1.2 export
//! (tests/fixtures/rosters/README.md says what it holds and must become) imported
//! into the demo area on both databases, every count checked, and what it made
//! read back through the OData feeds; importing it again changes nothing; a changed
//! export updates names and memberships in place and takes what is gone out of its
//! groups, never its results; a conflict with a stored participant stores nothing.

use std::path::{Path, PathBuf};

use reqwest::StatusCode;
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use scoredesk_server::import::{import_roster, Mode, RosterError, RosterReport};
use scoredesk_server::model::area::CustomerArea;
use scoredesk_server::model::roster::RosterCounts;
use scoredesk_server::store::Store;
use serde_json::Value;

on_both_backends! {
    a_oneroster_export_brings_its_students_classes_and_enrolments_in => oneroster;
    a_changed_export_updates_in_place_and_what_is_gone_leaves_its_groups => changed;
    a_roster_that_conflicts_with_a_stored_participant_stores_nothing => conflict;
}

const ADMIN: &str = "northwind-admin";

pub(crate) fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/rosters/westbrook-1.2")
}

pub(crate) async fn import(
    app: &TestApp,
    path: &Path,
    mode: Mode,
) -> Result<RosterReport, RosterError> {
    let store = Store::connect(app.database_url()).await.unwrap();
    let area = CustomerArea::new(app.northwind()).unwrap();
    let report = import_roster(&store, area, path, mode).await;
    store.close().await;
    report
}

/// A group's members' usernames, sorted, as the OData feeds give them (the group
/// by name, then its Participants navigation).
async fn members(app: &TestApp, group: &str) -> Vec<String> {
    let filter = format!("Name eq '{}'", group.replace('\'', "''"));
    let (status, body) = app
        .get_json_with(
            ADMIN,
            &format!("{}Groups?$filter={}", app.root(), percent(&filter)),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let groups = body["value"].as_array().unwrap();
    assert_eq!(groups.len(), 1, "one group \"{group}\": {body}");
    let id = groups[0]["ID"].as_i64().unwrap();
    let (status, body) = app
        .get_json_with(
            ADMIN,
            &format!("{}Groups({id})/Participants", app.root()),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let mut names: Vec<String> = body["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["Name"].as_str().unwrap().to_owned())
        .collect();
    names.sort();
    names
}

fn percent(text: &str) -> String {
    text.replace(' ', "%20")
        .replace('\'', "%27")
        .replace(',', "%2C")
        .replace('(', "%28")
        .replace(')', "%29")
}

async fn participant(app: &TestApp, username: &str) -> Option<Value> {
    let (status, body) = app
        .get_json_with(
            ADMIN,
            &format!(
                "{}Participants?$filter=Name%20eq%20%27{username}%27",
                app.root()
            ),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["value"].as_array().unwrap().first().cloned()
}

fn copy_fixture(to: &Path) {
    for entry in std::fs::read_dir(fixture()).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

async fn oneroster(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let before = app
        .row_counts(&["participants", "groups", "group_participants"])
        .await;
    let preview = import(&app, &fixture(), Mode::Preview).await.unwrap();
    assert!(preview.preview);
    assert_eq!(
        app.row_counts(&["participants", "groups", "group_participants"])
            .await,
        before,
        "a preview stores nothing"
    );
    let report = import(&app, &fixture(), Mode::Commit).await.unwrap();
    assert_eq!(report.format, "OneRoster 1.2");
    assert_eq!(
        report,
        RosterReport {
            preview: false,
            ..preview
        }
    );
    assert_eq!(
        report.counts,
        RosterCounts {
            participants_created: 4,
            groups_created: 3,
            memberships_added: 5,
            ..RosterCounts::default()
        }
    );
    assert_eq!(
        report.not_participants,
        vec![("guardian".to_owned(), 1), ("teacher".to_owned(), 1)]
    );
    let after = app
        .row_counts(&["participants", "groups", "group_participants"])
        .await;
    assert_eq!(after, vec![before[0] + 4, before[1] + 3, before[2] + 5]);

    let zoe = participant(&app, "zoe.garcia").await.expect("zoe.garcia");
    assert_eq!(zoe["FirstName"], "Zoë");
    assert_eq!(zoe["LastName"], "García, Jr.");
    assert_eq!(zoe["PrimaryEmail"], "zoe.garcia@westbrook.example");
    let amara = participant(&app, "amara.nwosu").await.unwrap();
    assert_eq!(amara["LastName"], "Nwosu \"Mimi\"");
    assert!(participant(&app, "lukas.mueller").await.unwrap()["PrimaryEmail"].is_null());
    for nobody in ["r.okafor", "m.garcia", "left.student"] {
        assert!(
            participant(&app, nobody).await.is_none(),
            "{nobody} is no participant"
        );
    }
    assert_eq!(
        members(&app, "Biology (BIO-10A)").await,
        ["lukas.mueller", "zoe.garcia"]
    );
    assert_eq!(members(&app, "Biology (BIO-10B)").await, ["amara.nwosu"]);
    assert_eq!(
        members(&app, "Literature, Year 11").await,
        ["amara.nwosu", "zoe.garcia"]
    );
    let (_, old) = app
        .get_json_with(
            ADMIN,
            &format!(
                "{}Groups?$filter=Name%20eq%20%27Old%20Homeroom%27",
                app.root()
            ),
            &[],
        )
        .await;
    assert_eq!(
        old["value"].as_array().unwrap().len(),
        0,
        "a class to be deleted is no group"
    );

    let again = import(&app, &fixture(), Mode::Commit).await.unwrap();
    assert_eq!(
        again.counts,
        RosterCounts {
            participants_unchanged: 4,
            groups_unchanged: 3,
            ..RosterCounts::default()
        },
        "importing the same export again changes nothing"
    );
    assert_eq!(
        app.row_counts(&["participants", "groups", "group_participants"])
            .await,
        after
    );
}

async fn changed(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    import(&app, &fixture(), Mode::Commit).await.unwrap();
    let zoe_id = participant(&app, "zoe.garcia").await.unwrap()["ID"]
        .as_i64()
        .unwrap();
    // A result of Zoë's, which leaving a group must not touch.
    let participant_results =
        format!("SELECT COUNT(*) FROM results WHERE participant_id = {zoe_id}");
    app.sql_execute(&format!(
        "UPDATE results SET participant_id = {zoe_id} WHERE id = (SELECT MIN(id) FROM results WHERE customer_id = {})",
        app.northwind()
    ))
    .await;
    assert_eq!(app.sql_i64(&participant_results).await, 1);

    let dir = tempfile::tempdir().unwrap();
    copy_fixture(dir.path());
    let edit = |file: &str, from: &str, to: &str| {
        let path = dir.path().join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{file} has {from}");
        std::fs::write(&path, text.replace(from, to)).unwrap();
    };
    // Lukas changes his family name; Zoë leaves Literature for Biology B; Zoë is
    // then gone from the school's system altogether in a second export.
    edit("users.csv", "Lukas,Müller", "Lukas,Müller-Schmidt");
    edit(
        "enrollments.csv",
        "e-05,active,2026-09-01T08:00:00.000Z,c-lit",
        "e-05,active,2026-09-01T08:00:00.000Z,c-bio-b",
    );
    let report = import(&app, dir.path(), Mode::Commit).await.unwrap();
    assert_eq!(report.counts.participants_updated, 1, "{report:?}");
    assert_eq!(report.counts.participants_unchanged, 3);
    assert_eq!(
        (
            report.counts.memberships_added,
            report.counts.memberships_removed
        ),
        (1, 1)
    );
    assert_eq!(
        participant(&app, "lukas.mueller").await.unwrap()["LastName"],
        "Müller-Schmidt"
    );
    assert_eq!(members(&app, "Literature, Year 11").await, ["amara.nwosu"]);
    assert_eq!(
        members(&app, "Biology (BIO-10B)").await,
        ["amara.nwosu", "zoe.garcia"]
    );

    edit("users.csv", "u-s-01,active", "u-s-01,tobedeleted");
    let gone = import(&app, dir.path(), Mode::Commit).await.unwrap();
    assert_eq!(gone.counts.participants_left, 1, "{gone:?}");
    assert!(members(&app, "Biology (BIO-10A)")
        .await
        .iter()
        .all(|m| m != "zoe.garcia"));
    assert!(members(&app, "Biology (BIO-10B)")
        .await
        .iter()
        .all(|m| m != "zoe.garcia"));
    assert!(
        participant(&app, "zoe.garcia").await.is_some(),
        "the participant stays"
    );
    assert_eq!(
        app.sql_i64(&participant_results).await,
        1,
        "and so do her results"
    );
}

async fn conflict(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    import(&app, &fixture(), Mode::Commit).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    copy_fixture(dir.path());
    // Another school system's record with Zoë's username: the username is taken.
    let users = dir.path().join("users.csv");
    let text = std::fs::read_to_string(&users).unwrap();
    std::fs::write(
        &users,
        text.replace("u-s-01,active", "u-s-99,active")
            .replace("Wei,Chen", "Wei,Chen-Li"),
    )
    .unwrap();
    for file in ["roles.csv", "enrollments.csv"] {
        let path = dir.path().join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace("u-s-01,", "u-s-99,")).unwrap();
    }
    let before = app
        .row_counts(&["participants", "groups", "group_participants"])
        .await;
    let refused = import(&app, dir.path(), Mode::Commit).await.unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("username \"zoe.garcia\" belongs to the school system's u-s-01, not u-s-99"),
        "{refused}"
    );
    assert_eq!(
        app.row_counts(&["participants", "groups", "group_participants"])
            .await,
        before
    );
    assert_eq!(
        participant(&app, "chen.wei").await.unwrap()["LastName"],
        "Chen",
        "nothing of it is stored"
    );
}
