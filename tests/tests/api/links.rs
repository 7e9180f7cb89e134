//! `$links` (issue 19): the URLs a navigation leads to, paged like the navigation
//! (next links, `$inlinecount`, `$count`), in JSON light, verbose JSON and XML; the
//! association links entries carry lead here. Malformed `$links` paths and query
//! options are 400s that say what is wrong; writes are 405. Who may read them is
//! the access matrix's (access_matrix.rs walks `$links` with every role and method).

use reqwest::StatusCode;
use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};
use serde_json::Value;

use crate::atom_support;

on_both_backends! {
    links_are_paged_counted_and_written_in_every_format => paging;
    a_to_one_link_is_one_url_and_a_missing_one_is_no_content => to_one;
    malformed_links_paths_are_refused_by_name_and_links_are_read_only => refusals;
}

const USER: &str = "northwind-admin";

async fn get(app: &TestApp, path: &str, accept: Option<&str>) -> (StatusCode, String) {
    // Next links and link URLs are absolute; paths are the service's.
    let url = if path.starts_with("http") {
        path.to_owned()
    } else {
        app.url(path)
    };
    let mut request = app.client.get(url).basic_auth(USER, Some("scoredesk-demo"));
    if let Some(accept) = accept {
        request = request.header("Accept", accept);
    }
    let response = request.send().await.unwrap();
    (response.status(), response.text().await.unwrap())
}

/// The Northwind result with the most answers (at least three), and its answers'
/// ids (full metadata) in the navigation's order.
async fn result_with_answers(app: &TestApp) -> (String, Vec<String>) {
    let root = app.root();
    let id = app
        .sql_i64(&format!(
            "SELECT CAST(result_id AS BIGINT) FROM answers WHERE customer_id = {} \
             GROUP BY result_id ORDER BY COUNT(*) DESC, result_id LIMIT 1",
            app.northwind()
        ))
        .await;
    let result = format!("Results({id})");
    let (answers, _) = app
        .get_all_pages(&format!(
            "{root}{result}/Answers?$format=application/json;odata=fullmetadata"
        ))
        .await;
    let answers: Vec<String> = answers
        .iter()
        .map(|a| a["odata.id"].as_str().unwrap().to_owned())
        .collect();
    assert!(answers.len() >= 3, "{result} has {} answers", answers.len());
    (result, answers)
}

