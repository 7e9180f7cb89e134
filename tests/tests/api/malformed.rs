//! The corpus of malformed requests in tests/data/malformed-requests.tsv: every one
//! gets a 4xx with the OData error body; none a 5xx, none a success.

use scoredesk_e2e::{on_both_backends, Backend, TestApp};

on_both_backends! {
    every_malformed_request_gets_a_4xx_with_the_odata_error_body => malformed_corpus;
}

const CORPUS: &str = include_str!("../../data/malformed-requests.tsv");

struct Case<'a> {
    method: &'a str,
    path: &'a str,
    header: Option<(&'a str, &'a str)>,
    comment: &'a str,
}

fn cases() -> Vec<Case<'static>> {
    CORPUS
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let mut columns = line.split('\t');
            let method = columns.next().unwrap();
            let path = columns.next().unwrap();
            let header = columns
                .next()
                .filter(|h| !h.is_empty())
                .map(|h| h.split_once('=').expect("Name=value"));
            let comment = columns.next().unwrap_or_default();
            Case {
                method,
                path,
                header,
                comment,
            }
        })
        .collect()
}

async fn malformed_corpus(backend: Backend) {
    let cases = cases();
    assert!(
        cases.len() >= 200,
        "the corpus has {} requests",
        cases.len()
    );
    let app = TestApp::spawn_with_demo(backend).await;
    let mut failures = Vec::new();
    for case in &cases {
        let url = format!("{}{}{}", app.address, app.root(), case.path);
        let method = reqwest::Method::from_bytes(case.method.as_bytes()).unwrap();
        let mut request = app
            .client
            .request(method, &url)
            .basic_auth("northwind-admin", Some("scoredesk-demo"));
        if let Some((name, value)) = case.header {
            request = request.header(name, value);
        }
        let response = request.send().await.expect("request sent");
        let status = response.status();
        let xml = response.headers().get("content-type").is_some_and(|t| {
            t.to_str()
                .unwrap_or_default()
                .starts_with("application/xml")
        });
        let text = response.text().await.unwrap_or_default();
        // JSON light clients get "odata.error"; verbose (version 2) clients "error";
        // clients that asked for Atom or XML an m:error element.
        let has_error_body = if xml {
            crate::atom_support::error_message(&text).is_some_and(|m| !m.is_empty())
        } else {
            let body: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
            body["odata.error"]["message"]["value"].is_string()
                || body["error"]["message"]["value"].is_string()
        };
        if !status.is_client_error() || !has_error_body {
            let shown: String = text.chars().take(200).collect();
            failures.push(format!(
                "{} {} [{}] -> {status} {shown}",
                case.method, case.path, case.comment
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} malformed requests were not refused properly:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
