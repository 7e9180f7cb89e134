use reqwest::{Method, StatusCode};
use scoredesk_e2e::{odata_error_message, on_both_backends, Backend, TestApp};
use scoredesk_server::auth::hash_password;
use scoredesk_server::seed::demo::DEMO_PASSWORD;

on_both_backends! {
    a_request_without_credentials_gets_401_with_a_basic_challenge => without_credentials;
    a_wrong_password_gets_401 => wrong_password;
    a_malformed_authorization_header_gets_401 => malformed_authorization;
    an_account_of_another_customer_area_gets_403 => another_area;
    an_unknown_customer_area_gets_404 => unknown_area;
    a_non_numeric_customer_id_gets_400 => non_numeric_customer;
    every_role_reads_the_service_root_of_its_area => every_role_reads_the_root;
    each_role_uses_only_its_feeds => roles_limit_feeds;
    a_changed_password_stops_working_at_once => changed_password;
    a_server_administrator_uses_every_area => server_administrator;
    a_role_or_area_changed_elsewhere_takes_effect_within_the_account_cache_lifetime => changed_role_and_area;
    an_area_that_does_not_exist_is_404_for_any_signed_in_account_and_401_without => missing_area_for_everyone;
    a_host_the_server_does_not_answer_to_is_refused_before_anything_else => allowed_hosts;
}

/// A change made in the database by another process (here: plain SQL) is not seen at
/// once: a request takes its account from memory, read at most
/// `account_cache_seconds` ago (docs/operations.md). Past that, the new role or area
/// applies to the very next request.
async fn changed_role_and_area(backend: Backend) {
    const LIFETIME: u64 = 3;
    let app = TestApp::spawn_with_demo_configured(backend, |settings| {
        settings.account_cache_seconds = LIFETIME;
    })
    .await;
    let tasks = format!("{}ScoringTasks/$count", app.root());
    let after_the_lifetime =
        || tokio::time::sleep(std::time::Duration::from_millis(LIFETIME * 1000 + 200));
    // Signed in once: the password and the account are remembered from here on.
    assert_eq!(
        app.get_as("northwind-scorer", &tasks).await.status(),
        StatusCode::OK
    );
    app.sql_execute("UPDATE accounts SET role = 'coordinator' WHERE username = 'northwind-scorer'")
        .await;
    assert_eq!(
        app.get_as("northwind-scorer", &tasks).await.status(),
        StatusCode::OK,
        "within the lifetime the account is not read again"
    );
    after_the_lifetime().await;
    assert_eq!(
        app.get_as("northwind-scorer", &tasks).await.status(),
        StatusCode::FORBIDDEN,
        "past it, the new role applies"
    );
    app.sql_execute(&format!(
        "UPDATE accounts SET role = 'scorer', customer_id = {} WHERE username = 'northwind-scorer'",
        app.harbour()
    ))
    .await;
    after_the_lifetime().await;
    assert_eq!(
        app.get_as("northwind-scorer", &tasks).await.status(),
        StatusCode::FORBIDDEN,
        "the account left Northwind"
    );
    let harbour = format!("/deliveryodata/{}/ScoringTasks/$count", app.harbour());
    assert_eq!(
        app.get_as("northwind-scorer", &harbour).await.status(),
        StatusCode::OK
    );
    // Removed in the database: refused once the lifetime has passed.
    app.sql_execute("DELETE FROM accounts WHERE username = 'northwind-scorer'")
        .await;
    after_the_lifetime().await;
    assert_eq!(
        app.get_as("northwind-scorer", &harbour).await.status(),
        StatusCode::UNAUTHORIZED,
        "a removed account"
    );
}

async fn missing_area_for_everyone(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    for username in ["northwind-admin", "northwind-scorer", "harbour-admin"] {
        let response = app
            .get_as(username, "/deliveryodata/4242/ScoringTasks")
            .await;
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{username}");
        assert!(odata_error_message(response).await.contains("4242"));
    }
    let anonymous = app.get_anonymous("/deliveryodata/4242/ScoringTasks").await;
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    let wrong = app
        .request_as(
            Method::GET,
            "/deliveryodata/4242/",
            "northwind-admin",
            "wrong",
        )
        .await;
    assert_eq!(
        wrong.status(),
        StatusCode::UNAUTHORIZED,
        "no area is revealed without credentials"
    );
}

async fn allowed_hosts(backend: Backend) {
    let app = TestApp::spawn_with_demo_configured(backend, |settings| {
        settings.allowed_hosts = vec!["scoring.example:8080".into()];
    })
    .await;
    let path = app.url(&app.root());
    for (host, status) in [
        ("scoring.example:8080", StatusCode::OK),
        ("SCORING.example:8080", StatusCode::OK),
        ("attacker.example:8080", StatusCode::MISDIRECTED_REQUEST),
        ("scoring.example", StatusCode::MISDIRECTED_REQUEST),
    ] {
        let response = app
            .client
            .get(&path)
            .header("Host", host)
            .basic_auth("northwind-admin", Some(DEMO_PASSWORD))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), status, "{host}");
        if status != StatusCode::OK {
            assert!(odata_error_message(response).await.contains(host));
        }
    }
    // The health check is behind the same gate: a rebinding page learns nothing.
    let health = app
        .client
        .get(app.url("/health"))
        .header("Host", "attacker.example")
        .send()
        .await
        .unwrap();
    assert_eq!(health.status(), StatusCode::MISDIRECTED_REQUEST);
}

