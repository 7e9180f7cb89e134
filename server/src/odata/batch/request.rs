//! The request side of `$batch`: what a client sends and the service reads.

use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method};

use super::{
    boundary_of, header_text, split, write_headers_and_body, Operation, Part, MAX_OPERATIONS,
};
use crate::odata::ApiError;

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
    let content = with_spaces_encoded(content);
    let content = content.as_ref();
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
    let content_id = part_headers
        .get("content-id")
        .or_else(|| headers.get("content-id"))
        .cloned();
    Ok(Operation {
        method,
        url,
        headers,
        body: Bytes::copy_from_slice(&content[head_length..]),
        content_id,
    })
}

/// The operation with raw spaces in its request line's URL written as `%20`.
/// datajs writes `GET ScoringTasks/$count?$filter=Status eq 0 HTTP/1.1`; ODataLib
/// takes the URL as everything between the first and the last space of the line,
/// and so does this.
fn with_spaces_encoded(content: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let line_end = content
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(content.len());
    let line = content[..line_end]
        .strip_suffix(b"\r")
        .unwrap_or(&content[..line_end]);
    let spaces = line.iter().filter(|&&b| b == b' ').count();
    let (Some(first), Some(last)) = (
        line.iter().position(|&b| b == b' '),
        line.iter().rposition(|&b| b == b' '),
    ) else {
        return content.into();
    };
    if spaces <= 2 {
        return content.into();
    }
    let mut fixed = Vec::with_capacity(content.len() + 2 * spaces);
    fixed.extend_from_slice(&line[..=first]);
    for &byte in &line[first + 1..last] {
        if byte == b' ' {
            fixed.extend_from_slice(b"%20");
        } else {
            fixed.push(byte);
        }
    }
    fixed.extend_from_slice(&line[last..]);
    fixed.extend_from_slice(&content[line.len()..]);
    fixed.into()
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
            b"Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n",
        );
        if let Some(id) = &operation.content_id {
            out.extend_from_slice(b"Content-ID: ");
            out.extend_from_slice(id.as_bytes());
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(
            format!("{} {} HTTP/1.1\r\n", operation.method, operation.url).as_bytes(),
        );
        write_headers_and_body(&mut out, &operation.headers, &operation.body);
    }
    out.extend_from_slice(format!("--{change_set}--\r\n--{batch}--\r\n").as_bytes());
    (format!("multipart/mixed; boundary={batch}"), out)
}
