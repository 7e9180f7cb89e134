//! Migration 29 makes SQLite's accounts table again (its role check cannot be
//! changed in place): the accounts made before it must come through whole.

use std::borrow::Cow;

use crate::store::{Pool, Store};

const LEAD_ROLE_MIGRATION: i64 = 20261202000029;

#[tokio::test]
async fn accounts_made_before_the_lead_role_keep_every_field_and_lead_is_then_accepted() {
    let directory = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", directory.path().join("upgrade.db").display());
    let store = Store::connect(&url).await.unwrap();
    let Pool::Sqlite(pool, ..) = &store.pool else {
        panic!("a SQLite store");
    };
    let every = sqlx::migrate!("./migrations/sqlite");
    let mut before = sqlx::migrate!("./migrations/sqlite");
    before.migrations = Cow::Owned(
        every
            .iter()
            .filter(|migration| migration.version < LEAD_ROLE_MIGRATION)
            .cloned()
            .collect(),
    );
    assert!(
        before.iter().count() < every.iter().count(),
        "migration 29 exists"
    );
    before.run(pool).await.unwrap();
    sqlx::query(
        "INSERT INTO customers (id, name, created_at) VALUES (7, 'Riverside', 1); \
         INSERT INTO accounts (id, customer_id, username, password_hash, role, created_at) \
         VALUES (41, 7, 'riverside-coordinator', 'hash-41', 'coordinator', 1700000000000), \
                (42, NULL, 'root', 'hash-42', 'admin', 1700000000001)",
    )
    .execute(pool)
    .await
    .unwrap();
    let refused = sqlx::query(
        "INSERT INTO accounts (customer_id, username, password_hash, role, created_at) \
         VALUES (7, 'early-lead', 'h', 'lead', 1)",
    )
    .execute(pool)
    .await;
    assert!(
        refused.is_err(),
        "before migration 29 there is no lead role"
    );

    store.migrate().await.unwrap();
    let kept: Vec<(i64, Option<i64>, String, String, String, i64)> = sqlx::query_as(
        "SELECT id, customer_id, username, password_hash, role, created_at \
         FROM accounts ORDER BY id",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    assert_eq!(
        kept,
        vec![
            (
                41,
                Some(7),
                "riverside-coordinator".into(),
                "hash-41".into(),
                "coordinator".into(),
                1700000000000
            ),
            (
                42,
                None,
                "root".into(),
                "hash-42".into(),
                "admin".into(),
                1700000000001
            ),
        ]
    );
    for (role, accepted) in [("lead", true), ("boss", false)] {
        let inserted = sqlx::query(
            "INSERT INTO accounts (customer_id, username, password_hash, role, created_at) \
             VALUES (7, ?, 'h', ?, 1)",
        )
        .bind(format!("a-{role}"))
        .bind(role)
        .execute(pool)
        .await;
        assert_eq!(inserted.is_ok(), accepted, "{role}: {inserted:?}");
    }
    let duplicate = sqlx::query(
        "INSERT INTO accounts (customer_id, username, password_hash, role, created_at) \
         VALUES (7, 'root', 'h', 'lead', 1)",
    )
    .execute(pool)
    .await;
    assert!(duplicate.is_err(), "names stay unique");
    store.close().await;
}
