//! `$batch` (OData version 3): a `multipart/mixed` body whose parts are single read
//! operations or change sets, each change set a `multipart/mixed` of write
//! operations that succeed or fail together. This module reads and writes the format (`request`: what a
//! client sends and the service reads; `response`: what the service answers and a
//! client reads); running the operations is the feeds' work.
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

mod request;
mod response;

use axum::body::Bytes;
use axum::http::{HeaderMap, Method, StatusCode};
use futures::stream;

use super::ApiError;

pub use request::{parse, write_change_set};
pub use response::{parse_response, write_response};

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
    /// The part's `Content-ID` (from its MIME headers, or else its request's), which
    /// its answer echoes: clients such as breeze match answers to requests by it.
    pub content_id: Option<axum::http::HeaderValue>,
}

/// A part of a batch.
#[derive(Debug)]
pub enum Part {
    /// A read (GET) on its own.
    Query(Operation),
    /// Writes that are applied all together or not at all.
    ChangeSet(Vec<Operation>),
}

/// One operation's answer, as it goes into the batch response. A `Content-ID` in
/// its headers is written both as the part's MIME header (where MS-ODATA puts it)
/// and among the answer's own headers (where some clients look).
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

/// A part of a batch response, as a client reads it.
#[derive(Debug)]
pub enum Answered {
    /// One answer: to a read, or to a change set that failed as a whole.
    One(Answer),
    /// The answers of a change set that was applied, one per operation.
    ChangeSet(Vec<Answer>),
}

pub(super) fn boundary_of(content_type: Option<&str>, what: &str) -> Result<String, ApiError> {
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
pub(super) async fn split(
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

pub(super) fn header_text(headers: &HeaderMap, name: &str) -> String {
    headers
        .get(name)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

/// An embedded message's headers, a blank line, and its body.
pub(super) fn write_headers_and_body(out: &mut Vec<u8>, headers: &HeaderMap, body: &[u8]) {
    for (name, value) in headers {
        // Header names are case-insensitive, but datajs and breeze look this one up
        // as `headers["Content-ID"]`, spelled as MS-ODATA spells it.
        let name = if name == "content-id" {
            "Content-ID"
        } else {
            name.as_str()
        };
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(body);
    out.extend_from_slice(b"\r\n");
}

#[cfg(test)]
mod tests {
    use axum::http::{HeaderName, HeaderValue};

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
    async fn a_request_line_with_raw_spaces_is_read_as_odatalib_reads_it() {
        let batch = "--batch_1
Content-Type: application/http
Content-Transfer-Encoding: binary

GET ScoringTasks/$count?$filter=Status eq 0 and Group/Name eq 'A b' HTTP/1.1
Accept: text/plain


--batch_1--
";
        let parts = parse(Some("multipart/mixed; boundary=batch_1"), body(batch))
            .await
            .unwrap();
        let [Part::Query(query)] = parts.as_slice() else {
            panic!("{parts:?}")
        };
        assert_eq!(
            query.url,
            "ScoringTasks/$count?$filter=Status%20eq%200%20and%20Group/Name%20eq%20'A%20b'"
        );
        assert_eq!(query.headers["accept"], "text/plain");
    }

    #[tokio::test]
    async fn content_ids_are_read_from_the_part_or_else_its_request_and_written_back() {
        let batch = CHANGESET
            .replacen(
                "Content-Transfer-Encoding: binary\n\nPUT ScoringResults",
                "Content-Transfer-Encoding: binary\nContent-ID: 7\n\nPUT ScoringResults",
                1,
            )
            .replacen(
                "PUT ScoringTasks(QuestionID=1L,ResultID=3) HTTP/1.1\n",
                "PUT ScoringTasks(QuestionID=1L,ResultID=3) HTTP/1.1\nContent-ID: 8\n",
                1,
            );
        let parts = parse(Some("multipart/mixed; boundary=batch_1"), body(&batch))
            .await
            .unwrap();
        let [Part::ChangeSet(changes), Part::Query(query)] = parts.as_slice() else {
            panic!("{parts:?}")
        };
        let ids: Vec<_> = changes
            .iter()
            .map(|c| c.content_id.clone().unwrap())
            .collect();
        assert_eq!(ids, ["7", "8"]);
        assert!(query.content_id.is_none());
        let answer = |id: &'static str| Answer {
            status: StatusCode::NO_CONTENT,
            headers: HeaderMap::from_iter([(
                axum::http::HeaderName::from_static("content-id"),
                axum::http::HeaderValue::from_static(id),
            )]),
            body: Bytes::new(),
        };
        let (boundary, written) =
            write_response(&[PartAnswer::Applied(vec![answer("7"), answer("8")])]);
        let text = String::from_utf8(written.clone()).unwrap();
        assert!(
            text.contains("Content-Transfer-Encoding: binary\r\nContent-ID: 7\r\n\r\nHTTP/1.1 204"),
            "{text}"
        );
        let read = parse_response(
            Some(&format!("multipart/mixed; boundary={boundary}")),
            Bytes::from(written),
        )
        .await
        .unwrap();
        let [Answered::ChangeSet(answers)] = read.as_slice() else {
            panic!("{text}")
        };
        assert_eq!(answers[1].headers["content-id"], "8");
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
            content_id: None,
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
