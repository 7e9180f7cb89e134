//! What an independent probe of the server found wrong in how it speaks HTTP and
//! OData (issue 31), each a test that failed before the fix: broken JPEGs aside
//! (uploads.rs) and the sign-in limits (server/tests/limits.rs), these.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use base64::Engine;
use reqwest::StatusCode;
use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use serde_json::{json, Value};

use crate::batch::{batch_body, send, Op};
use crate::scoring_support::{
    open_tasks_with_rubric, scoring_result_of, scoring_result_path, task_status, SCORER,
};

on_both_backends! {
    an_early_answer_to_a_request_whose_body_was_not_read_closes_the_connection_saying_so => connection_close;
    a_host_header_that_is_not_a_host_or_not_ours_is_refused_with_the_error_body => host_header;
    a_key_named_twice_in_a_json_or_atom_body_is_refused_by_name => duplicate_keys;
    a_change_set_answer_carries_its_requests_content_id => content_id;
    a_batch_request_line_with_raw_spaces_is_read_as_odatalib_reads_it => raw_spaces;
    a_conditional_get_is_answered_with_304_or_412 => conditional_get;
}

fn basic(username: &str) -> String {
    let token =
        base64::engine::general_purpose::STANDARD.encode(format!("{username}:{DEMO_PASSWORD}"));
    format!("Basic {token}")
}

/// One whole response (its head and a Content-Length body); `None` on a close.
fn read_response(stream: &mut TcpStream) -> Option<String> {
    let mut bytes = Vec::new();
    let mut buffer = [0u8; 8192];
    loop {
        if let Some(end) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&bytes[..end]).to_ascii_lowercase();
            let length: usize = head
                .lines()
                .find_map(|line| line.strip_prefix("content-length: "))
                .map_or(0, |n| n.trim().parse().unwrap());
            if bytes.len() >= end + 4 + length {
                return Some(String::from_utf8_lossy(&bytes).into_owned());
            }
        }
        match stream.read(&mut buffer) {
            Ok(0) | Err(_) => return None,
            Ok(n) => bytes.extend_from_slice(&buffer[..n]),
        }
    }
}

