//! Formats and protocol versions: JSON light, verbose JSON, version 2 clients, 406.

use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};

on_both_backends! {
    verbose_json_wraps_feeds_in_d_results_with_metadata => verbose_feed;
    a_version_2_client_gets_verbose_json_and_version_2_headers => version_2_client;
    datetimes_keep_milliseconds_and_int64_are_strings_in_both_formats => value_formats;
    a_format_the_service_cannot_produce_is_406_and_a_bad_version_is_400 => unacceptable;
    a_verbose_client_gets_errors_in_the_verbose_shape => verbose_errors;
}

async fn verbose_errors(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let path = format!("{}Results?$filter=Secret eq 1", app.root());
    for headers in [
        &[("Accept", "application/json;odata=verbose")][..],
        &[("MaxDataServiceVersion", "2.0")][..],
    ] {
        let (status, body) = app.get_json_with("northwind-admin", &path, headers).await;
        assert_eq!(status, 400);
        assert!(
            body["error"]["message"]["value"]
                .as_str()
                .unwrap()
                .contains("Secret"),
            "{body}"
        );
        assert!(body.get("odata.error").is_none());
    }
    let (_, light) = app.get_json_with("northwind-admin", &path, &[]).await;
    assert!(light["odata.error"]["code"].is_string());
}

async fn verbose_feed(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (status, body) = app
        .get_json_with(
            "northwind-admin",
            &format!("{}Results?$top=2&$inlinecount=allpages", app.root()),
            &[("Accept", "application/json;odata=verbose")],
        )
        .await;
    assert_eq!(status, 200);
    let results = body["d"]["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    assert!(body["d"]["__count"].is_string());
    let metadata = &results[0]["__metadata"];
    assert_eq!(metadata["type"], "ScoreDesk.Result");
    assert!(metadata["uri"]
        .as_str()
        .unwrap()
        .ends_with(&format!("Results({})", results[0]["ID"])));
    assert!(results[0]["Answers"]["__deferred"]["uri"]
        .as_str()
        .unwrap()
        .ends_with("/Answers"));
    let (_, format_option) = app
        .get_json_with(
            "northwind-admin",
            &format!("{}Results?$top=1&$format=verbosejson", app.root()),
            &[],
        )
        .await;
    assert!(format_option["d"]["results"].is_array());
}

async fn version_2_client(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let response = app
        .client
        .get(app.url(&format!("{}Groups", app.root())))
        .basic_auth("northwind-admin", Some("scoredesk-demo"))
        .header("MaxDataServiceVersion", "2.0")
        .header("Accept", "application/json")
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["dataserviceversion"], "2.0;");
    let body: serde_json::Value = response.json().await.unwrap();
    assert!(body["d"]["results"].is_array(), "{body}");
}

async fn value_formats(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let result = app.first_id("results").await;
    let ms = app
        .sql_i64(&format!(
            "SELECT when_finished FROM results WHERE id = {result}"
        ))
        .await;
    let light = app
        .get_json(&format!("{}Results({result})", app.root()))
        .await;
    let finished = light["WhenFinished"].as_str().unwrap();
    assert_eq!(
        finished.len(),
        "2026-11-21T09:30:12.123".len(),
        "milliseconds, no zone: {finished}"
    );
    assert_eq!(
        scoredesk_server::odata::filter::parse_datetime(finished),
        Some(ms)
    );
    assert!(light["AssessmentID"].is_string());
    let (_, verbose) = app
        .get_json_with(
            "northwind-admin",
            &format!("{}Results({result})", app.root()),
            &[("Accept", "application/json;odata=verbose")],
        )
        .await;
    assert_eq!(verbose["d"]["WhenFinished"], format!("/Date({ms})/"));
    // A value read can be sent back as a filter literal and finds the same entity.
    let back = app
        .get_json(&format!(
            "{}Results?$filter=WhenFinished eq datetime'{finished}' and ID eq {result}",
            app.root()
        ))
        .await;
    assert_eq!(back["value"].as_array().unwrap().len(), 1);
}

async fn unacceptable(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let path = format!("{}Results", app.root());
    let (status, _) = app
        .get_json_with("northwind-admin", &path, &[("Accept", "text/html")])
        .await;
    assert_eq!(status, 406);
    let response = app
        .client
        .get(app.url(&path))
        .basic_auth("northwind-admin", Some("scoredesk-demo"))
        .header("DataServiceVersion", "4.0")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    assert!(odata_error_message(response).await.contains("3.0"));
}
