//! Every format a version 3 client asks for (issue 19): every feed, and each of its
//! navigations expanded, read in Atom, in JSON light with minimal, full and no
//! metadata, and in verbose JSON; the same entities with the same values in each.
//! Atom documents are read namespace by namespace (atom_support), so a document
//! that is not well formed or not namespaced as the Atom format says fails.

use reqwest::StatusCode;
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use serde_json::Value;

use crate::atom_support::{self, AtomEntry, AtomProperty};

on_both_backends! {
    every_feed_and_expansion_reads_the_same_in_atom_and_each_json_form => sweep;
    the_service_document_entries_and_errors_come_in_xml_when_asked => documents;
    atom_entries_are_written_with_the_json_rules_and_bad_ones_refused_by_name => atom_writes;
    an_actions_return_value_comes_in_the_asked_for_format => action_values;
    a_feed_is_written_as_it_is_read_in_every_format => streamed;
}

const USER: &str = "northwind-admin";
const ATOM: &[(&str, &str)] = &[("Accept", "application/atom+xml")];

async fn get(app: &TestApp, path: &str, headers: &[(&str, &str)]) -> (StatusCode, String) {
    let mut request = app
        .client
        .get(app.url(path))
        .basic_auth(USER, Some("scoredesk-demo"));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.unwrap();
    (response.status(), response.text().await.unwrap())
}

/// Whether a JSON value and an Atom property say the same.
fn same(json: &Value, atom: &AtomProperty) -> bool {
    match json {
        Value::Null => atom.text.is_none(),
        Value::String(text) => atom.text.as_deref() == Some(text.as_str()),
        Value::Bool(b) => atom.text.as_deref() == Some(if *b { "true" } else { "false" }),
        Value::Number(n) => atom
            .text
            .as_deref()
            .and_then(|t| t.parse::<f64>().ok())
            .is_some_and(|x| Some(x) == n.as_f64()),
        _ => false,
    }
}

/// The entity's properties as JSON light writes them: no annotations, no
/// navigations (arrays and objects).
fn properties(entity: &Value) -> Vec<(&String, &Value)> {
    entity
        .as_object()
        .unwrap()
        .iter()
        .filter(|(name, value)| {
            !name.contains("odata.")
                && !name.contains('@')
                && !value.is_array()
                && !value.is_object()
        })
        .collect()
}

fn compare(context: &str, json: &Value, atom: &AtomEntry, problems: &mut Vec<String>) {
    for (name, value) in properties(json) {
        match atom.properties.get(name) {
            Some(property) if same(value, property) => {}
            other => problems.push(format!(
                "{context}: {name} is {value} in JSON, {other:?} in Atom"
            )),
        }
    }
    if properties(json).len() != atom.properties.len() {
        problems.push(format!(
            "{context}: {} properties in JSON, {} in Atom",
            properties(json).len(),
            atom.properties.len()
        ));
    }
}

