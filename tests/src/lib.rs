//! Helpers for end-to-end tests: a real server on port 0 over a fresh database of
//! either backend, and a client with a method per request the tests make.

mod database;
pub mod qti;
pub mod sheets;
/// Paper for the answer-sheet tests, for test crates that reach it through here.
pub use scoredesk_paper as paper;

use std::sync::Arc;

use reqwest::{Method, Response};
use scoredesk_server::config::Settings;
use scoredesk_server::seed::demo::DEMO_PASSWORD;
use scoredesk_server::store::{Scalar, Store};
use scoredesk_server::App;
use sqlx::Connection;
use tokio::sync::oneshot;

pub use database::{Backend, TestDatabase};

/// A running server and what a test needs to talk to it.
pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
    pub store: Store,
    pub backend: Backend,
    /// The demo's customer areas, when seeded: [Northwind Academy, Harbour College].
    pub demo_areas: Option<[i32; 2]>,
    shutdown: Option<oneshot::Sender<()>>,
    // Dropped last: removes the database once the server is gone.
    _database: Arc<TestDatabase>,
}

impl TestApp {
    /// A server over an empty, migrated database.
    pub async fn spawn(backend: Backend) -> Self {
        let database = TestDatabase::create_empty(backend).await;
        Self::start(backend, database, None, |_| {}).await
    }

    /// A server over a copy of the seeded demo data.
    pub async fn spawn_with_demo(backend: Backend) -> Self {
        Self::spawn_with_demo_configured(backend, |_| {}).await
    }

    /// A server over a copy of the demo data, with settings changed by `configure`.
    pub async fn spawn_with_demo_configured(
        backend: Backend,
        configure: impl FnOnce(&mut Settings),
    ) -> Self {
        let (database, areas) = TestDatabase::create_from_demo(backend).await;
        Self::start(backend, database, Some(areas), configure).await
    }

    async fn start(
        backend: Backend,
        database: TestDatabase,
        demo_areas: Option<[i32; 2]>,
        configure: impl FnOnce(&mut Settings),
    ) -> Self {
        // The server's warnings and errors (with internal causes) in the output of the
        // test that caused them; shown by cargo only when the test fails.
        let _ = tracing_subscriber::fmt()
            .with_env_filter("warn")
            .with_test_writer()
            .try_init();
        let mut settings = Settings {
            database_url: secrecy::SecretString::from(database.url().to_owned()),
            ..Settings::default()
        };
        configure(&mut settings);
        let app = App::build(settings).await.expect("the server builds");
        let store = app.store().clone();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("port 0 binds");
        let address = format!("http://{}", listener.local_addr().expect("bound address"));
        let (shutdown, stopped) = oneshot::channel::<()>();
        tokio::spawn(app.serve(listener, async {
            let _ = stopped.await;
        }));
        Self {
            address,
            client: reqwest::Client::new(),
            store,
            backend,
            demo_areas,
            shutdown: Some(shutdown),
            _database: Arc::new(database),
        }
    }

    /// The first demo area (Northwind Academy).
    pub fn northwind(&self) -> i32 {
        self.demo_areas.expect("seeded with the demo")[0]
    }

