//! `$batch` (OData version 3): a `multipart/mixed` body whose parts are single read
//! operations or change sets, each change set a `multipart/mixed` of write
//! operations that succeed or fail together. This module reads and writes the format;
//! running the operations is the feeds' work.
//!
//! ```text
//! --batch_1
//! Content-Type: multipart/mixed; boundary=changeset_1
//!
//! --changeset_1
//! Content-Type: application/http
//! Content-Transfer-Encoding: binary
//!
//! PUT ScoringResults(QuestionID=1L,RubricID=2,ResultID=3) HTTP/1.1
//! Content-Type: application/json
//!
//! {"Score": 4}
//! --changeset_1--
//! --batch_1--
//! ```

use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode};
use futures::stream;

use super::ApiError;

/// The most operations one batch may hold, change sets' operations included.
pub const MAX_OPERATIONS: usize = 200;

/// One request inside a batch.
#[derive(Debug)]
pub struct Operation {
    pub method: Method,
    /// As written: relative to the service root, or absolute.
    pub url: String,
    pub headers: HeaderMap,
    pub body: Bytes,
}

/// A part of a batch.
#[derive(Debug)]
pub enum Part {
    /// A read (GET) on its own.
    Query(Operation),
    /// Writes that are applied all together or not at all.
    ChangeSet(Vec<Operation>),
}

/// Reads a batch body whose `Content-Type` is `content_type`.
pub async fn parse(content_type: Option<&str>, body: Bytes) -> Result<Vec<Part>, ApiError> {
    let boundary = boundary_of(content_type, "the $batch request")?;
    let mut parts = Vec::new();
    let mut operations = 0;
    for (headers, content) in split(body, &boundary, "the $batch body").await? {
        let part_type = header_text(&headers, "content-type");
        let part = if part_type
            .to_ascii_lowercase()
            .starts_with("multipart/mixed")
        {
            let boundary = boundary_of(Some(&part_type), "a change set")?;
            let mut changes = Vec::new();
            for (headers, content) in split(content, &boundary, "a change set").await? {
                let operation = operation(&headers, &content)?;
                if operation.method == Method::GET {
                    return Err(ApiError::bad_request(
                        "$batch: a change set holds writes only; send a GET as its own part",
                    ));
                }
                changes.push(operation);
            }
            operations += changes.len();
            Part::ChangeSet(changes)
        } else {
            let operation = operation(&headers, &content)?;
            if operation.method != Method::GET {
                return Err(ApiError::bad_request(format!(
                    "$batch: {} must be inside a change set; only GET may stand on its own",
                    operation.method
                )));
            }
            operations += 1;
            Part::Query(operation)
        };
        if operations > MAX_OPERATIONS {
            return Err(ApiError::bad_request(format!(
                "$batch: at most {MAX_OPERATIONS} operations in one batch"
            )));
        }
        parts.push(part);
    }
    Ok(parts)
}

fn boundary_of(content_type: Option<&str>, what: &str) -> Result<String, ApiError> {
    let content_type = content_type.unwrap_or_default();
    let parsed = content_type.parse::<mime::Mime>().ok();
    let Some(parsed) = parsed.filter(|m| m.type_() == mime::MULTIPART && m.subtype() == "mixed")
    else {
        return Err(ApiError::UnsupportedMediaType(format!(
            "{what} must be multipart/mixed with a boundary, not '{content_type}'"
        )));
    };
    parsed
        .get_param(mime::BOUNDARY)
        .map(|boundary| boundary.as_str().to_owned())
        .ok_or_else(|| {
            ApiError::bad_request(format!(
                "{what}: the Content-Type has no boundary parameter"
            ))
        })
}

/// The parts of a multipart body: each one's headers and content.
async fn split(
    body: Bytes,
    boundary: &str,
    what: &str,
) -> Result<Vec<(HeaderMap, Bytes)>, ApiError> {
    let malformed = |error: multer::Error| {
        ApiError::bad_request(format!(
            "$batch: {what} is not well-formed multipart: {error}"
        ))
    };
    let source = stream::once(async move { Ok::<Bytes, std::convert::Infallible>(body) });
    let mut multipart = multer::Multipart::new(source, boundary);
    let mut parts = Vec::new();
    while let Some(field) = multipart.next_field().await.map_err(malformed)? {
        let headers = field.headers().clone();
        let content = field.bytes().await.map_err(malformed)?;
        parts.push((headers, content));
        if parts.len() > MAX_OPERATIONS {
            return Err(ApiError::bad_request(format!(
                "$batch: at most {MAX_OPERATIONS} operations in one batch"
            )));
        }
    }
    Ok(parts)
}

