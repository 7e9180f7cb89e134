//! The app's OData client: it holds the credentials and turns HTTP outcomes into
//! states the UI can show. Here the client and how a request is sent and answered;
//! the calls the desks make are `calls.rs`, what a failure means is `failure.rs`.

mod calls;
mod failure;

use reqwest::header::HeaderMap;
use reqwest::{Method, StatusCode};
use secrecy::{ExposeSecret, SecretString};
use serde_json::Value;

pub use failure::RequestFailure;
use failure::{odata_message, root_cause};

/// The largest answer the app reads, in bytes: a 12-megapixel scan is a few MB, a
/// page of tasks a few hundred KB. A server that sends more is refused, not obeyed.
pub const MAX_ANSWER_BYTES: usize = 64 * 1024 * 1024;

/// A server and an account to use it with.
#[derive(Clone)]
pub struct ODataClient {
    http: reqwest::Client,
    pub base_url: String,
    pub customer_id: i32,
    pub username: String,
    password: SecretString,
}

/// A successful answer.
pub struct Answer {
    pub content_type: String,
    pub bytes: Vec<u8>,
    /// The `Location` header: where an accepted action can be followed.
    pub location: Option<String>,
}

impl ODataClient {
    pub fn new(base_url: &str, customer_id: i32, username: &str, password: SecretString) -> Self {
        let http = reqwest::Client::builder()
            .timeout(std::time::Duration::from_secs(15))
            // Below any server's idle timeout, so a request is never sent on a
            // connection the server is closing.
            .pool_idle_timeout(std::time::Duration::from_secs(5))
            .build()
            .expect("a reqwest client with only timeouts set builds");
        Self {
            http,
            base_url: base_url.trim_end_matches('/').to_owned(),
            customer_id,
            username: username.to_owned(),
            password,
        }
    }

    /// The full URL of a resource of this server and customer area: what names it
    /// uniquely, also as a cache key.
    pub fn url(&self, path: &str) -> String {
        format!(
            "{}/deliveryodata/{}/{}",
            self.base_url, self.customer_id, path
        )
    }

    /// Sends one request to the service and sorts out what came back.
    async fn send(
        &self,
        method: Method,
        path: &str,
        query: &[(&str, &str)],
        body: Option<&Value>,
    ) -> Result<Answer, RequestFailure> {
        let mut request = self
            .http
            .request(method, self.url(path))
            .query(query)
            .basic_auth(&self.username, Some(self.password.expose_secret()));
        if let Some(body) = body {
            request = request.json(body);
        }
        self.answer_of(request).await
    }

    /// Sends a built request and sorts out what came back.
    async fn answer_of(&self, request: reqwest::RequestBuilder) -> Result<Answer, RequestFailure> {
        let again = request.try_clone();
        let mut response = self.sent(request).await?;
        // A sign-in refused for a moment (the server's limits on failed sign-ins,
        // docs/operations.md): the request was not run, so wait as the server says,
        // once, when that is short, rather than show an error a person would only
        // answer by trying again (a school's shared address just after a spray of
        // guesses: served within seconds).
        if let (StatusCode::TOO_MANY_REQUESTS, Some(again)) = (response.status(), again) {
            if let Some(wait) = retry_after(response.headers()).filter(|wait| *wait <= MAX_WAIT) {
                tokio::time::sleep(wait).await;
                response = self.sent(again).await?;
            }
        }
        let status = response.status();
        let content_type = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let location = response
            .headers()
            .get(reqwest::header::LOCATION)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let bytes = read_capped(response).await?;
        if status.is_success() {
            return Ok(Answer {
                content_type,
                bytes,
                location,
            });
        }
        Err(self.failure(status, &bytes))
    }

    async fn sent(
        &self,
        request: reqwest::RequestBuilder,
    ) -> Result<reqwest::Response, RequestFailure> {
        request.send().await.map_err(|e| {
            RequestFailure::Unreachable(format!(
                "Cannot reach {}: {}",
                self.base_url,
                root_cause(&e)
            ))
        })
    }

    /// What an error answer means for the app.
    fn failure(&self, status: StatusCode, bytes: &[u8]) -> RequestFailure {
        let said = odata_message(&String::from_utf8_lossy(bytes));
        match status {
            StatusCode::UNAUTHORIZED => RequestFailure::Unauthorized(format!(
                "The server did not accept the user name and password of {}.",
                self.username
            )),
            StatusCode::FORBIDDEN => RequestFailure::Forbidden(said.unwrap_or_else(|| {
                format!(
                    "The account {} may not do this in customer area {}.",
                    self.username, self.customer_id
                )
            })),
            StatusCode::CONFLICT => RequestFailure::Conflict(
                said.unwrap_or_else(|| "The server already holds this.".into()),
            ),
            StatusCode::PRECONDITION_FAILED => RequestFailure::Stale(
                said.unwrap_or_else(|| "Someone else changed this since you opened it.".into()),
            ),
            other => RequestFailure::Failed(
                said.unwrap_or_else(|| format!("The server answered {other}.")),
            ),
        }
    }
}

/// Whether signing in to `url` sends the password over the network unencrypted:
/// plain `http://` to anything but this machine. (HTTP Basic sends it with every
/// request.)
pub fn sends_password_in_clear(url: &reqwest::Url) -> bool {
    if url.scheme() != "http" {
        return false;
    }
    let host = url
        .host_str()
        .unwrap_or_default()
        .trim_start_matches('[')
        .trim_end_matches(']');
    match host.parse::<std::net::IpAddr>() {
        Ok(ip) => !ip.is_loopback(),
        Err(_) => !host.eq_ignore_ascii_case("localhost"),
    }
}

/// The longest `Retry-After` the app waits out by itself before answering.
const MAX_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// A `Retry-After` in seconds.
fn retry_after(headers: &HeaderMap) -> Option<std::time::Duration> {
    headers
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()
        .map(std::time::Duration::from_secs)
}

/// The body of a response, refused once it grows past [`MAX_ANSWER_BYTES`].
async fn read_capped(mut response: reqwest::Response) -> Result<Vec<u8>, RequestFailure> {
    let too_large = || {
        RequestFailure::Failed(format!(
            "The server's answer is larger than the {} MB the app reads.",
            MAX_ANSWER_BYTES / 1024 / 1024
        ))
    };
    if response
        .content_length()
        .is_some_and(|length| length > MAX_ANSWER_BYTES as u64)
    {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| {
        RequestFailure::Unreachable(format!("The answer broke off: {}", root_cause(&e)))
    })? {
        if bytes.len() + chunk.len() > MAX_ANSWER_BYTES {
            return Err(too_large());
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_http_beyond_this_machine_sends_the_password_in_clear() {
        for (url, clear) in [
            ("http://scoring.example.org/", true),
            ("http://10.0.0.5:8080/", true),
            ("https://scoring.example.org/", false),
            ("http://127.0.0.1:8080/", false),
            ("http://localhost:8080/", false),
            ("http://[::1]:8080/", false),
        ] {
            let url = reqwest::Url::parse(url).unwrap();
            assert_eq!(sends_password_in_clear(&url), clear, "{url}");
        }
    }
}
