//! SQLite's disk full (issue 31): the database on a small filesystem of its own
//! (a tmpfs mounted in a mount namespace of the server's, so that no privilege is
//! needed and nothing outside sees it), filled to the last byte by a ballast file.
//! Writes then get 507 with the OData error body (nothing half written), reads go
//! on, and once the ballast is removed writes work again and `PRAGMA
//! integrity_check` passes.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use scoredesk_e2e::{Backend, TestDatabase};

use crate::support::{ServerProcess, Sql};
use crate::uploading::{whole_or_absent, Delivery, ADMIN, PASSWORD};

/// Room beside the database file before the ballast fills it.
const ROOM: u64 = 8 * 1024 * 1024;

/// Fills `file` with zeros until the filesystem refuses more.
fn fill(file: &PathBuf) -> u64 {
    let mut ballast = std::fs::File::create(file).unwrap();
    let chunk = vec![0u8; 64 * 1024];
    let mut written = 0;
    while ballast.write_all(&chunk).is_ok() {
        written += chunk.len() as u64;
    }
    // Then byte by byte into the last block.
    while ballast.write_all(&[0]).is_ok() && ballast.flush().is_ok() {
        written += 1;
    }
    written
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_sqlites_disk_full_writes_get_507_reads_go_on_and_all_resumes_intact() {
    let (template, [area, _]) = TestDatabase::create_from_demo(Backend::Sqlite).await;
    let source = template.url().strip_prefix("sqlite:").unwrap().to_owned();
    let size = std::fs::metadata(&source).unwrap().len();
    let mount = tempfile::tempdir().unwrap();
    let dir = mount.path().display().to_string();
    // The server's own view: a tmpfs over `dir` holding a copy of the database.
    let script = format!(
        "mount -t tmpfs -o size={} tmpfs '{dir}' && cp '{source}' '{dir}/db.sqlite' && exec \"$@\"",
        size + ROOM
    );
    let url = format!("sqlite:{dir}/db.sqlite");
    let server = ServerProcess::start_wrapped(
        &url,
        &[],
        &[
            "unshare",
            "--user",
            "--map-root-user",
            "--mount",
            "sh",
            "-c",
            &script,
            "sh",
        ],
    )
    .await;
    // The test reaches the server's files through its root, as it sees them.
    // (SQLite itself cannot open them there: it resolves the /proc link to the
    // test's own view of `dir`, so the file is copied out to be read.)
    let inside = PathBuf::from(format!("/proc/{}/root{dir}", server.pid()));
    let delivery =
        Delivery::prepare(&server.address, area, &Sql::connect(template.url()).await).await;
    let ballast = inside.join("ballast");
    let filled = fill(&ballast);
    assert!(filled > 0, "the ballast took the room");

    // Write until the disk refuses: whatever is still cached in the WAL's room
    // goes in first.
    let begun = Instant::now();
    let mut full = None;
    let mut n = 0;
    while full.is_none() && begun.elapsed() < Duration::from_secs(120) {
        n += 1;
        let attempt = delivery.attempt(&format!("full-{n}")).await;
        let answer = match attempt.body["ID"].as_i64() {
            Some(id) if attempt.status == StatusCode::CREATED => delivery.upload(id).await,
            _ => attempt,
        };
        match answer.status {
            StatusCode::CREATED => {}
            StatusCode::INSUFFICIENT_STORAGE => full = Some(answer),
            _ => panic!("a write on a full disk: {answer:?}"),
        }
    }
    let full = full.expect("no write met the full disk in 120 s");
    assert_eq!(
        full.body["odata.error"]["code"], "InsufficientStorage",
        "{full:?}"
    );
    // A second write is refused the same way, not with a 500.
    let again = delivery.attempt("full-again").await;
    assert_eq!(
        again.status,
        StatusCode::INSUFFICIENT_STORAGE,
        "{again:?}\n{}",
        server.log().join("\n")
    );

    // Reads go on.
    let client = reqwest::Client::new();
    for path in [
        "Results?$top=5",
        "ScoringTasks?$top=5",
        "AssessmentSnapshots",
    ] {
        let read = client
            .get(server.url(&format!("/deliveryodata/{area}/{path}")))
            .basic_auth(ADMIN, Some(PASSWORD))
            .send()
            .await
            .unwrap();
        assert_eq!(read.status(), StatusCode::OK, "{path} on a full disk");
    }

    // Space comes back: writes resume, every upload is whole or absent, and the
    // file is sound.
    std::fs::remove_file(&ballast).unwrap();
    let attempt = delivery.attempt("full-after").await;
    assert_eq!(
        attempt.status,
        StatusCode::CREATED,
        "{attempt:?}\n{}",
        server.log().join("\n")
    );
    let upload = delivery.upload(attempt.body["ID"].as_i64().unwrap()).await;
    assert_eq!(upload.status, StatusCode::CREATED, "{upload:?}");
    // The file as the server left it, idle: the database and its write-ahead log.
    let copy = tempfile::tempdir().unwrap();
    for name in ["db.sqlite", "db.sqlite-wal"] {
        std::fs::copy(inside.join(name), copy.path().join(name)).unwrap();
    }
    let sql = Sql::connect(&format!(
        "sqlite:{}",
        copy.path().join("db.sqlite").display()
    ))
    .await;
    let (present, _) = whole_or_absent(&sql, area, "full-").await;
    assert!(!present.is_empty());
    let Sql::Sqlite(pool) = &sql else {
        unreachable!()
    };
    let verdict: Vec<(String,)> = sqlx::query_as("PRAGMA integrity_check")
        .fetch_all(pool)
        .await
        .unwrap();
    assert_eq!(verdict, vec![("ok".to_owned(),)]);
    let errors: Vec<String> = server
        .log()
        .into_iter()
        .filter(|l| l.contains("\"ERROR\"") && !l.contains("disk is full"))
        .collect();
    assert!(errors.is_empty(), "logged as errors: {errors:?}");
    drop(template);
}