    /// The second demo area (Harbour College).
    pub fn harbour(&self) -> i32 {
        self.demo_areas.expect("seeded with the demo")[1]
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.address, path)
    }

    /// A request with no credentials at all.
    pub async fn get_anonymous(&self, path: &str) -> Response {
        self.client
            .get(self.url(path))
            .send()
            .await
            .expect("request sent")
    }

    /// A request with a raw `Authorization` header.
    pub async fn get_with_authorization(&self, path: &str, authorization: &str) -> Response {
        self.client
            .get(self.url(path))
            .header("Authorization", authorization)
            .send()
            .await
            .expect("request sent")
    }

    /// A request as `username` with `password`.
    pub async fn request_as(
        &self,
        method: Method,
        path: &str,
        username: &str,
        password: &str,
    ) -> Response {
        self.client
            .request(method, self.url(path))
            .basic_auth(username, Some(password))
            .send()
            .await
            .expect("request sent")
    }

    /// `GET` as `username` with extra headers; returns the status and the JSON body
    /// (`Null` when the body is not JSON).
    pub async fn get_json_with(
        &self,
        username: &str,
        path: &str,
        headers: &[(&str, &str)],
    ) -> (reqwest::StatusCode, serde_json::Value) {
        let url = if path.starts_with("http") {
            path.to_owned()
        } else {
            self.url(path)
        };
        let mut request = self
            .client
            .get(url)
            .basic_auth(username, Some(DEMO_PASSWORD));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response = request.send().await.expect("request sent");
        let status = response.status();
        let body = response.json().await.unwrap_or(serde_json::Value::Null);
        (status, body)
    }

    /// `PUT` a JSON body as a demo account, with extra headers.
    pub async fn put_json(
        &self,
        username: &str,
        path: &str,
        body: &serde_json::Value,
        headers: &[(&str, &str)],
    ) -> Response {
        let mut request = self
            .client
            .put(self.url(path))
            .basic_auth(username, Some(DEMO_PASSWORD))
            .json(body);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.send().await.expect("request sent")
    }

    /// `GET` a JSON light document as the Northwind administrator, expecting 200.
    pub async fn get_json(&self, path: &str) -> serde_json::Value {
        let (status, body) = self.get_json_with("northwind-admin", path, &[]).await;
        assert_eq!(status, reqwest::StatusCode::OK, "{path}: {body}");
        body
    }

    /// Every entity of a feed, following `odata.nextLink` to the end; also returns
    /// how many pages it took.
    pub async fn get_all_pages(&self, path: &str) -> (Vec<serde_json::Value>, usize) {
        let mut entities = Vec::new();
        let mut next = Some(path.to_owned());
        let mut pages = 0;
        while let Some(url) = next.take() {
            let body = self.get_json(&url).await;
            entities.extend(body["value"].as_array().expect("a feed").iter().cloned());
            next = body["odata.nextLink"].as_str().map(str::to_owned);
            pages += 1;
            assert!(pages < 10_000, "paging does not end");
        }
        (entities, pages)
    }

    /// The northwind service root path, ending in `/`.
    pub fn root(&self) -> String {
        format!("/deliveryodata/{}/", self.northwind())
    }

    /// `GET` as a demo account (they all share the demo password).
    pub async fn get_as(&self, username: &str, path: &str) -> Response {
        self.request_as(Method::GET, path, username, DEMO_PASSWORD)
            .await
    }
}

/// Direct reads of the test database, to check what the server stored.
impl TestApp {
    pub fn database_url(&self) -> &str {
        self._database.url()
    }

    /// The first column of every row of `sql`.
    pub async fn sql_column<T: Scalar>(&self, sql: &str) -> Vec<T> {
        let result = match self.backend {
            Backend::Sqlite => {
                let mut conn = sqlx::SqliteConnection::connect(self.database_url())
                    .await
                    .expect("sqlite connection");
                sqlx::query_scalar(sql).fetch_all(&mut conn).await
            }
            Backend::Postgres => {
                let mut conn = sqlx::PgConnection::connect(self.database_url())
                    .await
                    .expect("postgres connection");
                sqlx::query_scalar(sql).fetch_all(&mut conn).await
            }
        };
        result.unwrap_or_else(|e| panic!("{sql}: {e}"))
    }

