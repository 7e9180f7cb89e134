//! The app's OData client: it holds the credentials and turns HTTP outcomes into
//! states the UI can show.

use reqwest::header::{HeaderMap, HeaderValue, CONTENT_TYPE};
use reqwest::{Method, StatusCode};
use scoredesk_server::odata::batch::{self, Answered, Operation};
use secrecy::{ExposeSecret, SecretString};
use serde_json::Value;

use crate::error::CommandError;

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

/// Why a request did not give an answer.
#[derive(Debug)]
pub enum RequestFailure {
    /// 401: the user name and password are not accepted here.
    Unauthorized(String),
    /// 403: the account is accepted but may not do this (a coordinator asking for
    /// the scorers' feeds, a scorer for the delivery feeds).
    Forbidden(String),
    /// No answer at all: the server is down or the address is wrong.
    Unreachable(String),
    /// 412: someone else changed the entity since it was read.
    Stale(String),
    /// 409: the entity exists already (an attempt's ExternalAttemptID, an
    /// attempt's upload), in the server's words.
    Conflict(String),
    /// An answer, but an error; the server's own words when it gave some.
    Failed(String),
}

impl RequestFailure {
    pub fn message(&self) -> &str {
        match self {
            RequestFailure::Unauthorized(m)
            | RequestFailure::Forbidden(m)
            | RequestFailure::Unreachable(m)
            | RequestFailure::Stale(m)
            | RequestFailure::Conflict(m)
            | RequestFailure::Failed(m) => m,
        }
    }
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

    /// PUTs every `(path, body)` as one `$batch` change set: the server applies all of
    /// them or none. A failed change set is reported as its failing write's answer
    /// (412 as [`RequestFailure::Stale`]).
    pub async fn change_set(&self, writes: &[(String, Value)]) -> Result<(), RequestFailure> {
        let json = HeaderValue::from_static("application/json");
        let operations: Vec<Operation> = writes
            .iter()
            .enumerate()
            .map(|(index, (path, body))| Operation {
                method: Method::PUT,
                url: path.clone(),
                headers: HeaderMap::from_iter([(CONTENT_TYPE, json.clone())]),
                body: body.to_string().into(),
                content_id: Some(HeaderValue::from(index + 1)),
            })
            .collect();
        let (content_type, body) = batch::write_change_set(&operations);
        let request = self
            .http
            .post(self.url("$batch"))
            .basic_auth(&self.username, Some(self.password.expose_secret()))
            .header(CONTENT_TYPE, content_type)
            .body(body);
        let answer = self.answer_of(request).await?;
        let parts = batch::parse_response(Some(&answer.content_type), answer.bytes.into())
            .await
            .map_err(|e| RequestFailure::Failed(format!("The server's batch answer: {e}")))?;
        match parts.as_slice() {
            [Answered::ChangeSet(answers)] if answers.len() == writes.len() => {
                match answers.iter().find(|a| !a.status.is_success()) {
                    None => Ok(()),
                    Some(failed) => Err(self.failure(failed.status, &failed.body)),
                }
            }
            [Answered::One(failed)] if !failed.status.is_success() => {
                Err(self.failure(failed.status, &failed.body))
            }
            _ => Err(RequestFailure::Failed(
                "The server's batch answer did not match the writes sent.".into(),
            )),
        }
    }

    /// GET a JSON document.
    pub async fn get_json(
        &self,
        path: &str,
        query: &[(&str, &str)],
    ) -> Result<Value, RequestFailure> {
        let answer = self.send(Method::GET, path, query, None).await?;
        serde_json::from_slice(&answer.bytes).map_err(|_| {
            RequestFailure::Failed(format!("The server's answer to {path} was not JSON."))
        })
    }

    /// GET every page of a feed, following `odata.nextLink`, up to `limit` entries.
    pub async fn get_all(
        &self,
        path: &str,
        query: &[(&str, &str)],
        limit: usize,
    ) -> Result<Vec<Value>, RequestFailure> {
        let mut page = self.get_json(path, query).await?;
        let mut entries = Vec::new();
        loop {
            if let Some(Value::Array(values)) = page.get_mut("value").map(Value::take) {
                entries.extend(values);
            }
            let next = page["odata.nextLink"].as_str().map(str::to_owned);
            match next {
                Some(link) if entries.len() < limit => {
                    // The link is the server's own, for this same service.
                    if !link.starts_with(&self.url("")) {
                        return Err(RequestFailure::Failed(format!(
                            "The server's next page of {path} is at another address: {link}"
                        )));
                    }
                    let request = self
                        .http
                        .get(&link)
                        .basic_auth(&self.username, Some(self.password.expose_secret()));
                    let answer = self.answer_of(request).await?;
                    page = serde_json::from_slice(&answer.bytes).map_err(|_| {
                        RequestFailure::Failed(format!(
                            "The server's answer to {path} was not JSON."
                        ))
                    })?;
                }
                _ => break,
            }
        }
        entries.truncate(limit);
        Ok(entries)
    }