async fn paging(backend: Backend) {
    let app = TestApp::spawn_with_demo_configured(backend, |s| s.page_size = 2).await;
    let root = app.root();
    let (result, answers) = result_with_answers(&app).await;
    let total = answers.len();

    // JSON light: pages of two, each with the count and a next link, until the last.
    let mut url = format!("{root}{result}/$links/Answers?$inlinecount=allpages");
    let mut urls = Vec::new();
    let mut pages = 0;
    loop {
        let (status, body) = get(&app, &url, None).await;
        assert_eq!(status, StatusCode::OK, "{url}: {body}");
        let body: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(
            body["odata.metadata"],
            format!("{}$metadata#Results/$links/Answers", app.url(&root)),
        );
        assert_eq!(body["odata.count"], total.to_string());
        let page = body["value"].as_array().unwrap();
        assert!(page.len() <= 2);
        urls.extend(page.iter().map(|l| l["url"].as_str().unwrap().to_owned()));
        pages += 1;
        match body["odata.nextLink"].as_str() {
            Some(next) => url = next.to_owned(),
            None => break,
        }
    }
    assert_eq!(urls, answers, "the links are the navigation's entities");
    assert_eq!(pages, total.div_ceil(2));

    // Each link leads to the entity it names.
    let (status, _) = get(&app, &urls[0], None).await;
    assert_eq!(status, StatusCode::OK);

    // $count, and $top with $skip.
    let (status, count) = get(&app, &format!("{root}{result}/$links/Answers/$count"), None).await;
    assert_eq!((status, count), (StatusCode::OK, total.to_string()));
    let (_, window) = get(
        &app,
        &format!("{root}{result}/$links/Answers?$top=1&$skip=1"),
        None,
    )
    .await;
    let window: Value = serde_json::from_str(&window).unwrap();
    assert_eq!(window["value"], serde_json::json!([{ "url": answers[1] }]));

    // XML: a namespaced <links> with m:count, the uris and <next>.
    let (status, xml) = get(
        &app,
        &format!("{root}{result}/$links/Answers?$inlinecount=allpages"),
        Some("application/xml"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let links = atom_support::links(&xml);
    assert!(links.collection, "{xml}");
    assert_eq!(links.count, Some(total as i64));
    assert_eq!(links.uris, answers[..2]);
    let next = links.next.expect("a next link");
    let (_, xml) = get(&app, &next, Some("application/xml")).await;
    assert_eq!(atom_support::links(&xml).uris, answers[2..total.min(4)]);

    // Verbose JSON and no metadata.
    let (_, verbose) = get(
        &app,
        &format!("{root}{result}/$links/Answers?$inlinecount=allpages"),
        Some("application/json;odata=verbose"),
    )
    .await;
    let verbose: Value = serde_json::from_str(&verbose).unwrap();
    assert_eq!(verbose["d"]["results"][0]["uri"], answers[0].as_str());
    assert_eq!(verbose["d"]["__count"], total.to_string());
    assert!(verbose["d"]["__next"].is_string());
    let (_, none) = get(
        &app,
        &format!("{root}{result}/$links/Answers"),
        Some("application/json;odata=nometadata"),
    )
    .await;
    let none: Value = serde_json::from_str(&none).unwrap();
    assert!(none.get("odata.metadata").is_none(), "{none}");
    assert_eq!(none["value"][0]["url"], answers[0].as_str());

    // $filter and $orderby apply as on the navigation.
    let (_, filtered) = get(
        &app,
        &format!("{root}{result}/$links/Answers?$orderby=QuestionID desc&$top=1"),
        None,
    )
    .await;
    let filtered: Value = serde_json::from_str(&filtered).unwrap();
    let (_, navigation) = get(
        &app,
        &format!(
            "{root}{result}/Answers?$orderby=QuestionID desc&$top=1&$format=application/json;odata=fullmetadata"
        ),
        None,
    )
    .await;
    let navigation: Value = serde_json::from_str(&navigation).unwrap();
    assert_eq!(
        filtered["value"][0]["url"],
        navigation["value"][0]["odata.id"]
    );
}

async fn to_one(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let root = app.root();
    let tasks = app
        .get_json(&format!(
            "{root}ScoringTasks?$top=1&$expand=Result&$format=application/json;odata=fullmetadata"
        ))
        .await;
    let task = &tasks["value"][0];
    let edit = task["odata.editLink"].as_str().unwrap();
    let result_id = task["Result"]["odata.id"].as_str().unwrap();
    let association = task["Result@odata.associationLinkUrl"].as_str().unwrap();
    assert_eq!(association, format!("{edit}/$links/Result"));

    let (status, body) = get(&app, &format!("{root}{association}"), None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["url"], result_id);
    assert_eq!(
        body["odata.metadata"],
        format!("{}$metadata#ScoringTasks/$links/Result", app.url(&root))
    );
    let (_, xml) = get(
        &app,
        &format!("{root}{association}"),
        Some("application/xml"),
    )
    .await;
    let links = atom_support::links(&xml);
    assert!(!links.collection, "{xml}");
    assert_eq!(links.uris, [result_id]);
    let (_, verbose) = get(
        &app,
        &format!("{root}{association}"),
        Some("application/json;odata=verbose"),
    )
    .await;
    let verbose: Value = serde_json::from_str(&verbose).unwrap();
    assert_eq!(verbose["d"]["uri"], result_id);

    // A task without a group: its Group link is absent, as its Group is.
    let groupless = app
        .get_json(&format!(
            "{root}ScoringTasks?$top=100&$expand=Group&$format=application/json;odata=fullmetadata"
        ))
        .await;
    if let Some(task) = groupless["value"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["Group"].is_null())
    {
        let edit = task["odata.editLink"].as_str().unwrap();
        let (status, body) = get(&app, &format!("{root}{edit}/$links/Group"), None).await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    }

    // One keyed link of a collection navigation, and one that is not there.
    let (result, answers) = result_with_answers(&app).await;
    let answer_key = answers[0].rsplit_once("Answers").unwrap().1;
    let (status, body) = get(
        &app,
        &format!("{root}{result}/$links/Answers{answer_key}"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["url"], answers[0].as_str());
    let (status, _) = get(
        &app,
        &format!("{root}{result}/$links/Answers(QuestionID=999999999L,ResultID=1,Occurrence=1,BlockNumber=1)"),
        None,
    )
    .await;
    assert!(
        matches!(status, StatusCode::NOT_FOUND | StatusCode::BAD_REQUEST),
        "{status}"
    );

    // Another area's result: not found, as its entity is.
    let (status, _) = get(
        &app,
        &format!("/deliveryodata/{}/{result}/$links/Answers", app.harbour()),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let other_result = app
        .sql_i64(&format!(
            "SELECT CAST(MIN(id) AS BIGINT) FROM results WHERE customer_id = {}",
            app.harbour()
        ))
        .await;
    let (status, _) = get(
        &app,
        &format!("{root}Results({other_result})/$links/Answers"),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

async fn refusals(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let root = app.root();
    let (result, _) = result_with_answers(&app).await;
    let cases: &[(&str, StatusCode, &str)] = &[
        (
            "$links",
            StatusCode::BAD_REQUEST,
            "must be followed by a navigation property",
        ),
        (
            "$links/$count",
            StatusCode::BAD_REQUEST,
            "must be followed by a navigation property",
        ),
        (
            "$links/Answers/Question",
            StatusCode::BAD_REQUEST,
            "one navigation property",
        ),
        (
            "$links/Answers/$value",
            StatusCode::BAD_REQUEST,
            "one navigation property",
        ),
        (
            "$links/$links/Answers",
            StatusCode::BAD_REQUEST,
            "$links twice",
        ),
        (
            "$links/Nothing",
            StatusCode::NOT_FOUND,
            "no navigation property 'Nothing'",
        ),
        (
            "$links/Answers?$expand=Question",
            StatusCode::BAD_REQUEST,
            "$expand and $select do not apply",
        ),
        (
            "$links/Answers?$select=MaxScore",
            StatusCode::BAD_REQUEST,
            "$expand and $select do not apply",
        ),
        (
            "$links/Answers?$filter=Nope eq 1",
            StatusCode::BAD_REQUEST,
            "Nope",
        ),
        (
            "$links/Answers?$skiptoken=forged",
            StatusCode::BAD_REQUEST,
            "skiptoken",
        ),
    ];
    for (suffix, expected, message) in cases {
        let response = app
            .client
            .get(app.url(&format!("{root}{result}/{suffix}")))
            .basic_auth(USER, Some("scoredesk-demo"))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), *expected, "{suffix}");
        let text = odata_error_message(response).await;
        assert!(text.contains(message), "{suffix}: {text}");
    }
    // A collection has no links of its own: $links follows one entity.
    let response = app
        .client
        .get(app.url(&format!("{root}Results/$links/Answers")))
        .basic_auth(USER, Some("scoredesk-demo"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(odata_error_message(response)
        .await
        .contains("$links follows one entity"));

    // Links are read here, never written: 405 naming GET and HEAD.
    for method in ["POST", "PUT", "MERGE", "DELETE"] {
        let response = app
            .client
            .request(
                reqwest::Method::from_bytes(method.as_bytes()).unwrap(),
                app.url(&format!("{root}{result}/$links/Answers")),
            )
            .basic_auth(USER, Some("scoredesk-demo"))
            .header("Content-Type", "application/json")
            .body(r#"{"url":"http://x/Answers(1)"}"#)
            .send()
            .await
            .unwrap();
        assert_eq!(
            response.status(),
            StatusCode::METHOD_NOT_ALLOWED,
            "{method}"
        );
        assert_eq!(response.headers()["allow"], "GET, HEAD");
        assert!(odata_error_message(response)
            .await
            .contains("$links of Answers"));
    }
}
