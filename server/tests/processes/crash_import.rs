//! `kill -9` during `import qti` (issue 31): a package of 1,500 items, its import
//! killed once its transaction is writing. After the crash the area holds none of
//! it; the same command run again imports it whole.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use scoredesk_e2e::{Backend, TestDatabase};

use crate::support::Sql;

const ITEMS: usize = 1_500;

fn item(n: usize) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="q{n}" title="Sum {n}" adaptive="false" timeDependent="false">
<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier"><correctResponse><value>b</value></correctResponse></responseDeclaration>
<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float" normalMaximum="1"/>
<itemBody><p>What is {n} + 1?</p><choiceInteraction responseIdentifier="RESPONSE" maxChoices="1">
<simpleChoice identifier="a">{n}</simpleChoice><simpleChoice identifier="b">{}</simpleChoice><simpleChoice identifier="c">{}</simpleChoice></choiceInteraction></itemBody>
<responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>
</assessmentItem>"#,
        n + 1,
        n + 2
    )
}

fn package(path: &Path) {
    let mut writer = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    let options = zip::write::SimpleFileOptions::default();
    let resources: String = (0..ITEMS)
        .map(|n| format!(r#"<resource identifier="q{n}" type="imsqti_item_xmlv2p1" href="items/q{n}.xml"><file href="items/q{n}.xml"/></resource>"#))
        .collect();
    writer.start_file("imsmanifest.xml", options).unwrap();
    write!(
        writer,
        r#"<?xml version="1.0" encoding="UTF-8"?><manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" identifier="crash"><metadata><lom><general><title><string>Sums</string></title></general></lom></metadata><resources>{resources}</resources></manifest>"#
    )
    .unwrap();
    for n in 0..ITEMS {
        writer
            .start_file(format!("items/q{n}.xml"), options)
            .unwrap();
        writer.write_all(item(n).as_bytes()).unwrap();
    }
    writer.finish().unwrap();
}

fn import(url: &str, file: &Path, area: i32) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_scoredesk-server"));
    command
        .arg("--database-url")
        .arg(url)
        .env_remove("SCOREDESK_CONFIG")
        .args(["import", "qti"])
        .arg(file)
        .args(["--customer", &area.to_string()]);
    command
}

/// Whether another session has a write transaction open: the import's. On
/// SQLite, whoever holds the write lock (the import takes it with its `BEGIN
/// IMMEDIATE` and keeps it to its COMMIT), found by trying to take it without
/// waiting; on PostgreSQL, a session whose transaction is 100 ms old.
async fn import_writing(sql: &Sql, probe: Option<&mut sqlx::SqliteConnection>) -> bool {
    match probe {
        Some(probe) => match sqlx::query("BEGIN IMMEDIATE").execute(&mut *probe).await {
            Ok(_) => {
                sqlx::query("ROLLBACK").execute(&mut *probe).await.unwrap();
                false
            }
            Err(_) => true,
        },
        None => {
            sql.scalar(
                "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() \
                 AND pid <> pg_backend_pid() AND xact_start < now() - interval '100 milliseconds'",
            )
            .await
                > 0
        }
    }
}

#[tokio::test]
async fn an_import_killed_mid_way_leaves_nothing_and_runs_whole_again_on_sqlite() {
    killed_mid_import(Backend::Sqlite).await;
}

#[tokio::test]
async fn an_import_killed_mid_way_leaves_nothing_and_runs_whole_again_on_postgres() {
    killed_mid_import(Backend::Postgres).await;
}

async fn killed_mid_import(backend: Backend) {
    let (database, [area, _]) = TestDatabase::create_from_demo(backend).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("sums.zip");
    package(&file);
    let sql = Sql::connect(database.url()).await;
    let mut probe = match backend {
        Backend::Sqlite => {
            use sqlx::Connection;
            let mut probe = sqlx::SqliteConnection::connect(database.url())
                .await
                .unwrap();
            sqlx::query("PRAGMA busy_timeout = 0")
                .execute(&mut probe)
                .await
                .unwrap();
            Some(probe)
        }
        Backend::Postgres => None,
    };
    let questions = format!("SELECT COUNT(*) FROM questions WHERE customer_id = {area}");
    let before = sql.scalar(&questions).await;

    let mut child = import(database.url(), &file, area)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let begun = Instant::now();
    while !import_writing(&sql, probe.as_mut()).await {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the import ended before it was seen writing"
        );
        assert!(
            begun.elapsed() < Duration::from_secs(120),
            "the import was never seen writing"
        );
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success(), "killed, not finished");
    sql.wait_for_servers_transactions_to_end().await;
    assert_eq!(
        sql.scalar(&questions).await,
        before,
        "the killed import left questions"
    );

    let again = import(database.url(), &file, area).output().unwrap();
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let report = String::from_utf8_lossy(&again.stdout);
    assert!(report.contains("was created"), "{report}");
    assert_eq!(sql.scalar(&questions).await, before + ITEMS as i64);
}
