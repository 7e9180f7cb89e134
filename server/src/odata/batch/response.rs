//! The response side of `$batch`: what the service answers and a client reads.

use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};

use super::{
    boundary_of, header_text, split, write_headers_and_body, Answer, Answered, PartAnswer,
};
use crate::odata::ApiError;

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
        b"Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n",
    );
    if let Some(id) = answer.headers.get("content-id") {
        out.extend_from_slice(b"Content-ID: ");
        out.extend_from_slice(id.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"\r\n");
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
            for (headers, content) in split(content, &boundary, "a change set's answers").await? {
                answers.push(http_answer(&headers, &content)?);
            }
            parts.push(Answered::ChangeSet(answers));
        } else {
            parts.push(Answered::One(http_answer(&headers, &content)?));
        }
    }
    Ok(parts)
}

/// An `application/http` answer: a status line, headers, a blank line, a body; the
/// part's `Content-ID` kept among its headers.
fn http_answer(part_headers: &HeaderMap, content: &[u8]) -> Result<Answer, ApiError> {
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
    if let Some(id) = part_headers.get("content-id") {
        headers.entry("content-id").or_insert_with(|| id.clone());
    }
    Ok(Answer {
        status,
        headers,
        body: Bytes::copy_from_slice(&content[length..]),
    })
}
