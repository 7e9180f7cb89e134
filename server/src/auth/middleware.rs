//! The gate in front of `/deliveryodata/<customer_id>/...`: credentials first (401),
//! then the customer segment (400), then the area itself (404, 403).

use axum::extract::{Request, State};
use axum::http::header::AUTHORIZATION;
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;

use super::{verify_password, BasicCredentials, Principal};
use crate::odata::ApiError;
use crate::AppState;

/// The customer area a request addresses, checked against its principal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CustomerArea(pub i32);

/// Authenticates the request and resolves its customer area; handlers behind it find
/// a [`Principal`] and a [`CustomerArea`] in the request's extensions.
pub async fn require_customer_area(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Result<Response, ApiError> {
    let authorization = request.headers().get(AUTHORIZATION).cloned();
    let principal = authenticate(&state, authorization).await?;
    let segment = request
        .uri()
        .path()
        .strip_prefix("/deliveryodata/")
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_default();
    let customer_id = parse_customer_id(segment)?;
    if !principal.may_use(customer_id) {
        return Err(ApiError::Forbidden(format!(
            "account '{}' does not belong to customer area {customer_id}",
            principal.username
        )));
    }
    if !state.store.customer_exists(customer_id).await? {
        return Err(ApiError::not_found(format!(
            "customer area {customer_id} does not exist"
        )));
    }
    request.extensions_mut().insert(CustomerArea(customer_id));
    request.extensions_mut().insert(principal);
    Ok(next.run(request).await)
}

fn parse_customer_id(segment: &str) -> Result<i32, ApiError> {
    let decoded = percent_decode(segment);
    if decoded.is_empty() {
        return Err(ApiError::not_found(
            "the path needs a customer area: /deliveryodata/<customer_id>/",
        ));
    }
    if !decoded.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ApiError::bad_request(format!(
            "customer area '{decoded}' is not a number"
        )));
    }
    match decoded.parse::<i32>() {
        Ok(id) if id > 0 => Ok(id),
        _ => Err(ApiError::not_found(format!(
            "customer area {decoded} does not exist"
        ))),
    }
}

fn percent_decode(segment: &str) -> String {
    // A segment that does not decode to UTF-8 is kept as it came; it then fails the digit check.
    percent_encoding::percent_decode_str(segment)
        .decode_utf8()
        .map(|decoded| decoded.into_owned())
        .unwrap_or_else(|_| segment.to_owned())
}

async fn authenticate(
    state: &AppState,
    authorization: Option<HeaderValue>,
) -> Result<Principal, ApiError> {
    let header = authorization.ok_or(ApiError::Unauthorized)?;
    let credentials = header
        .to_str()
        .ok()
        .and_then(BasicCredentials::parse)
        .ok_or(ApiError::Unauthorized)?;
    let Some(account) = state.store.find_account(&credentials.username).await? else {
        return Err(ApiError::Unauthorized);
    };
    if let Some(principal) = state.credentials.get(&credentials, &account.password_hash) {
        return Ok(principal);
    }
    let role = account
        .role
        .parse()
        .map_err(|e: String| ApiError::Internal(anyhow::anyhow!(e)))?;
    let password = credentials.password.clone();
    let stored = account.password_hash.clone();
    // argon2 takes tens of milliseconds of CPU on purpose: keep it off the async workers.
    let matches = tokio::task::spawn_blocking(move || verify_password(&password, &stored))
        .await
        .map_err(|e| ApiError::Internal(e.into()))?;
    if !matches {
        tracing::info!(username = %credentials.username, "wrong password");
        return Err(ApiError::Unauthorized);
    }
    let principal = Principal {
        account_id: account.id,
        username: account.username,
        customer_id: account.customer_id,
        role,
    };
    state
        .credentials
        .insert(&credentials, &account.password_hash, principal.clone());
    Ok(principal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_numeric_customer_segment_parses() {
        assert_eq!(parse_customer_id("42").unwrap(), 42);
        assert_eq!(parse_customer_id("%34%32").unwrap(), 42);
    }

    #[test]
    fn a_non_numeric_customer_segment_is_a_bad_request() {
        assert!(matches!(
            parse_customer_id("abc"),
            Err(ApiError::BadRequest(_))
        ));
        assert!(matches!(
            parse_customer_id("-1"),
            Err(ApiError::BadRequest(_))
        ));
        assert!(matches!(
            parse_customer_id("%zz"),
            Err(ApiError::BadRequest(_))
        ));
    }

    #[test]
    fn an_out_of_range_customer_number_is_not_found() {
        assert!(matches!(
            parse_customer_id("99999999999999"),
            Err(ApiError::NotFound(_))
        ));
        assert!(matches!(parse_customer_id("0"), Err(ApiError::NotFound(_))));
    }
}