fn header_text(headers: &HeaderMap, name: &str) -> String {
    headers
        .get(name)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

/// An `application/http` part: a request line, headers, a blank line, a body.
fn operation(part_headers: &HeaderMap, content: &[u8]) -> Result<Operation, ApiError> {
    let part_type = header_text(part_headers, "content-type");
    if !part_type
        .to_ascii_lowercase()
        .starts_with("application/http")
    {
        return Err(ApiError::bad_request(format!(
            "$batch: each operation is an application/http part, not '{part_type}'"
        )));
    }
    let mut header_slots = [httparse::EMPTY_HEADER; 64];
    let mut request = httparse::Request::new(&mut header_slots);
    let head_length = match request.parse(content) {
        Ok(httparse::Status::Complete(length)) => length,
        Ok(httparse::Status::Partial) => {
            return Err(ApiError::bad_request(
                "$batch: an operation is not a complete HTTP request: its request line or headers end early",
            ))
        }
        Err(error) => {
            return Err(ApiError::bad_request(format!(
                "$batch: an operation is not an HTTP request: {error}"
            )))
        }
    };
    let method = Method::from_bytes(request.method.unwrap_or_default().as_bytes())
        .map_err(|_| ApiError::bad_request("$batch: an operation has no valid method"))?;
    let url = request.path.unwrap_or_default().to_owned();
    if url
        .strip_prefix('$')
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
    {
        return Err(ApiError::bad_request(format!(
            "$batch: '{url}' refers to another operation by Content-ID, which this service does not support"
        )));
    }
    let mut headers = HeaderMap::new();
    for header in request.headers.iter() {
        let name = HeaderName::from_bytes(header.name.as_bytes()).map_err(|_| {
            ApiError::bad_request(format!("$batch: '{}' is not a header name", header.name))
        })?;
        let value = HeaderValue::from_bytes(header.value).map_err(|_| {
            ApiError::bad_request(format!(
                "$batch: the {name} header of an operation is malformed"
            ))
        })?;
        headers.append(name, value);
    }
    Ok(Operation {
        method,
        url,
        headers,
        body: Bytes::copy_from_slice(&content[head_length..]),
    })
}

/// One operation's answer, as it goes into the batch response.
#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Bytes,
}

/// What the batch response holds for one part of the request.
pub enum PartAnswer {
    Query(Answer),
    /// The answers of a change set that was applied.
    Applied(Vec<Answer>),
    /// The one answer of a change set that failed, and so changed nothing.
    Failed(Answer),
}

/// The batch response body, and its boundary for the `Content-Type`.
pub fn write_response(parts: &[PartAnswer]) -> (String, Vec<u8>) {
    let boundary = format!("batchresponse_{}", uuid::Uuid::new_v4());
    let mut out = Vec::new();
    for part in parts {
        out.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
        match part {
            PartAnswer::Query(answer) | PartAnswer::Failed(answer) => write_http(&mut out, answer),
            PartAnswer::Applied(answers) => {
                let inner = format!("changesetresponse_{}", uuid::Uuid::new_v4());
                out.extend_from_slice(
                    format!("Content-Type: multipart/mixed; boundary={inner}\r\n\r\n").as_bytes(),
                );
                for answer in answers {
                    out.extend_from_slice(format!("--{inner}\r\n").as_bytes());
                    write_http(&mut out, answer);
                }
                out.extend_from_slice(format!("--{inner}--\r\n").as_bytes());
            }
        }
    }
    out.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (boundary, out)
}

fn write_http(out: &mut Vec<u8>, answer: &Answer) {
    out.extend_from_slice(
        b"Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n",
    );
    out.extend_from_slice(
        format!(
            "HTTP/1.1 {} {}\r\n",
            answer.status.as_u16(),
            answer.status.canonical_reason().unwrap_or("")
        )
        .as_bytes(),
    );
    write_headers_and_body(out, &answer.headers, &answer.body);
}

