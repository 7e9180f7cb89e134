//! One simulated person's HTTP client: their account, their address (sent as
//! `X-Forwarded-For`, which the soak's server trusts from 127.0.0.1, so that many
//! people can come from many addresses on one machine), and the recorder that
//! every request reports to.

use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::{Client, Method};
use serde_json::Value;

use crate::recorder::Recorder;

#[derive(Clone)]
pub struct Person {
    client: Client,
    pub root: String,
    pub user: String,
    password: String,
    pub address: String,
    recorder: Arc<Recorder>,
}

pub struct Reply {
    pub status: u16,
    pub body: String,
    /// The `Location` header, where there is one.
    pub location: Option<String>,
    /// The `Retry-After` header in seconds, where there is one.
    pub retry_after: Option<Duration>,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }

    pub fn is(&self, status: u16) -> bool {
        self.status == status
    }
}

/// Longer than any request should take: one that does is a hang, and a failure.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

impl Person {
    pub fn new(
        root: &str,
        user: &str,
        password: &str,
        address: &str,
        recorder: Arc<Recorder>,
    ) -> Self {
        let client = Client::builder()
            .timeout(REQUEST_TIMEOUT)
            .build()
            .unwrap_or_default();
        Person {
            client,
            root: root.to_owned(),
            user: user.to_owned(),
            password: password.to_owned(),
            address: address.to_owned(),
            recorder,
        }
    }

    /// The same person with another password (the flood's guesses).
    pub fn with_credentials(&self, user: &str, password: &str) -> Self {
        Person {
            user: user.to_owned(),
            password: password.to_owned(),
            ..self.clone()
        }
    }

    /// Sends a request to `path` under the service root (or to a full URL) and
    /// records it under `route`; a status outside `expected` is a failure.
    pub async fn send(
        &self,
        route: &'static str,
        method: Method,
        path: &str,
        body: Option<(&'static str, Vec<u8>)>,
        expected: &[u16],
    ) -> Reply {
        let url = if path.starts_with("http") {
            path.to_owned()
        } else {
            format!("{}/{path}", self.root)
        };
        let mut request = self
            .client
            .request(method.clone(), &url)
            .basic_auth(&self.user, Some(&self.password))
            .header("X-Forwarded-For", &self.address);
        if let Some((content_type, bytes)) = body {
            request = request.header("Content-Type", content_type).body(bytes);
        }
        let begun = Instant::now();
        let outcome = match request.send().await {
            Ok(response) => {
                let status = response.status().as_u16();
                let location = response
                    .headers()
                    .get("Location")
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_owned);
                let retry_after = response
                    .headers()
                    .get("Retry-After")
                    .and_then(|v| v.to_str().ok()?.parse().ok())
                    .map(Duration::from_secs);
                response.text().await.map(|body| Reply {
                    status,
                    body,
                    location,
                    retry_after,
                })
            }
            Err(error) => Err(error),
        };
        let reply = match outcome {
            Ok(reply) => reply,
            Err(error) => Reply {
                status: 0,
                body: format!("no answer: {error}"),
                location: None,
                retry_after: None,
            },
        };
        self.recorder.record(route, reply.status, begun.elapsed());
        if !expected.contains(&reply.status) {
            let mut body = reply.body.clone();
            body.truncate(300);
            self.recorder.fail(format!(
                "{} {method} {url} as {} from {}: {} {body}",
                route, self.user, self.address, reply.status
            ));
        }
        reply
    }

    pub async fn get(&self, route: &'static str, path: &str, expected: &[u16]) -> Reply {
        self.send(route, Method::GET, path, None, expected).await
    }

    pub async fn json(
        &self,
        route: &'static str,
        method: Method,
        path: &str,
        body: &Value,
        expected: &[u16],
    ) -> Reply {
        let bytes = serde_json::to_vec(body).unwrap_or_default();
        self.send(
            route,
            method,
            path,
            Some(("application/json", bytes)),
            expected,
        )
        .await
    }

    pub fn recorder(&self) -> &Recorder {
        &self.recorder
    }
}

impl Person {
    pub fn recorder_arc(&self) -> Arc<Recorder> {
        self.recorder.clone()
    }
}
