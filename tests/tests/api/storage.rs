//! The storage conformance suite: the same expectations of the store on both backends.

use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use scoredesk_server::store::{NewAccount, StoreError};

on_both_backends! {
    an_account_is_found_by_its_username_with_its_area_and_role => account_round_trip;
    a_second_account_with_the_same_username_is_a_conflict => duplicate_username;
    a_transaction_dropped_without_commit_leaves_nothing => rollback_on_drop;
    customer_areas_get_ascending_ids => customer_ids_ascend;
    setting_the_password_of_an_unknown_account_is_not_found => unknown_account_password;
}

async fn account_round_trip(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let area = app.store.insert_customer("Area").await.unwrap();
    let id = app
        .store
        .insert_account(NewAccount {
            customer_id: Some(area),
            username: "ann",
            password_hash: "$h",
            role: "scorer",
        })
        .await
        .unwrap();
    let found = app.store.find_account("ann").await.unwrap().expect("found");
    assert_eq!(
        (
            found.id,
            found.customer_id,
            found.role.as_str(),
            found.password_hash.as_str()
        ),
        (id, Some(area), "scorer", "$h")
    );
    assert!(app.store.find_account("bob").await.unwrap().is_none());
    assert!(app.store.customer_exists(area).await.unwrap());
    assert!(!app.store.customer_exists(area + 1).await.unwrap());
}

async fn duplicate_username(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let area = app.store.insert_customer("Area").await.unwrap();
    let account = || NewAccount {
        customer_id: Some(area),
        username: "ann",
        password_hash: "$h",
        role: "scorer",
    };
    app.store.insert_account(account()).await.unwrap();
    assert!(matches!(
        app.store.insert_account(account()).await,
        Err(StoreError::Conflict(_))
    ));
}

async fn rollback_on_drop(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    {
        let mut tx = app.store.begin().await.unwrap();
        tx.insert_customer("Never committed").await.unwrap();
    }
    assert_eq!(app.sql_i64("SELECT COUNT(*) FROM customers").await, 0);
}

async fn customer_ids_ascend(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let first = app.store.insert_customer("A").await.unwrap();
    let second = app.store.insert_customer("B").await.unwrap();
    assert!(first > 0 && second > first);
}

async fn unknown_account_password(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    assert!(matches!(
        app.store.set_password("nobody", "$h").await,
        Err(StoreError::NotFound)
    ));
}