    /// POST a file's bytes as they are (an answer upload), so that the server,
    /// not the app, judges them.
    pub async fn post_bytes(
        &self,
        path: &str,
        bytes: Vec<u8>,
        content_type: &str,
    ) -> Result<Value, RequestFailure> {
        let request = self
            .http
            .post(self.url(path))
            .basic_auth(&self.username, Some(self.password.expose_secret()))
            .header(reqwest::header::CONTENT_TYPE, content_type)
            .body(bytes);
        let answer = self.answer_of(request).await?;
        serde_json::from_slice(&answer.bytes).map_err(|_| {
            RequestFailure::Failed(format!("The server's answer to POST {path} was not JSON."))
        })
    }

    /// GET a media resource (`.../$value`).
    pub async fn get_media(&self, path: &str) -> Result<Answer, RequestFailure> {
        self.send(Method::GET, path, &[], None).await
    }

    /// GET `.../$count` as a number.
    pub async fn count(&self, path: &str, filter: &str) -> Result<i64, RequestFailure> {
        let answer = self
            .send(Method::GET, path, &[("$filter", filter)], None)
            .await?;
        String::from_utf8_lossy(&answer.bytes)
            .trim()
            .parse()
            .map_err(|_| RequestFailure::Failed("The server's count was not a number.".into()))
    }

    /// PUT an entity.
    pub async fn put(&self, path: &str, body: &Value) -> Result<(), RequestFailure> {
        self.send(Method::PUT, path, &[], Some(body))
            .await
            .map(drop)
    }

    /// POST a new entity to a collection; returns the entity the server created.
    pub async fn post(&self, path: &str, body: &Value) -> Result<Value, RequestFailure> {
        let answer = self.send(Method::POST, path, &[], Some(body)).await?;
        serde_json::from_slice(&answer.bytes).map_err(|_| {
            RequestFailure::Failed(format!("The server's answer to POST {path} was not JSON."))
        })
    }

    /// POST an action the server queues (202): where to follow it (`Location`).
    pub async fn post_action(&self, path: &str, body: &Value) -> Result<String, RequestFailure> {
        let answer = self.send(Method::POST, path, &[], Some(body)).await?;
        answer.location.ok_or_else(|| {
            RequestFailure::Failed(format!(
                "The server accepted {path} without saying where to follow it."
            ))
        })
    }

    /// DELETE an entity.
    pub async fn delete(&self, path: &str) -> Result<(), RequestFailure> {
        self.send(Method::DELETE, path, &[], None).await.map(drop)
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

/// The body of a response, refused once it grows past [`MAX_ANSWER_BYTES`].
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

/// The message of an OData error body, if the text is one.
fn odata_message(body: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(body).ok()?;
    let error = value.get("odata.error").or_else(|| value.get("error"))?;
    error["message"]["value"].as_str().map(str::to_owned)
}

fn root_cause(error: &(dyn std::error::Error + 'static)) -> String {
    let mut cause = error;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}

/// A failed request as a command's error, in words for people.
impl From<RequestFailure> for CommandError {
    fn from(failure: RequestFailure) -> Self {
        match failure {
            RequestFailure::Unreachable(m) => CommandError::Unreachable(m),
            RequestFailure::Unauthorized(m) | RequestFailure::Forbidden(m) => {
                CommandError::Unauthorized(m)
            }
            RequestFailure::Stale(m) | RequestFailure::Conflict(m) | RequestFailure::Failed(m) => {
                CommandError::Server(m)
            }
        }
    }
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

    #[test]
    fn the_message_of_an_odata_error_body_is_read_in_both_formats() {
        let light =
            r#"{"odata.error":{"code":"Forbidden","message":{"lang":"en-US","value":"no"}}}"#;
        let verbose = r#"{"error":{"code":"Forbidden","message":{"lang":"en-US","value":"nope"}}}"#;
        assert_eq!(odata_message(light).as_deref(), Some("no"));
        assert_eq!(odata_message(verbose).as_deref(), Some("nope"));
        assert_eq!(odata_message("<html>"), None);
    }
}
