//! Running a `$batch`: each read on its own, each change set in one transaction that
//! is committed only if every write in it succeeded (otherwise nothing of it is
//! stored, and the change set answers with the error of the write that failed). Each
//! operation is routed as a request of its own, so it meets the same method check and
//! the same access decision.

use crate::model::area::CustomerArea;
use axum::body::{to_bytes, Bytes};
use axum::http::header::{CONTENT_TYPE, HOST};
use axum::http::{HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

use super::error_format::{error_form, formatted, ErrorForm};
use super::route::{route, Routed, Target};
use super::service::Service;
use crate::feeds::handler::Incoming;
use crate::odata::batch::{self, Answer, Operation, Part, PartAnswer};
use crate::odata::ApiError;
use crate::store::WriteScope;

/// The largest answer of one operation taken into a batch response.
const MAX_ANSWER_BYTES: usize = 64 * 1024 * 1024;

pub async fn run(
    service: &Service<'_>,
    outer: &Incoming,
    body: Bytes,
) -> Result<Response, ApiError> {
    let content_type = outer
        .headers
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok());
    let parts = batch::parse(content_type, body).await?;
    let mut answers = Vec::with_capacity(parts.len());
    // 200 pages with deep expansions could otherwise hold gigabytes at once.
    let budget = service.state.settings.max_batch_answer_bytes;
    let mut held = 0;
    for part in parts {
        let answer = match part {
            Part::Query(operation) if held > budget => {
                let error = ApiError::bad_request(format!(
                    "$batch: the answers before this one passed {budget} bytes; send this GET in a batch of its own"
                ));
                PartAnswer::Query(error_answer(&operation, error).await)
            }
            Part::Query(operation) => PartAnswer::Query(query(service, outer, operation).await),
            Part::ChangeSet(operations) => change_set(service, outer, operations).await,
        };
        held += match &answer {
            PartAnswer::Query(one) | PartAnswer::Failed(one) => one.body.len(),
            PartAnswer::Applied(all) => all.iter().map(|a| a.body.len()).sum(),
        };
        answers.push(answer);
    }
    let (boundary, bytes) = batch::write_response(&answers);
    let mut response = (StatusCode::ACCEPTED, bytes).into_response();
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(&format!("multipart/mixed; boundary={boundary}")) {
        headers.insert(CONTENT_TYPE, value);
    }
    headers.insert("DataServiceVersion", HeaderValue::from_static("3.0;"));
    Ok(response)
}

/// A read on its own.
async fn query(service: &Service<'_>, outer: &Incoming, operation: Operation) -> Answer {
    let result = async {
        let incoming = incoming(service.area, outer, &operation)?;
        let routed = route(service.principal, &incoming)?;
        let response = service.read(&incoming, routed).await;
        Ok::<_, ApiError>((incoming, response))
    }
    .await;
    match result {
        Ok((incoming, response)) => echoed(answer(&incoming, response).await, &operation),
        Err(error) => error_answer(&operation, error).await,
    }
}

/// `answer` with its operation's `Content-ID`, if it had one.
fn echoed(mut answer: Answer, operation: &Operation) -> Answer {
    if let Some(id) = &operation.content_id {
        answer.headers.insert("content-id", id.clone());
    }
    answer
}

/// Writes that succeed or fail together.
async fn change_set(
    service: &Service<'_>,
    outer: &Incoming,
    operations: Vec<Operation>,
) -> PartAnswer {
    // Routing decides everything that does not need the data, for every operation,
    // before anything is written.
    let mut routed: Vec<(Incoming, Routed, Bytes)> = Vec::with_capacity(operations.len());
    for operation in &operations {
        let result = incoming(service.area, outer, operation).and_then(|incoming| {
            let routed = route(service.principal, &incoming)?;
            match routed.target {
                Target::Write { .. } => Ok((incoming, routed)),
                Target::Action { .. } => Err(ApiError::bad_request(
                    "$batch: actions are invoked on their own, not inside a change set",
                )),
                _ => Err(ApiError::bad_request(
                    "$batch: a change set holds writes (POST, PUT, DELETE), not reads",
                )),
            }
        });
        match result {
            Ok((incoming, target)) => routed.push((incoming, target, operation.body.clone())),
            Err(error) => return PartAnswer::Failed(error_answer(operation, error).await),
        }
    }
    let mut writes = WriteScope::change_set(&service.state.store);
    let mut written = Vec::with_capacity(routed.len());
    for (index, (incoming, routed, body)) in routed.iter().enumerate() {
        let Target::Write { path, handler, .. } = &routed.target else {
            unreachable!("only writes were kept above")
        };
        let request = service.write_request(incoming, path, &routed.options, body.clone());
        match handler(&request, &mut writes).await {
            Ok(done) => written.push(done),
            // Dropping the scope rolls back what the earlier writes did.
            Err(error) => {
                drop(writes);
                return PartAnswer::Failed(error_answer(&operations[index], error).await);
            }
        }
    }
    if let Err(error) = writes.commit().await {
        return PartAnswer::Failed(error_answer(&operations[0], error.into()).await);
    }
    let mut answers = Vec::with_capacity(written.len());
    for (((incoming, routed, body), done), operation) in routed.iter().zip(written).zip(&operations)
    {
        let Target::Write { path, .. } = &routed.target else {
            unreachable!("only writes were kept above")
        };
        let request = service.write_request(incoming, path, &routed.options, body.clone());
        let response = request.respond(done).await;
        answers.push(echoed(answer(incoming, response).await, operation));
    }
    PartAnswer::Applied(answers)
}

