use reqwest::StatusCode;
use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};

on_both_backends! {
    the_health_check_answers_without_credentials => health_without_credentials;
    an_unknown_path_gets_404_with_the_error_body => unknown_path;
}

async fn health_without_credentials(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let response = app.get_anonymous("/health").await;
    assert_eq!(response.status(), StatusCode::OK);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["database"], "ok");
}

async fn unknown_path(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let response = app.get_anonymous("/elsewhere").await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    odata_error_message(response).await;
    let response = app
        .get_as(
            "northwind-admin",
            &format!("/deliveryodata/{}/NoSuchFeed", app.northwind()),
        )
        .await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    assert!(odata_error_message(response).await.contains("NoSuchFeed"));
}