async fn sweep(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let root = app.root();
    let service = app.get_json(&root).await;
    let sets: Vec<String> = service["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_owned())
        .collect();
    assert!(sets.len() >= 20, "{sets:?}");
    let mut problems = Vec::new();
    let mut read = 0;
    for set in &sets {
        let path = format!("{root}{set}?$top=3");
        let (status, minimal) = get(&app, &path, &[]).await;
        let (atom_status, atom_xml) = get(&app, &path, ATOM).await;
        assert_eq!(status, atom_status, "{set}: the same answer in both");
        if status != StatusCode::OK {
            continue;
        }
        read += 1;
        let minimal: Value = serde_json::from_str(&minimal).unwrap();
        let feed = atom_support::feed(&atom_xml);
        let entities = minimal["value"].as_array().unwrap();
        assert_eq!(entities.len(), feed.entries.len(), "{set}");
        let (_, full) = get(
            &app,
            &path,
            &[("Accept", "application/json;odata=fullmetadata")],
        )
        .await;
        let full: Value = serde_json::from_str(&full).unwrap();
        let (_, none) = get(
            &app,
            &path,
            &[("Accept", "application/json;odata=nometadata")],
        )
        .await;
        let none: Value = serde_json::from_str(&none).unwrap();
        assert!(none.get("odata.metadata").is_none(), "{set}: no metadata");
        let (_, verbose) = get(&app, &path, &[("Accept", "application/json;odata=verbose")]).await;
        let verbose: Value = serde_json::from_str(&verbose).unwrap();
        for (index, (entity, entry)) in entities.iter().zip(&feed.entries).enumerate() {
            let context = format!("{set}[{index}]");
            compare(&context, entity, entry, &mut problems);
            compare(
                &format!("{context} nometadata"),
                &none["value"][index],
                entry,
                &mut problems,
            );
            let full = &full["value"][index];
            compare(
                &format!("{context} fullmetadata"),
                full,
                entry,
                &mut problems,
            );
            if full["odata.id"] != entry.id.as_str()
                || full["odata.editLink"] != entry.edit.as_str()
                || full["odata.type"] != entry.type_term.as_str()
            {
                problems.push(format!("{context}: full metadata {full} against the Atom entry's id {}, edit {}, type {}", entry.id, entry.edit, entry.type_term));
            }
            if none["value"][index]
                .as_object()
                .unwrap()
                .keys()
                .any(|k| k.starts_with("odata."))
            {
                problems.push(format!("{context}: nometadata carries annotations"));
            }
            let verbose = &verbose["d"]["results"][index];
            if verbose["__metadata"]["uri"] != entry.id.as_str() {
                problems.push(format!(
                    "{context}: verbose uri {} against {}",
                    verbose["__metadata"]["uri"], entry.id
                ));
            }
            // Verbose JSON: the same values, times as /Date(ms)/.
            for (name, value) in properties(entity) {
                let theirs = &verbose[name.as_str()];
                let same_time = value
                    .as_str()
                    .is_some_and(|v| v.contains('T') && v.len() == 23)
                    && theirs.as_str().is_some_and(|t| t.starts_with("/Date("));
                if theirs != value && !same_time {
                    problems.push(format!(
                        "{context}: {name} is {value} in JSON light, {theirs} in verbose JSON"
                    ));
                }
            }
            // Each navigation: a link in Atom, a navigation and an association link
            // in full metadata (Atom entries carry no association links).
            for (name, href) in &entry.navigations {
                if full[format!("{name}@odata.navigationLinkUrl")] != href.as_str() {
                    problems.push(format!("{context}: navigation {name} is {href} in Atom"));
                }
                let association = format!("{}/$links/{name}", entry.edit);
                if full[format!("{name}@odata.associationLinkUrl")] != association.as_str() {
                    problems.push(format!("{context}: no association link {association}"));
                }
            }
            if !entry.associations.is_empty() {
                problems.push(format!("{context}: association links in Atom"));
            }
            if index == 0 {
                follow_association_links(&app, &root, &context, full, entry, &mut problems).await;
            }
        }
        // Each navigation expanded, in both.
        let navigations: Vec<String> = feed
            .entries
            .first()
            .map(|e| e.navigations.keys().cloned().collect())
            .unwrap_or_default();
        for navigation in navigations {
            let path = format!("{root}{set}?$top=2&$expand={navigation}");
            let (status, expanded) = get(&app, &path, &[]).await;
            let (atom_status, atom_xml) = get(&app, &path, ATOM).await;
            assert_eq!(status, atom_status, "{set}/{navigation}");
            if status != StatusCode::OK {
                continue;
            }
            let expanded: Value = serde_json::from_str(&expanded).unwrap();
            let feed = atom_support::feed(&atom_xml);
            for (index, (entity, entry)) in expanded["value"]
                .as_array()
                .unwrap()
                .iter()
                .zip(&feed.entries)
                .enumerate()
            {
                let inline = entry.inline.get(&navigation).cloned().unwrap_or_default();
                let targets: Vec<&Value> = match &entity[&navigation] {
                    Value::Array(items) => items.iter().collect(),
                    Value::Null => Vec::new(),
                    one => vec![one],
                };
                if targets.len() != inline.len() {
                    problems.push(format!(
                        "{set}[{index}]/{navigation}: {} in JSON, {} inline in Atom",
                        targets.len(),
                        inline.len()
                    ));
                    continue;
                }
                for (target, inline) in targets.iter().zip(&inline) {
                    compare(
                        &format!("{set}[{index}]/{navigation}"),
                        target,
                        inline,
                        &mut problems,
                    );
                }
            }
        }
    }
    assert!(read >= 15, "{read} feeds read");
    assert!(
        problems.is_empty(),
        "{} differences:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// Each association link of an entity in full metadata, read in JSON light and in
/// XML: the URLs of the entities its navigation (as Atom links it) reads, their
/// `odata.id`s, in the same order.
async fn follow_association_links(
    app: &TestApp,
    root: &str,
    context: &str,
    entity: &Value,
    entry: &AtomEntry,
    problems: &mut Vec<String>,
) {
    let full = [("Accept", "application/json;odata=fullmetadata")];
    let xml = [("Accept", "application/xml")];
    for (name, navigation) in &entry.navigations {
        let Some(association) = entity[format!("{name}@odata.associationLinkUrl")].as_str() else {
            continue;
        };
        let (status, read) = get(app, &format!("{root}{navigation}"), &full).await;
        let ids: Vec<String> = match status {
            StatusCode::NO_CONTENT => Vec::new(),
            StatusCode::OK => {
                let read: Value = serde_json::from_str(&read).unwrap();
                match read.get("value") {
                    Some(Value::Array(items)) => items
                        .iter()
                        .map(|e| e["odata.id"].as_str().unwrap().to_owned())
                        .collect(),
                    _ => vec![read["odata.id"].as_str().unwrap().to_owned()],
                }
            }
            other => {
                problems.push(format!("{context}/{name}: the navigation answered {other}"));
                continue;
            }
        };
        let (status, links) = get(app, &format!("{root}{association}"), &[]).await;
        let urls: Vec<String> = if status == StatusCode::NO_CONTENT {
            Vec::new()
        } else {
            let links: Value = serde_json::from_str(&links).unwrap();
            let many = links["value"].as_array().map(|items| {
                items
                    .iter()
                    .map(|l| l["url"].as_str().unwrap().to_owned())
                    .collect()
            });
            many.unwrap_or_else(|| vec![links["url"].as_str().unwrap().to_owned()])
        };
        if urls != ids {
            problems.push(format!(
                "{context}/$links/{name}: {urls:?} against the navigation's {ids:?}"
            ));
        }
        let (_, links) = get(app, &format!("{root}{association}"), &xml).await;
        let xml_urls = if links.is_empty() {
            Vec::new()
        } else {
            atom_support::links(&links).uris
        };
        if xml_urls != ids {
            problems.push(format!(
                "{context}/$links/{name} in XML: {xml_urls:?} against {ids:?}"
            ));
        }
    }
}

async fn documents(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let root = app.root();
    // The service document in AtomPub.
    let response = app
        .client
        .get(app.url(&root))
        .basic_auth(USER, Some("scoredesk-demo"))
        .header("Accept", "application/atomsvc+xml")
        .send()
        .await
        .unwrap();
    assert!(response.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/atomsvc+xml"));
    let xml = response.text().await.unwrap();
    assert!(
        xml.contains(&format!("xmlns=\"{}\"", atom_support::APP)),
        "{xml}"
    );
    assert!(xml.contains("<collection href=\"ScoringTasks\">"), "{xml}");
    // One entry, with its ETag in the entry and the header, its typed properties.
    let task = app.get_json(&format!("{root}ScoringTasks?$top=1")).await["value"][0].clone();
    let path = format!(
        "{root}ScoringTasks(QuestionID={}L,ResultID={})",
        task["QuestionID"].as_str().unwrap(),
        task["ResultID"]
    );
    let response = app
        .client
        .get(app.url(&path))
        .basic_auth(USER, Some("scoredesk-demo"))
        .query(&[("$format", "atom")])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/atom+xml;type=entry"));
    let etag = response
        .headers()
        .get("etag")
        .map(|v| v.to_str().unwrap().to_owned());
    let entry = atom_support::entry(&response.text().await.unwrap());
    assert_eq!(entry.type_term, "ScoreDesk.ScoringTask");
    assert_eq!(entry.etag, etag);
    assert_eq!(
        entry.properties["QuestionID"].edm.as_deref(),
        Some("Edm.Int64")
    );
    assert_eq!(
        entry.properties["ResultID"].edm.as_deref(),
        Some("Edm.Int32")
    );
    // $inlinecount and the next link in a feed.
    let (_, xml) = get(&app, &format!("{root}Results?$inlinecount=allpages"), ATOM).await;
    let feed = atom_support::feed(&xml);
    assert!(feed.count.unwrap() >= feed.entries.len() as i64);
    // A media link entry: its content is the media resource.
    let (_, xml) = get(&app, &format!("{root}Questions?$top=1"), ATOM).await;
    let question = &atom_support::feed(&xml).entries[0];
    assert!(
        question.media_src.as_deref().unwrap().ends_with("/$value"),
        "{question:?}"
    );
    // Errors in XML for a client that asked for XML.
    let (status, xml) = get(&app, &format!("{root}Results?$filter=Secret eq 1"), ATOM).await;
    assert_eq!(status, 400);
    assert!(
        atom_support::error_message(&xml)
            .unwrap()
            .contains("Secret"),
        "{xml}"
    );
}

async fn atom_writes(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let root = app.root();
    let (_, open) = app
        .get_json_with(
            "northwind-scorer",
            &format!("{root}ScoringTasks?$filter=Status eq 0 and Question/Rubric/any()&$top=1"),
            &[],
        )
        .await;
    let task = &open["value"][0];
    let (question, result) = (
        task["QuestionID"].as_str().unwrap().to_owned(),
        task["ResultID"].as_i64().unwrap(),
    );
    let path = format!("{root}ScoringTasks(QuestionID={question}L,ResultID={result})");
    let entry = |properties: &str| {
        format!(
            r#"<?xml version="1.0" encoding="utf-8"?><entry xmlns="http://www.w3.org/2005/Atom" xmlns:d="{}" xmlns:m="{}"><content type="application/xml"><m:properties>{properties}</m:properties></content></entry>"#,
            atom_support::DATA,
            atom_support::METADATA
        )
    };
    let put = |body: String| {
        app.client
            .put(app.url(&path))
            .basic_auth("northwind-scorer", Some("scoredesk-demo"))
            .header("Content-Type", "application/atom+xml;type=entry")
            .header("Accept", "application/atom+xml")
            .body(body)
            .send()
    };
    let keys = format!("<d:QuestionID>{question}</d:QuestionID><d:ResultID>{result}</d:ResultID>");
    let refused = [
        ("not XML at all".to_owned(), "must be an Atom entry"),
        (
            "<entry xmlns=\"http://www.w3.org/2005/Atom\"><content>".to_owned(),
            "not a well-formed Atom entry",
        ),
        (
            entry(&format!("{keys}<d:Status>x</d:Status>")),
            "ScoringTask.Status: expected an Edm.Int32 number",
        ),
        (
            entry(&format!(
                "{keys}<d:Status>1</d:Status><d:Secret>1</d:Secret>"
            )),
            "has no property 'Secret'",
        ),
        (
            format!(
                "<!DOCTYPE entry [<!ENTITY x \"1\">]>{}",
                entry(&format!("{keys}<d:Status>&x;</d:Status>"))
            ),
            "DOCTYPE",
        ),
        (
            entry(&format!("{keys}<d:Status>1</d:Status>"))
                .replace("http://www.w3.org/2005/Atom", "urn:not-atom"),
            "must be an Atom entry",
        ),
        (
            entry(&format!("{keys}<d:Status m:null=\"true\"/>")),
            "Status may not be null",
        ),
    ];
    for (body, words) in refused {
        let response = put(body.clone()).await.unwrap();
        assert_eq!(response.status(), 400, "{body}");
        let message = atom_support::error_message(&response.text().await.unwrap()).unwrap();
        assert!(
            message.contains(words),
            "{message} (wanted {words}) for {body}"
        );
    }
    let (_, still) = app.get_json_with("northwind-scorer", &path, &[]).await;
    assert_eq!(still["Status"], 0, "nothing written");
    // A good entry: the same rules as JSON take it.
    let response = put(entry(&format!(
        "{keys}<d:Status m:type=\"Edm.Int32\">1</d:Status>"
    )))
    .await
    .unwrap();
    assert_eq!(response.status(), 204);
    let (_, taken) = app.get_json_with("northwind-scorer", &path, &[]).await;
    assert_eq!(taken["Status"], 1);
}

async fn action_values(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let root = app.root();
    let result = app.get_json(&format!("{root}Results?$top=1")).await["value"][0]["ID"].clone();
    let body = serde_json::json!({"ResultIds": [result, 999_999]}).to_string();
    let call = |accept: &'static str| {
        app.client
            .post(app.url(&format!("{root}ReplayResultsByIDList")))
            .basic_auth(USER, Some("scoredesk-demo"))
            .header("Content-Type", "application/json")
            .header("Accept", accept)
            .body(body.clone())
            .send()
    };
    let response = call("application/xml").await.unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/xml"));
    let xml = response.text().await.unwrap();
    let mut reader = quick_xml::NsReader::from_str(&xml);
    let mut names = Vec::new();
    loop {
        match reader.read_resolved_event().expect("well-formed XML") {
            (quick_xml::name::ResolveResult::Bound(ns), quick_xml::events::Event::Start(e)) => {
                assert_eq!(ns.as_ref(), atom_support::DATA.as_bytes(), "{xml}");
                names.push(String::from_utf8(e.local_name().as_ref().to_vec()).unwrap());
            }
            (_, quick_xml::events::Event::Eof) => break,
            _ => {}
        }
    }
    assert_eq!(names[0], "ReplayResultsByIDList", "{xml}");
    assert!(
        names.contains(&"SuccessCount".to_owned())
            && names.contains(&"FailureResultIds".to_owned()),
        "{xml}"
    );
    for (accept, metadata) in [
        ("application/json;odata=minimalmetadata", true),
        ("application/json;odata=fullmetadata", true),
        ("application/json;odata=nometadata", false),
    ] {
        let response = call(accept).await.unwrap();
        let content_type = response.headers()["content-type"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(
            content_type.contains(accept.split(';').nth(1).unwrap()),
            "{content_type}"
        );
        let outcome: Value = response.json().await.unwrap();
        assert_eq!(outcome["SuccessCount"], 1, "{accept}");
        assert_eq!(
            outcome.get("odata.metadata").is_some(),
            metadata,
            "{accept}"
        );
    }
}

/// A feed's body is streamed (`odata::chunks`): sent chunked, with no
/// `Content-Length` (which only a body written whole beforehand can have), and the
/// document put together from its chunks is whole: every entity, in order, the
/// next link last. A single entity, written whole, keeps its length.
async fn streamed(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let root = app.root();
    let path =
        format!("{root}ScoringTasks?$expand=Result,ScoringResult,Question&$inlinecount=allpages");
    let accepts = [
        "application/json",
        "application/json;odata=fullmetadata",
        "application/json;odata=nometadata",
        "application/json;odata=verbose",
        "application/atom+xml",
    ];
    let mut keys: Vec<Vec<String>> = Vec::new();
    for accept in accepts {
        let response = app
            .client
            .get(app.url(&path))
            .basic_auth(USER, Some("scoredesk-demo"))
            .header("Accept", accept)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{accept}");
        assert!(
            response.headers().get("content-length").is_none(),
            "{accept}: a length"
        );
        assert_eq!(
            response.headers()["transfer-encoding"],
            "chunked",
            "{accept}"
        );
        let body = response.text().await.unwrap();
        assert!(
            body.len() > 64 * 1024,
            "{accept}: {} bytes, fewer than two chunks",
            body.len()
        );
        let ids: Vec<String> = if accept.contains("atom") {
            let feed = atom_support::feed(&body);
            assert!(feed.count.is_some() && feed.next.is_some(), "{accept}");
            feed.entries.iter().map(|e| e.id.clone()).collect()
        } else {
            let json: Value = serde_json::from_str(&body).unwrap();
            let (entities, count, next) = if accept.contains("verbose") {
                (
                    &json["d"]["results"],
                    &json["d"]["__count"],
                    &json["d"]["__next"],
                )
            } else {
                (
                    &json["value"],
                    &json["odata.count"],
                    &json["odata.nextLink"],
                )
            };
            assert!(
                count.is_string() && next.is_string(),
                "{accept}: {count} {next}"
            );
            entities
                .as_array()
                .unwrap()
                .iter()
                .map(|e| format!("{}/{}", e["QuestionID"], e["ResultID"]))
                .collect()
        };
        assert_eq!(ids.len(), 100, "{accept}");
        keys.push(ids);
    }
    // Atom's ids name the same tasks in the same order as JSON's keys.
    let atom_ids = keys.pop().unwrap();
    for ids in &keys {
        assert_eq!(ids, &keys[0]);
    }
    for (id, key) in atom_ids.iter().zip(&keys[0]) {
        let (question, result) = key.split_once('/').unwrap();
        let question = question.trim_matches('"');
        assert!(
            id.ends_with(&format!(
                "ScoringTasks(QuestionID={question}L,ResultID={result})"
            )),
            "{id} against {key}"
        );
    }
    let response = app
        .client
        .get(app.url(&format!("{root}Results?$top=1")))
        .basic_auth(USER, Some("scoredesk-demo"))
        .send()
        .await
        .unwrap();
    let one = response.json::<Value>().await.unwrap();
    let edit = &one["value"][0];
    let response = app
        .client
        .get(app.url(&format!("{root}Results({})", edit["ID"])))
        .basic_auth(USER, Some("scoredesk-demo"))
        .send()
        .await
        .unwrap();
    assert!(response.headers().get("content-length").is_some());
}