/// An operation as a request to this service: its URL, relative to the service root
/// or absolute, must address the batch's own customer area; the batch's `Host` is
/// kept so that links in answers point where the client went.
fn incoming(
    area: CustomerArea,
    outer: &Incoming,
    operation: &Operation,
) -> Result<Incoming, ApiError> {
    let root = format!("/deliveryodata/{area}/");
    let path_and_query =
        if operation.url.starts_with("http://") || operation.url.starts_with("https://") {
            let uri: Uri = operation.url.parse().map_err(|_| {
                ApiError::bad_request(format!("$batch: '{}' is not a URL", operation.url))
            })?;
            uri.path_and_query()
                .map(|p| p.as_str().to_owned())
                .unwrap_or_default()
        } else if operation.url.starts_with('/') {
            operation.url.clone()
        } else {
            format!("{root}{}", operation.url)
        };
    if !path_and_query.starts_with(&root) {
        return Err(ApiError::bad_request(format!(
            "$batch: '{}' is outside this batch's service root {root}",
            operation.url
        )));
    }
    let uri: Uri = path_and_query.parse().map_err(|_| {
        ApiError::bad_request(format!("$batch: '{}' is not a valid URL", operation.url))
    })?;
    let mut headers = operation.headers.clone();
    if let Some(host) = outer.headers.get(HOST) {
        headers.insert(HOST, host.clone());
    }
    Ok(Incoming {
        method: operation.method.clone(),
        uri,
        headers,
        remote: outer.remote,
    })
}

/// One operation's answer, errors in the contract's body and the asked-for format.
async fn answer(incoming: &Incoming, response: Result<Response, ApiError>) -> Answer {
    let response = response.unwrap_or_else(IntoResponse::into_response);
    let form = error_form(&incoming.headers, incoming.uri.query());
    collected(form, response, MAX_ANSWER_BYTES).await
}

async fn error_answer(operation: &Operation, error: ApiError) -> Answer {
    let form = error_form(&operation.headers, None);
    echoed(
        collected(form, error.into_response(), MAX_ANSWER_BYTES).await,
        operation,
    )
}

/// `response` as one part of the batch response, its (streamed) body collected. A
/// body larger than `limit` becomes a 400 that says so, never an empty success.
async fn collected(form: ErrorForm, response: Response, limit: usize) -> Answer {
    let response = formatted(form, response).await;
    let (parts, body) = response.into_parts();
    match to_bytes(body, limit).await {
        Ok(body) => Answer {
            status: parts.status,
            headers: parts.headers,
            body,
        },
        Err(_) => {
            let error = ApiError::bad_request(format!(
                "$batch: the answer to this operation is larger than {limit} bytes, the most one part holds; send it on its own"
            ));
            let (parts, body) = formatted(form, error.into_response()).await.into_parts();
            Answer {
                status: parts.status,
                headers: parts.headers,
                // An error's body is a few hundred bytes.
                body: to_bytes(body, limit.max(64 * 1024))
                    .await
                    .unwrap_or_default(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;

    fn streamed(bytes: usize) -> Response {
        let chunks = (0..bytes / 1024)
            .map(|_| Ok::<_, std::convert::Infallible>(Bytes::from(vec![b'x'; 1024])));
        Response::new(Body::from_stream(futures::stream::iter(chunks)))
    }

    #[tokio::test]
    async fn an_answer_within_the_limit_is_kept_whole() {
        let answer = collected(ErrorForm::Json, streamed(4 * 1024), 4 * 1024).await;
        assert_eq!(answer.status, StatusCode::OK);
        assert_eq!(answer.body.len(), 4 * 1024);
    }

    #[tokio::test]
    async fn an_answer_over_the_limit_is_a_400_that_says_so() {
        let answer = collected(ErrorForm::Json, streamed(8 * 1024), 4 * 1024).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST);
        let body: serde_json::Value = serde_json::from_slice(&answer.body).unwrap();
        let message = body["odata.error"]["message"]["value"].as_str().unwrap();
        assert!(message.contains("larger than 4096 bytes"), "{message}");
    }
}