async fn connection_close(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let tasks = open_tasks_with_rubric(&app).await;
    let host = app.address.trim_start_matches("http://").to_owned();
    let path = tasks[0].path(&app);
    let body = format!(
        "{{\"Status\": 0, \"Padding\": \"{}\"}}",
        "x".repeat(200_000)
    );
    let put = |authorization: &str| {
        format!(
            "PUT {path} HTTP/1.1\r\nHost: {host}\r\n{authorization}Content-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        )
    };
    let get = format!(
        "GET {}$metadata HTTP/1.1\r\nHost: {host}\r\nAuthorization: {}\r\n\r\n",
        app.root(),
        basic(SCORER)
    );
    let answers = tokio::task::spawn_blocking({
        let address = app.address.clone();
        let requests = [put(""), get.clone()];
        move || on_one_connection_at(&address, &requests)
    })
    .await
    .unwrap();
    let first = answers[0].clone().expect("an answer to the PUT");
    assert!(first.starts_with("HTTP/1.1 401"), "{first}");
    assert!(
        first.to_ascii_lowercase().contains("connection: close"),
        "the 401 left the body unread and says the connection ends: {first}"
    );
    // A request whose body was read keeps its connection: the next request is served.
    let read_put = put(&format!("Authorization: {}\r\n", basic(SCORER)));
    let answers = tokio::task::spawn_blocking({
        let address = app.address.clone();
        move || on_one_connection_at(&address, &[read_put, get])
    })
    .await
    .unwrap();
    let first = answers[0].clone().expect("an answer to the PUT");
    assert!(
        first.starts_with("HTTP/1.1 400"),
        "unknown property: {first}"
    );
    assert!(
        !first.to_ascii_lowercase().contains("connection: close"),
        "{first}"
    );
    let second = answers[1].clone().expect("the connection was kept");
    assert!(second.starts_with("HTTP/1.1 200"), "{second}");
}

/// Sends `requests` one after another on one connection; returns each response,
/// or `None` where the server had closed the connection.
fn on_one_connection_at(address: &str, requests: &[String]) -> Vec<Option<String>> {
    let mut stream = TcpStream::connect(address.trim_start_matches("http://")).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    requests
        .iter()
        .map(|request| {
            stream.write_all(request.as_bytes()).ok()?;
            read_response(&mut stream)
        })
        .collect()
}

async fn host_header(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let port = app.address.rsplit(':').next().unwrap().to_owned();
    let root = app.root();
    let answer = |host: String| {
        let address = app.address.clone();
        let request = format!(
            "GET {root} HTTP/1.1\r\nHost: {host}\r\nAuthorization: {}\r\nConnection: close\r\n\r\n",
            basic(SCORER)
        );
        async move {
            tokio::task::spawn_blocking(move || on_one_connection_at(&address, &[request]))
                .await
                .unwrap()[0]
                .clone()
                .unwrap()
        }
    };
    for (host, status) in [
        (format!("127.0.0.1:{port}"), "200"),
        (format!("localhost:{port}"), "200"),
        ("localhost".to_owned(), "200"),
        // Malformed: refused by what is wrong, with the error body.
        (format!("127.0.0.1:{port}/x"), "400"),
        ("evil example".to_owned(), "400"),
        ("127.0.0.1:99999".to_owned(), "400"),
        ("[::1".to_owned(), "400"),
        // Well-formed, but not a name of this loopback server (DNS rebinding).
        (format!("attacker.example:{port}"), "421"),
        ("attacker.example".to_owned(), "421"),
    ] {
        let response = answer(host.clone()).await;
        assert!(
            response.starts_with(&format!("HTTP/1.1 {status}")),
            "{host}: {response}"
        );
        if status != "200" {
            assert!(response.contains("\"odata.error\""), "{host}: {response}");
        } else {
            assert!(
                response.contains(&format!("http://{host}/deliveryodata/")),
                "links use the host as given: {response}"
            );
        }
    }
}

async fn duplicate_keys(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let tasks = open_tasks_with_rubric(&app).await;
    let task = tasks[0];
    let path = app.url(&task.path(&app));
    let json_put = app
        .client
        .put(&path)
        .basic_auth(SCORER, Some(DEMO_PASSWORD))
        .header("Content-Type", "application/json")
        .body(r#"{"Status": 0, "Status": 3}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(json_put.status(), StatusCode::BAD_REQUEST);
    let message = odata_error_message(json_put).await;
    assert!(message.contains("'Status' appears twice"), "{message}");
    let atom = r#"<entry xmlns="http://www.w3.org/2005/Atom"
        xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices"
        xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata">
        <content type="application/xml"><m:properties>
        <d:Status m:type="Edm.Int32">0</d:Status><d:Status m:type="Edm.Int32">3</d:Status>
        </m:properties></content></entry>"#;
    let atom_put = app
        .client
        .put(&path)
        .basic_auth(SCORER, Some(DEMO_PASSWORD))
        .header("Content-Type", "application/atom+xml")
        .body(atom)
        .send()
        .await
        .unwrap();
    assert_eq!(atom_put.status(), StatusCode::BAD_REQUEST);
    let message = odata_error_message(atom_put).await;
    assert!(message.contains("d:Status twice"), "{message}");
    // An action's parameters too.
    let action = app
        .client
        .post(app.url(&format!(
            "{}Results/PurgeResultsByParticipantName",
            app.root()
        )))
        .basic_auth("northwind-admin", Some(DEMO_PASSWORD))
        .header("Content-Type", "application/json")
        .body(r#"{"ParticipantName": "Nobody", "ParticipantName": "Ann Example"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(action.status(), StatusCode::BAD_REQUEST);
    assert!(odata_error_message(action).await.contains("appears twice"));
    assert_eq!(task_status(&app, task).await, 0, "nothing changed");
}

async fn content_id(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let tasks = open_tasks_with_rubric(&app).await;
    let relative = |path: &str| path.trim_start_matches(&app.root()).to_owned();
    let mut operations = Vec::new();
    for (index, task) in tasks.iter().take(2).enumerate() {
        let read = scoring_result_of(&app, *task).await;
        // One in the part's MIME headers as MS-ODATA writes it, one among the
        // request's own headers as datajs writes it.
        let id = index + 10;
        let headers = vec![("Content-ID".to_owned(), id.to_string())];
        operations.push((
            Op {
                method: "PUT",
                url: relative(&scoring_result_path(&app, &read)),
                headers,
                body: json!({"Score": 1, "Comments": "batched", "ModifiedDateTime": read["ModifiedDateTime"]}),
            },
            id,
        ));
    }
    let (ops, ids): (Vec<Op>, Vec<usize>) = operations.into_iter().unzip();
    let mut body = batch_body(&[ops], &[]);
    // Move the first operation's Content-ID into its MIME part headers.
    body = body.replacen(
        "Content-Transfer-Encoding: binary\r\n\r\nPUT",
        "Content-Transfer-Encoding: binary\r\nContent-ID: 10\r\n\r\nPUT",
        1,
    );
    body = body.replacen("Content-ID: 10\r\n\r\n{", "\r\n{", 1);
    let (status, inner, text) = send(&app, SCORER, body).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    assert_eq!(inner, vec![204, 204], "{text}");
    for id in ids {
        assert!(
            text.contains(&format!(
                "Content-Transfer-Encoding: binary\r\ncontent-id: {id}\r\n"
            )) || text.contains(&format!(
                "Content-Transfer-Encoding: binary\r\nContent-ID: {id}\r\n"
            )),
            "Content-ID {id} in its answer's part headers: {text}"
        );
    }
}

async fn raw_spaces(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let body = "--batch_t\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n\
                GET ScoringTasks/$count?$filter=Status eq 0 HTTP/1.1\r\nAccept: text/plain\r\n\r\n\r\n--batch_t--\r\n";
    let (status, inner, text) = send(&app, SCORER, body.to_owned()).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    assert_eq!(inner, vec![200], "{text}");
    let expected = app
        .sql_i64(&format!(
            "SELECT COUNT(*) FROM scoring_tasks WHERE customer_id = {} AND status = 0",
            app.northwind()
        ))
        .await;
    assert!(
        text.contains(&format!("\r\n\r\n{expected}\r\n")),
        "the count {expected} in: {text}"
    );
}

async fn conditional_get(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let tasks = open_tasks_with_rubric(&app).await;
    let read = scoring_result_of(&app, tasks[0]).await;
    let url = app.url(&scoring_result_path(&app, &read));
    let get = |header: Option<(&'static str, String)>| {
        let mut request = app.client.get(&url).basic_auth(SCORER, Some(DEMO_PASSWORD));
        if let Some((name, value)) = header {
            request = request.header(name, value);
        }
        request.send()
    };
    let first = get(None).await.unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    let etag = first.headers()["etag"].to_str().unwrap().to_owned();
    let same = get(Some(("If-None-Match", etag.clone()))).await.unwrap();
    assert_eq!(same.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(same.headers()["etag"].to_str().unwrap(), etag);
    assert!(same.bytes().await.unwrap().is_empty());
    let current = get(Some(("If-Match", etag.clone()))).await.unwrap();
    assert_eq!(current.status(), StatusCode::OK);
    // Someone else saves: the old tag is stale now.
    let saved = app
        .client
        .put(&url)
        .basic_auth(SCORER, Some(DEMO_PASSWORD))
        .json(&json!({"Score": 1, "Comments": "changed", "ModifiedDateTime": read["ModifiedDateTime"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(saved.status(), StatusCode::NO_CONTENT);
    let changed = get(Some(("If-None-Match", etag.clone()))).await.unwrap();
    assert_eq!(
        changed.status(),
        StatusCode::OK,
        "a changed entity is sent again"
    );
    let body: Value = changed.json().await.unwrap();
    assert_eq!(body["Comments"], "changed");
    let stale = get(Some(("If-Match", etag))).await.unwrap();
    assert_eq!(stale.status(), StatusCode::PRECONDITION_FAILED);
    assert!(odata_error_message(stale).await.contains("If-Match"));
}
