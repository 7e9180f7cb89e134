//! The `scoredesk-server` binary as an operator runs it: migrate, create an area and
//! an account, seed, serve, and answer an authenticated request; on both backends.

// A test binary: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used)]

mod support;

use std::process::{Command, Stdio};

use support::{free_port, run, run_refused, wait_until_healthy, Server, BINARY};

async fn operator_workflow(database_url: &str) {
    run(database_url, &["migrate"], None);
    let area: i32 = run(
        database_url,
        &["customer", "add", "--name", "Operators' Area"],
        None,
    )
    .trim()
    .parse()
    .expect("an area ID");
    run(
        database_url,
        &[
            "account",
            "add",
            "--username",
            "ops-scorer",
            "--customer",
            &area.to_string(),
            "--role",
            "scorer",
        ],
        Some("s3cret pass\n"),
    );
    // A lead marker (docs/marking-quality.md): the scorer's sets, not delivery's.
    run(
        database_url,
        &[
            "account",
            "add",
            "--username",
            "ops-lead",
            "--customer",
            &area.to_string(),
            "--role",
            "lead",
        ],
        Some("lead pass\n"),
    );
    // An account of every area is an administrator, or nothing.
    let refused = run_refused(
        database_url,
        &[
            "account",
            "add",
            "--username",
            "everywhere",
            "--server-admin",
            "--role",
            "scorer",
        ],
        Some("pass"),
    );
    assert!(refused.contains("must be admin"), "{refused}");
    run(
        database_url,
        &[
            "account",
            "add",
            "--username",
            "root",
            "--server-admin",
            "--role",
            "admin",
        ],
        Some("root pass"),
    );
    let seeded = run(database_url, &["seed", "--demo"], None);
    assert!(seeded.contains("demo seeded"), "{seeded}");
    assert!(run(database_url, &["seed", "--demo"], None).contains("already present"));

    let port = free_port();
    let server = Server(
        Command::new(BINARY)
            .args([
                "--database-url",
                database_url,
                "serve",
                "--bind",
                &format!("127.0.0.1:{port}"),
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("serve starts"),
    );
    let base = format!("http://127.0.0.1:{port}");
    wait_until_healthy(&base).await;
    let client = reqwest::Client::new();
    let root = format!("{base}/deliveryodata/{area}/");
    let ok = client
        .get(&root)
        .basic_auth("ops-scorer", Some("s3cret pass"))
        .send()
        .await
        .expect("request");
    assert_eq!(ok.status(), 200);
    let refused = client
        .get(&root)
        .basic_auth("ops-scorer", Some("wrong"))
        .send()
        .await
        .expect("request");
    assert_eq!(refused.status(), 401);
    for (set, status) in [("ScoringTasks", 200), ("AnswerUploads", 403)] {
        let answer = client
            .get(format!("{root}{set}"))
            .basic_auth("ops-lead", Some("lead pass"))
            .send()
            .await
            .expect("request");
        assert_eq!(answer.status(), status, "a lead marker reads {set}");
    }
    let anonymous = client.get(&root).send().await.expect("request");
    assert_eq!(anonymous.status(), 401);
    drop(server);
}

#[tokio::test]
async fn the_binary_serves_authenticated_requests_on_sqlite() {
    let dir = tempfile::tempdir().expect("temporary directory");
    operator_workflow(&format!("sqlite:{}", dir.path().join("ops.db").display())).await;
}

#[tokio::test]
async fn the_binary_serves_authenticated_requests_on_postgresql() {
    let admin = std::env::var("SCOREDESK_TEST_PG_URL")
        .expect("SCOREDESK_TEST_PG_URL: run the tests with scripts/test");
    let name = format!("scoredesk_cli_{}", std::process::id());
    let (base, _) = admin.rsplit_once('/').expect("a URL with a database");
    let url = format!("{base}/{name}");
    let admin_sql = |sql: String| {
        let admin = admin.clone();
        async move {
            use sqlx::Connection;
            let mut conn = sqlx::PgConnection::connect(&admin)
                .await
                .expect("admin connection");
            sqlx::query(&sql)
                .execute(&mut conn)
                .await
                .expect("admin statement");
        }
    };
    admin_sql(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).await;
    admin_sql(format!("CREATE DATABASE {name}")).await;
    operator_workflow(&url).await;
    admin_sql(format!("DROP DATABASE {name} WITH (FORCE)")).await;
}
