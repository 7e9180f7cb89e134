//! `/metrics` for Prometheus: only for server administrators; requests counted and
//! timed by route pattern (never by what a client typed), the pool and the scoring
//! queues as they are when scraped.

use reqwest::StatusCode;
use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};

on_both_backends! {
    metrics_are_for_server_administrators_only => administrators_only;
    requests_are_counted_by_route_pattern_and_the_queues_read_when_scraped => counted;
}

async fn administrators_only(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let response = app.get_anonymous("/metrics").await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    odata_error_message(response).await;
    let response = app.get_as("northwind-admin", "/metrics").await;
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    assert!(odata_error_message(response)
        .await
        .contains("not a server administrator"));
    let (root, password) = app.add_server_admin().await;
    let response = app
        .request_as(reqwest::Method::GET, "/metrics", root, password)
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/openmetrics-text"));
}

async fn counted(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (root, password) = app.add_server_admin().await;
    let area = app.northwind();
    for _ in 0..3 {
        app.get_json(&format!("/deliveryodata/{area}/ScoringTasks?$top=1"))
            .await;
    }
    let task = app
        .get_json(&format!("/deliveryodata/{area}/ScoringTasks?$top=1"))
        .await["value"][0]
        .clone();
    let key = format!(
        "ScoringTasks(QuestionID={}L,ResultID={})/ScoringResult",
        task["QuestionID"].as_str().unwrap(),
        task["ResultID"]
    );
    app.get_json(&format!("/deliveryodata/{area}/{key}")).await;
    // An answer that is an error keeps its route's label: one refused at the gate,
    // before routing, and one routed to a key that does not exist.
    let refused = app
        .get_anonymous(&format!("/deliveryodata/{area}/{key}"))
        .await;
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    let missing = app
        .get_as(
            "northwind-admin",
            &format!("/deliveryodata/{area}/ScoringTasks(QuestionID=999999L,ResultID=999999)/ScoringResult"),
        )
        .await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    // Made-up paths and methods, each different: they must not make labels of their own.
    for n in 0..20 {
        let response = app
            .get_as(
                "northwind-admin",
                &format!("/deliveryodata/{area}/Nothing{n}"),
            )
            .await;
        assert_eq!(response.status(), StatusCode::NOT_FOUND);
        app.get_anonymous(&format!("/elsewhere/{n}")).await;
    }
    let text = scrape(&app, root, password).await;
    let line = |needle: &str| -> f64 {
        let found = text
            .lines()
            .find(|line| line.starts_with(needle))
            .unwrap_or_else(|| panic!("no line {needle} in\n{text}"));
        found.rsplit(' ').next().unwrap().parse().unwrap()
    };
    assert_eq!(
        line(
            r#"scoredesk_http_requests_total{method="GET",route="/deliveryodata/{area}/ScoringTasks",status="200"}"#
        ),
        4.0
    );
    assert_eq!(
        line(
            r#"scoredesk_http_requests_total{method="GET",route="/deliveryodata/{area}/ScoringTasks(…)/ScoringResult",status="200"}"#
        ),
        1.0
    );
    assert_eq!(
        line(
            r#"scoredesk_http_requests_total{method="GET",route="/deliveryodata/{area}/ScoringTasks(…)/ScoringResult",status="401"}"#
        ),
        1.0
    );
    assert_eq!(
        line(
            r#"scoredesk_http_requests_total{method="GET",route="/deliveryodata/{area}/ScoringTasks(…)/ScoringResult",status="404"}"#
        ),
        1.0
    );
    assert_eq!(
        line(
            r#"scoredesk_http_requests_total{method="GET",route="/deliveryodata/{area}/(unknown)",status="404"}"#
        ),
        20.0
    );
    assert_eq!(
        line(r#"scoredesk_http_requests_total{method="GET",route="(unknown)",status="404"}"#),
        20.0
    );
    assert_eq!(
        line(
            r#"scoredesk_http_request_duration_seconds_count{method="GET",route="/deliveryodata/{area}/ScoringTasks"}"#
        ),
        4.0
    );
    let routes: std::collections::BTreeSet<&str> = text
        .lines()
        .filter(|line| line.starts_with("scoredesk_http_requests_total{"))
        .filter_map(|line| line.split("route=\"").nth(1)?.split('"').next())
        .collect();
    assert!(
        routes.len() <= 5,
        "one label per route, not per path: {routes:?}"
    );
    // The queue depth is the open tasks, as `$count` counts them.
    let open = app
        .get_as(
            "northwind-admin",
            &format!("/deliveryodata/{area}/ScoringTasks/$count?$filter=Status eq 0"),
        )
        .await
        .text()
        .await
        .unwrap();
    assert_eq!(
        line(&format!(
            r#"scoredesk_scoring_tasks{{area="{area}",status="0"}}"#
        )),
        open.parse::<f64>().unwrap()
    );
    let open = line(r#"scoredesk_db_connections{state="idle"}"#)
        + line(r#"scoredesk_db_connections{state="in_use"}"#);
    assert!(
        open >= 1.0 && open <= line("scoredesk_db_connections_max"),
        "{text}"
    );
    // The scrape in flight counts itself.
    assert!(line("scoredesk_http_requests_in_flight") >= 1.0);
}

async fn scrape(app: &TestApp, user: &str, password: &str) -> String {
    let response = app
        .request_as(reqwest::Method::GET, "/metrics", user, password)
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    response.text().await.unwrap()
}