    /// Runs a statement that changes the test database directly (a fixture).
    pub async fn sql_execute(&self, sql: &str) {
        let result = match self.backend {
            Backend::Sqlite => {
                let mut conn = sqlx::SqliteConnection::connect(self.database_url())
                    .await
                    .expect("sqlite connection");
                sqlx::query(sql).execute(&mut conn).await.map(drop)
            }
            Backend::Postgres => {
                let mut conn = sqlx::PgConnection::connect(self.database_url())
                    .await
                    .expect("postgres connection");
                sqlx::query(sql).execute(&mut conn).await.map(drop)
            }
        };
        result.unwrap_or_else(|e| panic!("{sql}: {e}"));
    }

    pub async fn sql_strings(&self, sql: &str) -> Vec<String> {
        self.sql_column(sql).await
    }

    /// A single integer, such as `SELECT COUNT(*) ...`.
    pub async fn sql_i64(&self, sql: &str) -> i64 {
        let values: Vec<i64> = self.sql_column(sql).await;
        assert_eq!(values.len(), 1, "{sql} gives one row");
        values[0]
    }

    /// How many rows each of `tables` has, to see that a refused write stored nothing.
    pub async fn row_counts(&self, tables: &[&str]) -> Vec<i64> {
        let mut counts = Vec::with_capacity(tables.len());
        for table in tables {
            counts.push(self.sql_i64(&format!("SELECT COUNT(*) FROM {table}")).await);
        }
        counts
    }

    /// The smallest ID in `table` within the first demo area (Northwind).
    pub async fn first_id(&self, table: &str) -> i64 {
        self.sql_i64(&format!(
            "SELECT CAST(MIN(id) AS BIGINT) FROM {table} WHERE customer_id = {}",
            self.northwind()
        ))
        .await
    }

    /// Adds an account of `role` in Northwind with the demo's password.
    pub async fn add_account(&self, username: &str, role: &str) {
        let hash = scoredesk_server::auth::hash_password(DEMO_PASSWORD).expect("hashing");
        self.store
            .insert_account(scoredesk_server::store::NewAccount {
                customer_id: Some(self.northwind()),
                username,
                password_hash: &hash,
                role,
            })
            .await
            .expect("the account is created");
    }

    /// Creates a server administrator (of every area) and returns its credentials.
    pub async fn add_server_admin(&self) -> (&'static str, &'static str) {
        let hash = scoredesk_server::auth::hash_password("root-password").expect("hashing");
        self.store
            .insert_account(scoredesk_server::store::NewAccount {
                customer_id: None,
                username: "root",
                password_hash: &hash,
                role: "admin",
            })
            .await
            .expect("the server administrator is created");
        ("root", "root-password")
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
    }
}

/// Of requests that raced to create one thing: exactly one made it (201) and every
/// other was refused as a conflict (409).
pub fn assert_one_created_the_rest_conflict(statuses: &[reqwest::StatusCode]) {
    let created = statuses
        .iter()
        .filter(|s| **s == reqwest::StatusCode::CREATED)
        .count();
    assert_eq!(created, 1, "{statuses:?}");
    assert!(
        statuses
            .iter()
            .all(|s| *s == reqwest::StatusCode::CREATED || *s == reqwest::StatusCode::CONFLICT),
        "{statuses:?}"
    );
}

/// Reads an OData error body and returns its message, failing if it has not the
/// contract's shape.
pub async fn odata_error_message(response: Response) -> String {
    let body: serde_json::Value = response.json().await.expect("an error body in JSON");
    let message = body["odata.error"]["message"]["value"]
        .as_str()
        .unwrap_or_else(|| panic!("not an OData error body: {body}"));
    assert_eq!(body["odata.error"]["message"]["lang"], "en-US");
    assert!(body["odata.error"]["code"].is_string(), "{body}");
    message.to_owned()
}

/// Generates a test module that runs `$test(Backend)` once per backend.
#[macro_export]
macro_rules! on_both_backends {
    ($($name:ident => $test:ident;)+) => {
        $(
            mod $name {
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() {
                    super::$test($crate::Backend::Sqlite).await
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres() {
                    super::$test($crate::Backend::Postgres).await
                }
            }
        )+
    };
}
