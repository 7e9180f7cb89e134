//! The app's OData client: it holds the credentials and turns HTTP outcomes into
//! states the UI can show.

use reqwest::StatusCode;
use secrecy::{ExposeSecret, SecretString};

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
    /// 401 or 403: the account is not accepted here.
    Unauthorized(String),
    /// No answer at all: the server is down or the address is wrong.
    Unreachable(String),
    /// An answer, but an error.
    Failed(String),
}

impl ODataClient {
    pub fn new(base_url: &str, customer_id: i32, username: &str, password: SecretString) -> Self {
        let http = reqwest::Client::builder()
            .timeout(std::time::Duration::from_secs(15))
            .build()
            .expect("a reqwest client with only a timeout set builds");
        Self {
            http,
            base_url: base_url.trim_end_matches('/').to_owned(),
            customer_id,
            username: username.to_owned(),
            password,
        }
    }

    fn url(&self, path: &str) -> String {
        format!(
            "{}/deliveryodata/{}/{}",
            self.base_url, self.customer_id, path
        )
    }

    /// `ScoringTasks/$count?$filter=Status eq 0`.
    pub async fn count_open_tasks(&self) -> Result<i64, RequestFailure> {
        let response = self
            .http
            .get(self.url("ScoringTasks/$count"))
            .query(&[("$filter", "Status eq 0")])
            .basic_auth(&self.username, Some(self.password.expose_secret()))
            .send()
            .await
            .map_err(|e| {
                RequestFailure::Unreachable(format!(
                    "Cannot reach {}: {}",
                    self.base_url,
                    root_cause(&e)
                ))
            })?;
        let status = response.status();
        let body = response.text().await.unwrap_or_default();
        match status {
            StatusCode::OK => body.trim().parse().map_err(|_| {
                RequestFailure::Failed("The server's task count was not a number.".into())
            }),
            StatusCode::UNAUTHORIZED => Err(RequestFailure::Unauthorized(format!(
                "The server did not accept the user name and password of {}.",
                self.username
            ))),
            StatusCode::FORBIDDEN | StatusCode::NOT_FOUND => Err(RequestFailure::Unauthorized(
                odata_message(&body).unwrap_or_else(|| {
                    format!(
                        "The account {} may not use customer area {}.",
                        self.username, self.customer_id
                    )
                }),
            )),
            other => Err(RequestFailure::Failed(
                odata_message(&body).unwrap_or_else(|| format!("The server answered {other}.")),
            )),
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

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