/// An embedded message's headers, a blank line, and its body.
fn write_headers_and_body(out: &mut Vec<u8>, headers: &HeaderMap, body: &[u8]) {
    for (name, value) in headers {
        out.extend_from_slice(name.as_str().as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(body);
    out.extend_from_slice(b"\r\n");
}

/// A batch of one change set, as a client sends it: the `Content-Type` and the body.
pub fn write_change_set(operations: &[Operation]) -> (String, Vec<u8>) {
    let batch = format!("batch_{}", uuid::Uuid::new_v4());
    let change_set = format!("changeset_{}", uuid::Uuid::new_v4());
    let mut out = Vec::new();
    out.extend_from_slice(
        format!("--{batch}\r\nContent-Type: multipart/mixed; boundary={change_set}\r\n\r\n")
            .as_bytes(),
    );
    for operation in operations {
        out.extend_from_slice(format!("--{change_set}\r\n").as_bytes());
        out.extend_from_slice(
            b"Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n",
        );
        out.extend_from_slice(
            format!("{} {} HTTP/1.1\r\n", operation.method, operation.url).as_bytes(),
        );
        write_headers_and_body(&mut out, &operation.headers, &operation.body);
    }
    out.extend_from_slice(format!("--{change_set}--\r\n--{batch}--\r\n").as_bytes());
    (format!("multipart/mixed; boundary={batch}"), out)
}

/// A part of a batch response, as a client reads it.
#[derive(Debug)]
pub enum Answered {
    /// One answer: to a read, or to a change set that failed as a whole.
    One(Answer),
    /// The answers of a change set that was applied, one per operation.
    ChangeSet(Vec<Answer>),
}

/// Reads a batch response whose `Content-Type` is `content_type`.
pub async fn parse_response(
    content_type: Option<&str>,
    body: Bytes,
) -> Result<Vec<Answered>, ApiError> {
    let boundary = boundary_of(content_type, "the $batch response")?;
    let mut parts = Vec::new();
    for (headers, content) in split(body, &boundary, "the $batch response").await? {
        let part_type = header_text(&headers, "content-type");
        if part_type
            .to_ascii_lowercase()
            .starts_with("multipart/mixed")
        {
            let boundary = boundary_of(Some(&part_type), "a change set's answers")?;
            let mut answers = Vec::new();
            for (_, content) in split(content, &boundary, "a change set's answers").await? {
                answers.push(http_answer(&content)?);
            }
            parts.push(Answered::ChangeSet(answers));
        } else {
            parts.push(Answered::One(http_answer(&content)?));
        }
    }
    Ok(parts)
}

/// An `application/http` answer: a status line, headers, a blank line, a body.
fn http_answer(content: &[u8]) -> Result<Answer, ApiError> {
    let mut header_slots = [httparse::EMPTY_HEADER; 64];
    let mut response = httparse::Response::new(&mut header_slots);
    let Ok(httparse::Status::Complete(length)) = response.parse(content) else {
        return Err(ApiError::bad_request(
            "$batch: an answer is not a complete HTTP response",
        ));
    };
    let status = response
        .code
        .and_then(|code| StatusCode::from_u16(code).ok())
        .ok_or_else(|| ApiError::bad_request("$batch: an answer has no status"))?;
    let mut headers = HeaderMap::new();
    for header in response.headers.iter() {
        if let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(header.name.as_bytes()),
            HeaderValue::from_bytes(header.value),
        ) {
            headers.append(name, value);
        }
    }
    Ok(Answer {
        status,
        headers,
        body: Bytes::copy_from_slice(&content[length..]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(text: &str) -> Bytes {
        Bytes::from(text.replace('\n', "\r\n"))
    }

    const CHANGESET: &str = "--batch_1
Content-Type: multipart/mixed; boundary=changeset_1

--changeset_1
Content-Type: application/http
Content-Transfer-Encoding: binary

PUT ScoringResults(QuestionID=1L,RubricID=2,ResultID=3) HTTP/1.1
Content-Type: application/json
If-Match: *

{\"Score\": 4}
--changeset_1
Content-Type: application/http
Content-Transfer-Encoding: binary

PUT ScoringTasks(QuestionID=1L,ResultID=3) HTTP/1.1
Content-Type: application/json

{\"Status\": 3}
--changeset_1--
--batch_1
Content-Type: application/http
Content-Transfer-Encoding: binary

GET Results(3) HTTP/1.1
Accept: application/json


--batch_1--
";

    #[tokio::test]
    async fn a_change_set_and_a_query_are_read_in_order() {
        let parts = parse(Some("multipart/mixed; boundary=batch_1"), body(CHANGESET))
            .await
            .unwrap();
        let [Part::ChangeSet(changes), Part::Query(query)] = parts.as_slice() else {
            panic!("{parts:?}")
        };
        assert_eq!(changes.len(), 2);
        assert_eq!(changes[0].method, Method::PUT);
        assert_eq!(
            changes[0].url,
            "ScoringResults(QuestionID=1L,RubricID=2,ResultID=3)"
        );
        assert_eq!(changes[0].headers["if-match"], "*");
        assert_eq!(
            serde_json::from_slice::<serde_json::Value>(&changes[0].body).unwrap()["Score"],
            4
        );
        assert_eq!(query.method, Method::GET);
        assert_eq!(query.url, "Results(3)");
    }

    #[tokio::test]
    async fn malformed_batches_are_refused_with_what_is_wrong() {
        let cases = [
            (Some("application/json"), "x", "multipart/mixed"),
            (Some("multipart/mixed"), "x", "boundary"),
            (
                Some("multipart/mixed; boundary=b"),
                "--b\nContent-Type: application/http\n\nPUT X HTTP/1.1\n\n{}\n--b--\n",
                "change set",
            ),
            (
                Some("multipart/mixed; boundary=b"),
                "--b\nContent-Type: text/plain\n\nhello\n--b--\n",
                "application/http",
            ),
            (
                Some("multipart/mixed; boundary=b"),
                "--b\nContent-Type: application/http\n\nnot a request\n--b--\n",
                "HTTP request",
            ),
            (
                Some("multipart/mixed; boundary=b"),
                "--b\nContent-Type: application/http\n\nGET $1/Rubric HTTP/1.1\n\n\n--b--\n",
                "Content-ID",
            ),
        ];
        for (content_type, text, named) in cases {
            let error = parse(content_type, body(text)).await.unwrap_err();
            assert!(error.to_string().contains(named), "{text}: {error}");
        }
    }

    #[tokio::test]
    async fn what_a_client_writes_the_server_reads_and_back() {
        let operation = |url: &str| Operation {
            method: Method::PUT,
            url: url.to_owned(),
            headers: HeaderMap::from_iter([(
                HeaderName::from_static("content-type"),
                HeaderValue::from_static("application/json"),
            )]),
            body: Bytes::from_static(b"{\"Score\": 2}"),
        };
        let (content_type, body) = write_change_set(&[operation("A(1)"), operation("B(2)")]);
        let parts = parse(Some(&content_type), Bytes::from(body)).await.unwrap();
        let [Part::ChangeSet(read)] = parts.as_slice() else {
            panic!("{parts:?}")
        };
        assert_eq!(read.len(), 2);
        assert_eq!(read[1].url, "B(2)");
        assert_eq!(&read[1].body[..], b"{\"Score\": 2}");

        let answer = |status, body: &'static str| Answer {
            status,
            headers: HeaderMap::new(),
            body: Bytes::from_static(body.as_bytes()),
        };
        let (boundary, bytes) = write_response(&[
            PartAnswer::Applied(vec![answer(StatusCode::NO_CONTENT, "")]),
            PartAnswer::Failed(answer(StatusCode::PRECONDITION_FAILED, "{\"stale\": true}")),
        ]);
        let content_type = format!("multipart/mixed; boundary={boundary}");
        let answered = parse_response(Some(&content_type), Bytes::from(bytes))
            .await
            .unwrap();
        let [Answered::ChangeSet(applied), Answered::One(failed)] = answered.as_slice() else {
            panic!("{answered:?}")
        };
        assert_eq!(applied[0].status, StatusCode::NO_CONTENT);
        assert_eq!(failed.status, StatusCode::PRECONDITION_FAILED);
        assert_eq!(&failed.body[..], b"{\"stale\": true}");
    }

    #[test]
    fn a_failed_change_set_answers_once_and_an_applied_one_per_operation() {
        let answer = |status| Answer {
            status,
            headers: HeaderMap::new(),
            body: Bytes::new(),
        };
        let (boundary, bytes) = write_response(&[
            PartAnswer::Applied(vec![
                answer(StatusCode::NO_CONTENT),
                answer(StatusCode::NO_CONTENT),
            ]),
            PartAnswer::Failed(answer(StatusCode::PRECONDITION_FAILED)),
        ]);
        let text = String::from_utf8(bytes).unwrap();
        assert_eq!(text.matches("HTTP/1.1 204 No Content").count(), 2);
        assert_eq!(text.matches("HTTP/1.1 412 Precondition Failed").count(), 1);
        assert!(text.ends_with(&format!("--{boundary}--\r\n")));
    }
}
