//! The requests the desks make: reads (one page, every page, media, counts),
//! writes (PUT, POST, DELETE, a `$batch` change set) and actions.

use reqwest::header::{HeaderMap, HeaderValue, CONTENT_TYPE};
use reqwest::Method;
use scoredesk_server::odata::batch::{self, Answered, Operation};
use secrecy::ExposeSecret;
use serde_json::Value;

use super::{Answer, ODataClient, RequestFailure};

impl ODataClient {
    /// PUTs every `(path, body)` as one `$batch` change set: the server applies all of
    /// them or none. A failed change set is reported as its failing write's answer
    /// (412 as [`RequestFailure::Stale`]).
    pub async fn change_set(&self, writes: &[(String, Value)]) -> Result<(), RequestFailure> {
        let writes: Vec<(Method, String, Option<Value>)> = writes
            .iter()
            .map(|(path, body)| (Method::PUT, path.clone(), Some(body.clone())))
            .collect();
        self.writes_as_one(&writes).await
    }

    /// Sends every `(method, path, body)` as one `$batch` change set (PATCH, POST
    /// of a link, DELETE of one): all of them or none.
    pub async fn writes_as_one(
        &self,
        writes: &[(Method, String, Option<Value>)],
    ) -> Result<(), RequestFailure> {
        let json = HeaderValue::from_static("application/json");
        let operations: Vec<Operation> = writes
            .iter()
            .enumerate()
            .map(|(index, (method, path, body))| Operation {
                method: method.clone(),
                url: path.clone(),
                headers: match body {
                    Some(_) => HeaderMap::from_iter([(CONTENT_TYPE, json.clone())]),
                    None => HeaderMap::new(),
                },
                body: body
                    .as_ref()
                    .map(|b| b.to_string())
                    .unwrap_or_default()
                    .into(),
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

    /// POSTs an import (`ImportQtiPackage`, `ImportRoster`): a file's bytes as
    /// base64 in `parameter`, its name and whether only to preview; the report.
    pub async fn post_import<T: serde::de::DeserializeOwned>(
        &self,
        action: &str,
        parameter: &str,
        bytes: &[u8],
        file_name: &str,
        preview: bool,
    ) -> Result<T, RequestFailure> {
        use base64::Engine;
        let body = serde_json::json!({
            parameter: base64::engine::general_purpose::STANDARD.encode(bytes),
            "FileName": file_name,
            "Preview": preview,
        });
        let answer = self.post(action, &body).await?;
        serde_json::from_value(answer).map_err(|error| {
            RequestFailure::Failed(format!(
                "The server's answer to {action} could not be read ({error})."
            ))
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

    /// PATCH an entity: only the properties sent change.
    pub async fn patch(&self, path: &str, body: &Value) -> Result<(), RequestFailure> {
        self.send(Method::PATCH, path, &[], Some(body))
            .await
            .map(drop)
    }

    /// DELETE an entity.
    pub async fn delete(&self, path: &str) -> Result<(), RequestFailure> {
        self.send(Method::DELETE, path, &[], None).await.map(drop)
    }
}