async fn without_credentials(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let response = app
        .get_anonymous(&format!("/deliveryodata/{}/", app.northwind()))
        .await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    let challenge = response.headers()["www-authenticate"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(challenge.starts_with("Basic"), "{challenge}");
    odata_error_message(response).await;
    // Without credentials nothing is revealed, not even whether the area exists.
    assert_eq!(
        app.get_anonymous("/deliveryodata/abc/").await.status(),
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        app.get_anonymous("/deliveryodata/999/ScoringTasks")
            .await
            .status(),
        StatusCode::UNAUTHORIZED
    );
}

async fn wrong_password(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let path = format!("/deliveryodata/{}/", app.northwind());
    let response = app
        .request_as(Method::GET, &path, "northwind-admin", "not-the-password")
        .await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    // The right password still works afterwards, and a wrong one after a right one fails.
    assert_eq!(
        app.get_as("northwind-admin", &path).await.status(),
        StatusCode::OK
    );
    let again = app
        .request_as(Method::GET, &path, "northwind-admin", "not-the-password")
        .await;
    assert_eq!(again.status(), StatusCode::UNAUTHORIZED);
    let unknown = app
        .request_as(Method::GET, &path, "nobody", DEMO_PASSWORD)
        .await;
    assert_eq!(unknown.status(), StatusCode::UNAUTHORIZED);
}

async fn malformed_authorization(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let path = format!("/deliveryodata/{}/", app.northwind());
    for header in [
        "Basic",
        "Basic !!!not-base64!!!",
        "Bearer abc.def",
        "Basic bm9jb2xvbg==",
        "Basic OnBhc3N3b3Jk",
        "Basic /w==",
    ] {
        let response = app.get_with_authorization(&path, header).await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "{header}");
        odata_error_message(response).await;
    }
}

async fn another_area(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let response = app
        .get_as(
            "harbour-admin",
            &format!("/deliveryodata/{}/", app.northwind()),
        )
        .await;
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    assert!(odata_error_message(response)
        .await
        .contains("harbour-admin"));
    let response = app
        .get_as(
            "northwind-scorer",
            &format!("/deliveryodata/{}/ScoringTasks/$count", app.harbour()),
        )
        .await;
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
}

async fn unknown_area(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (root, password) = app.add_server_admin().await;
    let response = app
        .request_as(Method::GET, "/deliveryodata/4242/", root, password)
        .await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    assert!(odata_error_message(response).await.contains("4242"));
    let overlong = app
        .request_as(
            Method::GET,
            "/deliveryodata/99999999999999999999/",
            root,
            password,
        )
        .await;
    assert_eq!(overlong.status(), StatusCode::NOT_FOUND);
}

async fn non_numeric_customer(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    for segment in ["abc", "1x", "-1", "1.5", "%41"] {
        let response = app
            .get_as("northwind-admin", &format!("/deliveryodata/{segment}/"))
            .await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{segment}");
        assert!(odata_error_message(response).await.contains("not a number"));
    }
}

async fn every_role_reads_the_root(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    for username in [
        "northwind-admin",
        "northwind-scorer",
        "northwind-coordinator",
    ] {
        let response = app
            .get_as(username, &format!("/deliveryodata/{}/", app.northwind()))
            .await;
        assert_eq!(response.status(), StatusCode::OK, "{username}");
        let body: serde_json::Value = response.json().await.unwrap();
        let names: Vec<&str> = body["value"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap())
            .collect();
        assert!(
            names.contains(&"ScoringTasks") && names.contains(&"Results"),
            "{names:?}"
        );
        assert!(body["odata.metadata"]
            .as_str()
            .unwrap()
            .ends_with(&format!("/deliveryodata/{}/$metadata", app.northwind())));
    }
}

async fn roles_limit_feeds(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let count = format!("/deliveryodata/{}/ScoringTasks/$count", app.northwind());
    assert_eq!(
        app.get_as("northwind-scorer", &count).await.status(),
        StatusCode::OK
    );
    assert_eq!(
        app.get_as("northwind-admin", &count).await.status(),
        StatusCode::OK
    );
    let refused = app.get_as("northwind-coordinator", &count).await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    assert!(odata_error_message(refused).await.contains("coordinator"));
    let audit = format!("/deliveryodata/{}/ResultsAuditLog", app.northwind());
    assert_eq!(
        app.get_as("northwind-scorer", &audit).await.status(),
        StatusCode::FORBIDDEN
    );
}

async fn changed_password(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let path = format!("/deliveryodata/{}/", app.northwind());
    // Authenticate once so that the credentials are cached.
    assert_eq!(
        app.get_as("northwind-scorer", &path).await.status(),
        StatusCode::OK
    );
    app.store
        .set_password(
            "northwind-scorer",
            &hash_password("a-new-password").unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(
        app.get_as("northwind-scorer", &path).await.status(),
        StatusCode::UNAUTHORIZED
    );
    let renewed = app
        .request_as(Method::GET, &path, "northwind-scorer", "a-new-password")
        .await;
    assert_eq!(renewed.status(), StatusCode::OK);
}

async fn server_administrator(backend: Backend) {
    let app = TestApp::spawn_with_demo(backend).await;
    let (root, password) = app.add_server_admin().await;
    for area in [app.northwind(), app.harbour()] {
        let response = app
            .request_as(
                Method::GET,
                &format!("/deliveryodata/{area}/"),
                root,
                password,
            )
            .await;
        assert_eq!(response.status(), StatusCode::OK);
    }
}
