//! A group's class list (docs/rosters.md "Class lists"), on both databases: a
//! single read of a Group carries a signed link (null in collections); the page
//! opens without credentials and lists exactly the group's members by family name,
//! names escaped; a link altered to another group or variant, or of another area,
//! opens nothing.

use reqwest::StatusCode;
use scoredesk_e2e::{on_both_backends, Backend, TestApp};
use serde_json::Value;

on_both_backends! {
    a_group_prints_its_class_list_through_a_signed_link => class_list;
}

const ADMIN: &str = "northwind-admin";

async fn group_by_name(app: &TestApp, name: &str) -> Value {
    let filter = format!("Name eq '{name}'")
        .replace(' ', "%20")
        .replace('\'', "%27");
    let (status, body) = app
        .get_json_with(
            ADMIN,
            &format!("{}Groups?$filter={filter}", app.root()),
            &[],
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let listed = body["value"][0].clone();
    assert!(
        listed["ClassListSourceUrl"].is_null(),
        "no link in a collection: {listed}"
    );
    listed
}

async fn link(app: &TestApp, user: &str, id: i64) -> String {
    let (status, body) = app
        .get_json_with(user, &format!("{}Groups({id})", app.root()), &[])
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["ClassListSourceUrl"]
        .as_str()
        .expect("a link")
        .to_owned()
}

async fn class_list(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let plain = "username,first_name,last_name,email,group\n\
                 zed.adams,Zed,Adams,,Form 8 <B>\n\
                 ann.young,Ann,Young,ann@x.example,Form 8 <B>\n\
                 evil,<img src=x onerror=alert(1)>,O'Hara & Sons,,Form 8 <B>\n\
                 other.one,Other,One,,Form 9\n";
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("form8.csv");
    std::fs::write(&file, plain).unwrap();
    super::rosters::import(&app, &file, scoredesk_server::import::Mode::Commit)
        .await
        .unwrap();
    let group = group_by_name(&app, "Form 8 <B>").await;
    let id = group["ID"].as_i64().unwrap();
    let url = link(&app, ADMIN, id).await;
    assert!(
        url.contains(&format!("/groups/{id}?variant=class-list&")),
        "{url}"
    );
    // A coordinator's read carries one too: they print for the room.
    link(&app, "northwind-coordinator", id).await;

    // No credentials: the signature is the credential.
    let response = app.client.get(&url).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .contains("default-src 'none'"));
    let html = response.text().await.unwrap();
    let rows: Vec<&str> = html
        .match_indices("data-username=\"")
        .map(|(at, found)| {
            let rest = &html[at + found.len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect();
    assert_eq!(rows, ["zed.adams", "evil", "ann.young"], "by family name");
    assert!(html.contains("Form 8 &lt;B&gt;"), "{html}");
    assert!(html.contains("&lt;img src=x"), "names are escaped");
    assert!(!html.contains("<img"));
    assert!(html.contains("3 participants"));
    assert!(!html.contains("other.one"), "only the group's members");

    // Altered: another group's ID, another variant, another area: refused.
    let other = group_by_name(&app, "Form 9").await["ID"].as_i64().unwrap();
    let altered = [
        url.replace(&format!("/groups/{id}?"), &format!("/groups/{other}?")),
        url.replace("variant=class-list", "variant=sheets"),
        url.replace(
            &format!("/print/{}/", app.northwind()),
            &format!("/print/{}/", app.harbour()),
        ),
        url.replace("/groups/", "/batches/"),
    ];
    for wrong in altered {
        let status = app.client.get(&wrong).send().await.unwrap().status();
        assert_eq!(status, StatusCode::FORBIDDEN, "{wrong}");
    }
    // Harbour's administrator cannot read Northwind's group to get a link.
    let (status, _) = app
        .get_json_with("harbour-admin", &format!("{}Groups({id})", app.root()), &[])
        .await;
    assert!(status.is_client_error(), "{status}");
}
