//! Refuses requests whose `Host` is not one the server answers to. The `Host` goes
//! into every link the server writes (`odata.metadata`, `Location`, next links,
//! signed print links), so it is checked before anything else:
//! - it must be a host name or address with an optional port (400 otherwise);
//! - it must be one of `allowed_hosts` when the settings name any (421 otherwise);
//! - with none named, a server listening on a loopback address answers only to the
//!   loopback names (of its own port, or with none), so that a web page that learns its port and
//!   points its own name at 127.0.0.1 (DNS rebinding) never reaches the service; a
//!   server listening on other addresses answers to any well-formed host, and its
//!   operator names them (docs/operations.md).

use std::net::{Ipv6Addr, SocketAddr};

use axum::extract::Request;
use axum::http::header::HOST;

use crate::feeds::handler::state::AppState;
use crate::odata::ApiError;

/// Whether `request`'s `Host` is one the server answers to (the module's rules).
pub fn check(state: &AppState, request: &Request) -> Result<(), ApiError> {
    let host = request
        .headers()
        .get(HOST)
        .map(|value| value.to_str().unwrap_or("\u{fffd}").to_owned())
        .or_else(|| request.uri().authority().map(|a| a.to_string()));
    if let Some(host) = &host {
        if !is_host_and_port(host) {
            return Err(ApiError::bad_request(format!(
                "the Host header '{}' is not a host name or address with an optional port",
                host.escape_debug()
            )));
        }
    }
    let allowed = &state.allowed_hosts;
    let host = host.unwrap_or_default();
    if allowed.is_empty() || allowed.iter().any(|name| name.eq_ignore_ascii_case(&host)) {
        return Ok(());
    }
    tracing::warn!(%host, "request for a host this server does not answer to");
    Err(ApiError::MisdirectedRequest(format!(
        "this server does not answer to the host '{host}'"
    )))
}

/// The hosts a server answers to when the settings name none: the loopback names
/// of its port when it listens on loopback, any otherwise (an empty list).
pub fn default_hosts(listening_on: SocketAddr) -> Vec<String> {
    if !listening_on.ip().is_loopback() {
        return Vec::new();
    }
    let port = listening_on.port();
    // Bare names too: no page can be served under them with another port.
    ["127.0.0.1", "localhost", "[::1]"]
        .into_iter()
        .flat_map(|name| [format!("{name}:{port}"), name.to_owned()])
        .collect()
}

/// `name`, `name:port`, `192.0.2.1:80` or `[2001:db8::1]:80`: a DNS name's
/// characters (letters, digits, `-`, `_`, dots between labels) or an IP address,
/// and a port of at most five digits that fits in 16 bits.
fn is_host_and_port(text: &str) -> bool {
    let (host_ok, port) = match text.strip_prefix('[') {
        Some(rest) => match rest.split_once(']') {
            // After the bracket: nothing, or a colon and the port.
            Some((v6, "")) => (v6.parse::<Ipv6Addr>().is_ok(), None),
            Some((v6, after)) => (
                v6.parse::<Ipv6Addr>().is_ok(),
                Some(after.strip_prefix(':').unwrap_or("x")),
            ),
            None => (false, None),
        },
        None => match text.rsplit_once(':') {
            Some((name, port)) => (is_name(name), Some(port)),
            None => (is_name(text), None),
        },
    };
    host_ok
        && port.is_none_or(|port| {
            (1..=5).contains(&port.len())
                && port.bytes().all(|b| b.is_ascii_digit())
                && port.parse::<u16>().is_ok()
        })
}

fn is_name(name: &str) -> bool {
    (1..=253).contains(&name.len())
        && name.split('.').all(|label| {
            (1..=63).contains(&label.len())
                && !label.starts_with('-')
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_names_addresses_and_ports_are_well_formed() {
        for good in [
            "localhost",
            "127.0.0.1:8080",
            "scoring.example:443",
            "[::1]:65535",
            "[2001:db8::1]",
            "my_host.internal",
        ] {
            assert!(is_host_and_port(good), "{good}");
        }
    }

    #[test]
    fn anything_else_in_a_host_header_is_not() {
        for bad in [
            "",
            "evil.example/path",
            "a b",
            "user@host",
            "host:",
            "host:65536",
            "host:123456",
            "host:8o",
            "[::1",
            "[::1]x",
            "[zz::1]:80",
            "-lead.example",
            "double..dot",
            "trailing.",
            "\u{1b}[31m",
            "host\r\nX-Forged: 1",
            "ex\u{e4}mple.org",
        ] {
            assert!(!is_host_and_port(bad), "{bad:?}");
        }
    }

    #[test]
    fn a_loopback_server_answers_to_its_own_loopback_names_only() {
        let hosts = default_hosts("127.0.0.1:8080".parse().unwrap());
        assert!(hosts.contains(&"localhost:8080".to_owned()));
        assert!(!hosts.iter().any(|h| h.ends_with(":80")));
        assert!(default_hosts("0.0.0.0:8080".parse().unwrap()).is_empty());
    }
}
