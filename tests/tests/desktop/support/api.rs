//! A second client of the server the app uses, over HTTP: what the window shows is
//! checked against what the server answers, and other scorers act through it.

use serde_json::Value;

use super::driver::DesktopSession;

/// A second client of a server the app uses.
pub struct Api {
    http: reqwest::Client,
    root: String,
    username: String,
    password: String,
}

/// The account the tests add to the app's own database to reach its server: the
/// demo accounts there take no password anyone knows.
const SECOND_CLIENT: (&str, &str) = ("window-test-client", "a password of the test's own");

impl Api {
    /// A server's service root for a customer area, such as a remote one seeded with
    /// the published demo logins.
    pub fn at(base_url: &str, customer_id: i32) -> Self {
        Self {
            http: reqwest::Client::new(),
            root: format!("{base_url}/deliveryodata/{customer_id}/"),
            username: "northwind-admin".into(),
            password: "scoredesk-demo".into(),
        }
    }

    /// The app's embedded server, with an administrator account the test adds to the
    /// app's database, as an operator would with `scoredesk-server account add`.
    pub async fn of(session: &DesktopSession) -> Self {
        let text = std::fs::read_to_string(session.data_dir.join("embedded-server.json"))
            .expect("the app writes where its server listens");
        let server: Value = serde_json::from_str(&text).unwrap();
        let customer_id = server["customerId"].as_i64().unwrap() as i32;
        add_second_client(&session.data_dir, customer_id).await;
        Self {
            http: reqwest::Client::new(),
            root: format!(
                "{}/deliveryodata/{customer_id}/",
                server["baseUrl"].as_str().unwrap(),
            ),
            username: SECOND_CLIENT.0.into(),
            password: SECOND_CLIENT.1.into(),
        }
    }

    /// A new account of `role` in the app's area (added to its database as an
    /// operator would), signed in: another marker at another desk.
    pub async fn new_account(&self, session: &DesktopSession, username: &str, role: &str) -> Self {
        let text = std::fs::read_to_string(session.data_dir.join("embedded-server.json"))
            .expect("the app writes where its server listens");
        let server: Value = serde_json::from_str(&text).unwrap();
        let customer_id = server["customerId"].as_i64().unwrap() as i32;
        let password = "a marker's own password";
        add_account(&session.data_dir, customer_id, (username, password), role).await;
        self.signed_in_as(username, password)
    }

    /// The same server and area as another account.
    pub fn signed_in_as(&self, username: &str, password: &str) -> Self {
        Self {
            http: self.http.clone(),
            root: self.root.clone(),
            username: username.into(),
            password: password.into(),
        }
    }

    /// The status of a GET, whatever it is.
    pub async fn status(&self, path: &str) -> reqwest::StatusCode {
        self.http
            .get(format!("{}{path}", self.root))
            .basic_auth(&self.username, Some(&self.password))
            .send()
            .await
            .unwrap()
            .status()
    }

    /// A GET that must succeed; `what` names it if it does not.
    async fn get_ok(&self, path: &str, query: &[(&str, &str)], what: &str) -> reqwest::Response {
        let response = self
            .http
            .get(format!("{}{path}", self.root))
            .query(query)
            .basic_auth(&self.username, Some(&self.password))
            .send()
            .await
            .unwrap();
        assert!(
            response.status().is_success(),
            "{what}: {}",
            response.status()
        );
        response
    }

    pub async fn get(&self, path: &str) -> Value {
        let response = self.get_ok(path, &[], &format!("GET {path}")).await;
        response.json().await.unwrap()
    }

    /// A GET that must succeed, as text (a media resource's `$value`).
    pub async fn get_text(&self, path: &str) -> String {
        let response = self.get_ok(path, &[], &format!("GET {path}")).await;
        response.text().await.unwrap()
    }

    /// A media resource's bytes, as served.
    pub async fn get_bytes(&self, path: &str) -> Vec<u8> {
        let response = self.get_ok(path, &[], &format!("GET {path}")).await;
        response.bytes().await.unwrap().to_vec()
    }

    /// `ScoringTasks/$count` with `filter`.
    pub async fn count(&self, filter: &str) -> i64 {
        let response = self
            .get_ok(
                "ScoringTasks/$count",
                &[("$filter", filter)],
                &format!("$count of {filter}"),
            )
            .await;
        response.text().await.unwrap().trim().parse().unwrap()
    }

    /// POST a new entity; returns it (the answer must be 201).
    pub async fn post(&self, path: &str, body: Value) -> Value {
        self.post_expecting(path, body, reqwest::StatusCode::CREATED)
            .await
    }

    /// POST to an action that answers 200 with a body; returns the body.
    pub async fn call(&self, path: &str, body: Value) -> Value {
        self.post_expecting(path, body, reqwest::StatusCode::OK)
            .await
    }

    async fn post_expecting(&self, path: &str, body: Value, status: reqwest::StatusCode) -> Value {
        let response = self
            .http
            .post(format!("{}{path}", self.root))
            .basic_auth(&self.username, Some(&self.password))
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), status, "POST {path}");
        response.json().await.unwrap()
    }

    pub async fn put(&self, path: &str, body: Value) -> reqwest::StatusCode {
        self.http
            .put(format!("{}{path}", self.root))
            .basic_auth(&self.username, Some(&self.password))
            .json(&body)
            .send()
            .await
            .unwrap()
            .status()
    }
}

/// Adds [`SECOND_CLIENT`] to the app's database (once).
async fn add_second_client(data_dir: &std::path::Path, customer_id: i32) {
    add_account(data_dir, customer_id, SECOND_CLIENT, "admin").await;
}

/// Adds an account of `role` to the app's database in `customer_id` (once).
async fn add_account(
    data_dir: &std::path::Path,
    customer_id: i32,
    (username, password): (&str, &str),
    role: &str,
) {
    let url = format!("sqlite:{}", data_dir.join("scoredesk.db").display());
    let store = scoredesk_server::store::Store::connect(&url)
        .await
        .expect("the app's database opens");
    if store.find_account(username).await.unwrap().is_none() {
        let hash = scoredesk_server::auth::hash_password(password).unwrap();
        store
            .insert_account(scoredesk_server::store::NewAccount {
                customer_id: Some(customer_id),
                username,
                password_hash: &hash,
                role,
            })
            .await
            .expect("the account is added");
    }
    store.close().await;
}
