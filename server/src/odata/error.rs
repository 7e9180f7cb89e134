//! The one error type of the API and the OData error body it becomes.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::model::Verb;

/// Every failure a client can see. The message is safe to show; causes of internal
/// errors go to the log only.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: a malformed URL, key, query option, header or body.
    #[error("{0}")]
    BadRequest(String),
    /// 401: no credentials, malformed credentials or a wrong password.
    #[error("valid credentials are required")]
    Unauthorized,
    /// 403: the account may not use this customer area or this feed.
    #[error("{0}")]
    Forbidden(String),
    /// 404: no such feed, entity or customer area.
    #[error("{0}")]
    NotFound(String),
    /// 405: the resource does not take this method; `allow` lists the ones it takes
    /// and becomes the `Allow` header.
    #[error("{message}")]
    MethodNotAllowed { message: String, allow: String },
    /// 406: the `Accept`ed formats are all ones the service cannot produce.
    #[error("{0}")]
    NotAcceptable(String),
    /// 409: the write conflicts with stored data (duplicate keys and the like).
    #[error("{0}")]
    Conflict(String),
    /// 412: the client's version of an entity is not the stored one.
    #[error("{0}")]
    PreconditionFailed(String),
    /// 413: the body is larger than the service takes.
    #[error("{0}")]
    PayloadTooLarge(String),
    /// 415: the body is not in a format the resource takes.
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// 421: the `Host` header names a server this one does not answer for.
    #[error("{0}")]
    MisdirectedRequest(String),
    /// 429: too many attempts; `retry_after` seconds become the `Retry-After` header.
    #[error("{message}")]
    TooManyRequests { message: String, retry_after: u64 },
    /// 503: the database did not answer in time; the client may try again (after
    /// [`RETRY_UNAVAILABLE_SECONDS`], as `Retry-After` says).
    #[error("{0}")]
    ServiceUnavailable(String),
    /// 507: the database's disk is full; nothing was written.
    #[error("{0}")]
    InsufficientStorage(String),
    /// 501: a feed the model declares but this version does not serve yet.
    #[error("{0}")]
    NotImplemented(String),
    /// 500: our fault. The cause is logged and never sent.
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::NotAcceptable(_) => StatusCode::NOT_ACCEPTABLE,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::PreconditionFailed(_) => StatusCode::PRECONDITION_FAILED,
            ApiError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::MisdirectedRequest(_) => StatusCode::MISDIRECTED_REQUEST,
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::NotImplemented(_) => StatusCode::NOT_IMPLEMENTED,
            ApiError::ServiceUnavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::InsufficientStorage(_) => StatusCode::INSUFFICIENT_STORAGE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// A stable, machine-readable code for the OData error body.
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::BadRequest(_) => "BadRequest",
            ApiError::Unauthorized => "Unauthorized",
            ApiError::Forbidden(_) => "Forbidden",
            ApiError::NotFound(_) => "NotFound",
            ApiError::MethodNotAllowed { .. } => "MethodNotAllowed",
            ApiError::NotAcceptable(_) => "NotAcceptable",
            ApiError::Conflict(_) => "Conflict",
            ApiError::PreconditionFailed(_) => "PreconditionFailed",
            ApiError::PayloadTooLarge(_) => "PayloadTooLarge",
            ApiError::UnsupportedMediaType(_) => "UnsupportedMediaType",
            ApiError::MisdirectedRequest(_) => "MisdirectedRequest",
            ApiError::TooManyRequests { .. } => "TooManyRequests",
            ApiError::NotImplemented(_) => "NotImplemented",
            ApiError::ServiceUnavailable(_) => "ServiceUnavailable",
            ApiError::InsufficientStorage(_) => "InsufficientStorage",
            ApiError::Internal(_) => "InternalError",
        }
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        ApiError::BadRequest(message.into())
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        ApiError::NotFound(message.into())
    }

    /// 405 for `method` on `resource`, which takes only `allowed`.
    pub fn method_not_allowed(method: &str, resource: &str, allowed: &[Verb]) -> Self {
        let names: Vec<&str> = allowed.iter().map(|verb| verb.as_str()).collect();
        ApiError::MethodNotAllowed {
            message: format!(
                "{method} is not allowed on {resource}, which takes {}",
                names.join(", ")
            ),
            allow: names.join(", "),
        }
    }
}

/// When a client told the database is unavailable should try again: long enough
/// for a PostgreSQL restart, short enough that nobody waits for nothing.
pub const RETRY_UNAVAILABLE_SECONDS: u64 = 2;

/// The JSON light error body of the contract.
pub fn error_body(code: &str, message: &str) -> serde_json::Value {
    json!({ "odata.error": { "code": code, "message": { "lang": "en-US", "value": message } } })
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if let ApiError::Internal(cause) = &self {
            tracing::error!(error = ?cause, "internal error");
        }
        let status = self.status();
        let body = error_body(self.code(), &self.to_string());
        let mut response = (status, axum::Json(body)).into_response();
        let headers = response.headers_mut();
        headers.insert("DataServiceVersion", HeaderValue::from_static("3.0;"));
        match &self {
            ApiError::Unauthorized => {
                headers.insert(
                    header::WWW_AUTHENTICATE,
                    HeaderValue::from_static("Basic realm=\"ScoreDesk\", charset=\"UTF-8\""),
                );
            }
            ApiError::MethodNotAllowed { allow, .. } => {
                if let Ok(value) = HeaderValue::from_str(allow) {
                    headers.insert(header::ALLOW, value);
                }
            }
            ApiError::TooManyRequests { retry_after, .. } => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from(*retry_after));
            }
            ApiError::ServiceUnavailable(_) => {
                headers.insert(
                    header::RETRY_AFTER,
                    HeaderValue::from(RETRY_UNAVAILABLE_SECONDS),
                );
            }
            _ => {}
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_errors_never_show_their_cause() {
        let error = ApiError::Internal(anyhow::anyhow!(
            "the database said: no such table: accounts"
        ));
        assert_eq!(error.to_string(), "internal error");
        assert_eq!(error.status(), StatusCode::INTERNAL_SERVER_ERROR);
    }

    #[test]
    fn the_error_body_has_the_odata_light_shape() {
        let body = error_body("BadRequest", "no");
        assert_eq!(body["odata.error"]["message"]["value"], "no");
        assert_eq!(body["odata.error"]["message"]["lang"], "en-US");
    }

    #[test]
    fn an_unavailable_database_says_when_to_try_again_and_a_full_disk_is_507() {
        let unavailable = ApiError::ServiceUnavailable("try again".into()).into_response();
        assert_eq!(unavailable.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(unavailable.headers()[header::RETRY_AFTER], "2");
        let full = ApiError::InsufficientStorage("full".into()).into_response();
        assert_eq!(full.status(), StatusCode::INSUFFICIENT_STORAGE);
        assert_eq!(full.headers().get(header::RETRY_AFTER), None);
    }
}
