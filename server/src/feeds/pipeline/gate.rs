//! The gate in front of `/deliveryodata/<customer_id>/...`: credentials first (401,
//! or 429 while sign-ins are limited), then the customer segment (400), then the
//! area itself (404 if it does not exist, 403 if the account is of another area).

use std::net::{IpAddr, SocketAddr};

use axum::extract::ConnectInfo;
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use axum::http::HeaderValue;

use crate::auth::{self, BasicCredentials, Principal, Refusal};
use crate::feeds::handler::state::AppState;
use crate::model::area::CustomerArea;
use crate::odata::ApiError;
use crate::store::AccountRecord;

/// Authenticates the request and resolves its customer area: who asks, and in
/// which area. Called by `dispatch` first, rather than as a layer of its own.
pub async fn admit(
    state: &AppState,
    request: &Parts,
) -> Result<(CustomerArea, Principal), ApiError> {
    let authorization = request.headers.get(AUTHORIZATION).cloned();
    let address = client_address(state, request);
    let principal = authenticate(state, authorization, address).await?;
    let segment = request
        .uri
        .path()
        .strip_prefix("/deliveryodata/")
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_default();
    let area = parse_customer_id(segment)?;
    // Only authenticated callers learn whether an area exists. Areas are never
    // removed while a server runs, so one that exists is remembered for a while.
    if !state.known_areas.contains_key(&area.id()) {
        if !state.store.customer_exists(area.id()).await? {
            return Err(ApiError::not_found(format!(
                "customer area {area} does not exist"
            )));
        }
        state.known_areas.insert(area.id(), ());
    }
    if !principal.may_use(area) {
        return Err(ApiError::Forbidden(format!(
            "account '{}' does not belong to customer area {area}",
            principal.username
        )));
    }
    Ok((area, principal))
}

fn parse_customer_id(segment: &str) -> Result<CustomerArea, ApiError> {
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
    decoded
        .parse::<i32>()
        .ok()
        .and_then(CustomerArea::new)
        .ok_or_else(|| ApiError::not_found(format!("customer area {decoded} does not exist")))
}

fn percent_decode(segment: &str) -> String {
    // A segment that does not decode to UTF-8 is kept as it came; it then fails the digit check.
    percent_encoding::percent_decode_str(segment)
        .decode_utf8()
        .map(|decoded| decoded.into_owned())
        .unwrap_or_else(|_| segment.to_owned())
}

/// Where `request` comes from, as the sign-in limits count it: its peer, or the
/// client a trusted proxy names (auth::address). A request that came through no
/// socket (an in-process test) counts as the unspecified address.
pub(crate) fn client_address(state: &AppState, request: &Parts) -> IpAddr {
    let peer = request
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::from([0, 0, 0, 0]), |info| info.0.ip());
    auth::client_address(peer, &request.headers, &state.trusted_proxies)
}

pub(crate) async fn authenticate(
    state: &AppState,
    authorization: Option<HeaderValue>,
    address: IpAddr,
) -> Result<Principal, ApiError> {
    let header = authorization.ok_or(ApiError::Unauthorized)?;
    let credentials = header
        .to_str()
        .ok()
        .and_then(BasicCredentials::parse)
        .ok_or(ApiError::Unauthorized)?;
    let refuse = |refusal| refused(refusal, &credentials.username, address);
    let guesses = &state.sign_in.guesses;
    guesses
        .check_closed(&credentials.username, address)
        .map_err(refuse)?;
    // Read before the account, so that a change made meanwhile is never hidden.
    let generation = state.store.accounts_generation();
    if let Some(principal) = state
        .credentials
        .recent_principal(&credentials, address, generation)
    {
        return Ok(principal);
    }
    if !state.credentials.has_session(&credentials, address) {
        guesses.check_lane_full(address).map_err(refuse)?;
    }
    let account = state.store.find_account(&credentials.username).await?;
    if let Some(account) = &account {
        if state
            .credentials
            .is_verified(&credentials, &account.password_hash, address)
        {
            return remembered(state, &credentials, account, address, generation);
        }
    }
    // argon2 takes tens of milliseconds of CPU on purpose: it runs on the guard's
    // own threads, off the async workers. An unknown name waits as long.
    let stored = account.as_ref().map(|a| a.password_hash.clone());
    let key = state
        .credentials
        .check_key(&credentials, address, stored.as_deref());
    let matches = state
        .sign_in
        .check_once(
            key,
            &credentials.username,
            address,
            &credentials.password,
            stored,
        )
        .await
        .map_err(refuse)?;
    match account {
        Some(account) if matches => remembered(state, &credentials, &account, address, generation),
        _ => Err(ApiError::Unauthorized),
    }
}

/// The principal of `account`, just read and verified, remembered for the next
/// requests (auth::CredentialCache).
fn remembered(
    state: &AppState,
    credentials: &BasicCredentials,
    account: &AccountRecord,
    address: IpAddr,
    generation: u64,
) -> Result<Principal, ApiError> {
    let principal = principal_of(account)?;
    state.credentials.remember(
        credentials,
        &account.password_hash,
        &principal,
        address,
        generation,
    );
    Ok(principal)
}

/// The principal of an account row as read now.
fn principal_of(account: &AccountRecord) -> Result<Principal, ApiError> {
    let role = account
        .role
        .parse()
        .map_err(|e: String| ApiError::Internal(anyhow::anyhow!(e)))?;
    Ok(Principal {
        account_id: account.id,
        username: account.username.clone(),
        area: account.area()?,
        role,
    })
}

fn refused(refusal: Refusal, username: &str, address: IpAddr) -> ApiError {
    // Debug, not info: refused attempts cost an attacker nothing, so logging each
    // one loudly would hand over the log's volume. Checked failures, which the
    // limits bound, are logged at warn.
    tracing::debug!(%username, %address, ?refusal, "sign-in refused before checking");
    match refusal {
        Refusal::TooManyFailures { retry_after } => ApiError::TooManyRequests {
            message: "too many failed sign-ins for this account or address; try again later".into(),
            // Rounded up: a client that waits exactly as told must find the wait
            // over (4.8 s said as 4 brought it back to a line still full).
            retry_after: retry_after.as_secs_f64().ceil().max(1.0) as u64,
        },
        Refusal::Busy => ApiError::TooManyRequests {
            message: "too many sign-ins are being checked; try again in a moment".into(),
            retry_after: 1,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_numeric_customer_segment_parses() {
        assert_eq!(parse_customer_id("42").unwrap().id(), 42);
        assert_eq!(parse_customer_id("%34%32").unwrap().id(), 42);
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

    #[test]
    fn retry_after_is_the_wait_rounded_up_to_a_second() {
        let address: IpAddr = "203.0.113.66".parse().unwrap();
        let said = |wait: std::time::Duration| match refused(
            Refusal::TooManyFailures { retry_after: wait },
            "ann",
            address,
        ) {
            ApiError::TooManyRequests { retry_after, .. } => retry_after,
            other => panic!("{other:?}"),
        };
        assert_eq!(said(std::time::Duration::from_millis(4_800)), 5);
        assert_eq!(said(std::time::Duration::from_secs(60)), 60);
        assert_eq!(said(std::time::Duration::from_millis(1)), 1);
        assert_eq!(said(std::time::Duration::ZERO), 1);
    }
}
