//! Rosters sent over HTTP (`ImportRoster`, docs/rosters.md), as the desktop sends
//! them, on both databases: the hand-checked OneRoster export zipped and a plain
//! CSV previewed (nothing stored), imported (counts as the command line's) and
//! imported again (unchanged); a malformed file is a 400 naming its line and
//! column and a conflict a 409, storing nothing; coordinators and scorers are
//! refused; Harbour's administrator fills Harbour's area, never Northwind's.

use std::io::Write;

use base64::Engine;
use reqwest::StatusCode;
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use serde_json::{json, Value};

use super::rosters::fixture;

on_both_backends! {
    a_roster_sent_whole_is_previewed_imported_and_refused_by_line => roster_action;
}

const TABLES: [&str; 3] = ["participants", "groups", "group_participants"];

/// The fixture's folder as the zip a school's system gives (in one folder, as
/// some systems write it).
fn zipped_fixture() -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let mut names: Vec<_> = std::fs::read_dir(fixture())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    for path in names {
        let name = format!("westbrook/{}", path.file_name().unwrap().to_string_lossy());
        zip.start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(&std::fs::read(&path).unwrap()).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

async fn send(
    app: &TestApp,
    user: &str,
    area: i32,
    roster: &[u8],
    file: &str,
    preview: bool,
) -> (StatusCode, Value) {
    let response = app
        .client
        .post(app.url(&format!("/deliveryodata/{area}/ImportRoster")))
        .basic_auth(user, Some(DEMO_PASSWORD))
        .header("Accept", "application/json")
        .json(&json!({
            "Roster": base64::engine::general_purpose::STANDARD.encode(roster),
            "FileName": file,
            "Preview": preview,
        }))
        .send()
        .await
        .unwrap();
    let status = response.status();
    (status, response.json().await.unwrap())
}

fn message(body: &Value) -> &str {
    body["odata.error"]["message"]["value"]
        .as_str()
        .unwrap_or("")
}

async fn roster_action(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let northwind = app.northwind();
    let before = app.row_counts(&TABLES).await;
    let zip = zipped_fixture();

    let (status, preview) = send(
        &app,
        "northwind-admin",
        northwind,
        &zip,
        "westbrook.zip",
        true,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{preview}");
    assert_eq!(preview["Preview"], true);
    assert_eq!(preview["Format"], "OneRoster 1.2");
    assert_eq!(
        app.row_counts(&TABLES).await,
        before,
        "a preview stores nothing"
    );

    let (status, report) = send(
        &app,
        "northwind-admin",
        northwind,
        &zip,
        "westbrook.zip",
        false,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{report}");
    assert_eq!(report["Preview"], false);
    for (field, expected) in [
        ("ParticipantsCreated", 4),
        ("GroupsCreated", 3),
        ("MembershipsAdded", 5),
        ("ParticipantsUpdated", 0),
        ("MembershipsRemoved", 0),
    ] {
        assert_eq!(report[field], expected, "{field}: {report}");
        assert_eq!(preview[field], expected, "the preview's {field}");
    }
    assert_eq!(
        report["NotParticipants"],
        json!([{"Role": "guardian", "Count": 1}, {"Role": "teacher", "Count": 1}])
    );
    let after = app.row_counts(&TABLES).await;
    assert_eq!(after, vec![before[0] + 4, before[1] + 3, before[2] + 5]);

    let (_, again) = send(
        &app,
        "northwind-admin",
        northwind,
        &zip,
        "westbrook.zip",
        false,
    )
    .await;
    assert_eq!(again["ParticipantsUnchanged"], 4, "{again}");
    assert_eq!(again["ParticipantsCreated"], 0);
    assert_eq!(
        app.row_counts(&TABLES).await,
        after,
        "the same file twice changes nothing"
    );

    // A plain CSV: one new participant in a new group and one changed name.
    let plain = "username,first_name,last_name,email,group\n\
                 nia.obi,Nia,Obi,nia@westbrook.example,Form 7C\n\
                 zoe.garcia,Zoe,Garcia,,Form 7C\n";
    let (status, report) = send(
        &app,
        "northwind-admin",
        northwind,
        plain.as_bytes(),
        "form7c.csv",
        false,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{report}");
    assert_eq!(report["Format"], "plain CSV");
    assert_eq!(report["ParticipantsCreated"], 1, "{report}");
    assert_eq!(report["ParticipantsUpdated"], 1, "{report}");
    assert_eq!(report["MembershipsAdded"], 2, "{report}");
    assert_eq!(zoe_last_name(&app).await, "Garcia");
    let stored = app.row_counts(&TABLES).await;

    // Malformed: named by file, line and column; nothing stored.
    let bad = "username,first_name,last_name,email,group\nok.one,A,B,,G\n,C,D,c@d.example,G\n";
    let (status, body) = send(
        &app,
        "northwind-admin",
        northwind,
        bad.as_bytes(),
        "C:\\exports\\bad.csv",
        false,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let said = message(&body);
    assert!(
        said.contains("bad.csv") && said.contains("line 3") && said.contains("username"),
        "{said}"
    );
    for broken in [&b"PK\x03\x04 not a zip"[..], b"", b"\xff\xfe\x00u"] {
        let (status, body) = send(&app, "northwind-admin", northwind, broken, "x.zip", false).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{broken:?}: {body}");
        assert!(message(&body).starts_with("ImportRoster: "), "{body}");
    }
    // Another school system's record with Zoë's username (as rosters.rs's
    // conflict): 409 naming her, nothing stored.
    let file =
        |name: &str| String::from_utf8(std::fs::read(fixture().join(name)).unwrap()).unwrap();
    let users = file("users.csv").replace("u-s-01,active", "u-s-99,active");
    let roles = file("roles.csv").replace("u-s-01,", "u-s-99,");
    let enrollments = file("enrollments.csv").replace("u-s-01,", "u-s-99,");
    let taken = zip_with(&[
        ("users.csv", users.as_bytes()),
        ("roles.csv", roles.as_bytes()),
        ("enrollments.csv", enrollments.as_bytes()),
    ]);
    let (status, body) = send(
        &app,
        "northwind-admin",
        northwind,
        &taken,
        "taken.zip",
        false,
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(message(&body).contains("zoe.garcia"), "{body}");
    assert_eq!(
        app.row_counts(&TABLES).await,
        stored,
        "a refused roster stores nothing"
    );

    for user in ["northwind-coordinator", "northwind-scorer"] {
        let (status, body) =
            send(&app, user, northwind, plain.as_bytes(), "form7c.csv", true).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{user}: {body}");
    }
    let (status, body) = send(
        &app,
        "harbour-admin",
        northwind,
        plain.as_bytes(),
        "form7c.csv",
        false,
    )
    .await;
    assert!(
        status == StatusCode::FORBIDDEN || status == StatusCode::NOT_FOUND,
        "{status} {body}"
    );
    let harbour_before = app.row_counts(&TABLES).await;
    let (status, body) = send(
        &app,
        "harbour-admin",
        app.harbour(),
        plain.as_bytes(),
        "form7c.csv",
        false,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        body["ParticipantsCreated"], 2,
        "Harbour has neither: {body}"
    );
    assert_eq!(app.row_counts(&TABLES).await[0], harbour_before[0] + 2);
    assert_eq!(
        zoe_last_name(&app).await,
        "Garcia",
        "Northwind's Zoe is untouched"
    );
}

/// The fixture zipped with some of its files replaced.
fn zip_with(replaced: &[(&str, &[u8])]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for entry in std::fs::read_dir(fixture()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = replaced
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, b)| b.to_vec())
            .unwrap_or_else(|| std::fs::read(&path).unwrap());
        zip.start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(&bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// Northwind's zoe.garcia's family name, as the Participants feed gives it.
async fn zoe_last_name(app: &TestApp) -> String {
    let (status, zoe) = app
        .get_json_with(
            "northwind-admin",
            &format!(
                "{}Participants?$filter=Name%20eq%20%27zoe.garcia%27",
                app.root()
            ),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{zoe}");
    zoe["value"][0]["LastName"]
        .as_str()
        .unwrap_or("")
        .to_owned()
}
