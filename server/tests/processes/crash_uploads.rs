//! `kill -9` during a group of answer uploads (issue 31): eight clients upload at
//! once and the server is killed mid-way. After a restart on the same database
//! each upload is whole or absent, and the clients pick up where they stopped:
//! the absent ones go in when sent again, the whole ones answer 409.

use std::sync::Arc;
use std::time::Duration;

use reqwest::StatusCode;
use scoredesk_e2e::{Backend, TestDatabase};

use crate::support::{ServerProcess, Sql};
use crate::uploading::{whole_or_absent, Delivery};

const CLIENTS: usize = 8;
const EACH: usize = 30;

#[tokio::test]
async fn uploads_killed_mid_way_are_whole_or_absent_and_go_in_when_sent_again_on_sqlite() {
    killed_mid_upload(Backend::Sqlite).await;
}

#[tokio::test]
async fn uploads_killed_mid_way_are_whole_or_absent_and_go_in_when_sent_again_on_postgres() {
    killed_mid_upload(Backend::Postgres).await;
}

async fn killed_mid_upload(backend: Backend) {
    let (database, [area, _]) = TestDatabase::create_from_demo(backend).await;
    let mut first = ServerProcess::start(database.url(), &[]).await;
    let sql = Sql::connect(database.url()).await;
    let delivery = Delivery::prepare(&first.address, area, &sql).await;
    // The attempts first, so that every upload has one to go to.
    let mut attempts = Vec::new();
    for n in 0..CLIENTS * EACH {
        let answer = delivery.attempt(&format!("crash-{n}")).await;
        assert_eq!(answer.status, StatusCode::CREATED, "{answer:?}");
        attempts.push(answer.body["ID"].as_i64().unwrap());
    }
    let delivery = Arc::new(delivery);
    let clients: Vec<_> = attempts
        .chunks(EACH)
        .map(|mine| {
            let (delivery, mine) = (delivery.clone(), mine.to_vec());
            tokio::spawn(async move {
                for attempt in mine {
                    // The kill ends some with a dropped connection: not answered.
                    if !delivery.upload_or_gone(attempt).await {
                        break;
                    }
                }
            })
        })
        .collect();
    // Killed once a third of the uploads are in.
    let third = (CLIENTS * EACH / 3) as i64;
    for _ in 0..600 {
        let done = sql
            .scalar(&format!(
                "SELECT COUNT(*) FROM answer_uploads WHERE customer_id = {area}"
            ))
            .await;
        if done >= third {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    first.kill().await;
    for client in clients {
        client.await.unwrap();
    }
    sql.wait_for_servers_transactions_to_end().await;
    let (present, absent) = whole_or_absent(&sql, area, "crash-").await;
    assert!(
        !present.is_empty() && !absent.is_empty(),
        "killed mid-way: {} whole, {} absent",
        present.len(),
        absent.len()
    );

    let second = ServerProcess::start(database.url(), &[]).await;
    let delivery = delivery.through(&second.address, area);
    for attempt in &attempts {
        let again = delivery.upload(*attempt).await;
        let expected = if present.contains(attempt) {
            StatusCode::CONFLICT
        } else {
            StatusCode::CREATED
        };
        assert_eq!(
            again.status, expected,
            "attempt {attempt} sent again: {again:?}"
        );
    }
    let (present, absent) = whole_or_absent(&sql, area, "crash-").await;
    assert_eq!((present.len(), absent.len()), (attempts.len(), 0));
}
