//! Which address a request comes from, for the sign-in limits: the peer's, unless
//! the peer is a trusted proxy (`trusted_proxies`), whose `Forwarded` or
//! `X-Forwarded-For` then names the client. The chain is read from the right and
//! the first address that is not a trusted proxy is the client's: whatever stands
//! left of it was written by the client and proves nothing.
//!
//! IPv6 clients are counted by their /64 network: one household or phone holds a
//! whole /64, and counting its 2^64 addresses one by one would limit nothing.

use std::net::{IpAddr, Ipv6Addr};

use axum::http::HeaderMap;
use ipnet::IpNet;

/// The client's address, as the limits count it.
pub fn client_address(peer: IpAddr, headers: &HeaderMap, trusted: &[IpNet]) -> IpAddr {
    counted(forwarded_client(canonical(peer), headers, trusted))
}

fn is_trusted(address: IpAddr, trusted: &[IpNet]) -> bool {
    trusted.iter().any(|net| net.contains(&address))
}

fn forwarded_client(peer: IpAddr, headers: &HeaderMap, trusted: &[IpNet]) -> IpAddr {
    if !is_trusted(peer, trusted) {
        return peer;
    }
    let chain = forwarded_chain(headers);
    let mut client = peer;
    for hop in chain.iter().rev() {
        // An obfuscated or garbled hop: the last proxy we believe is all we know.
        let Some(address) = hop.map(canonical) else {
            return client;
        };
        client = address;
        if !is_trusted(address, trusted) {
            return address;
        }
    }
    client
}

/// The hops a request passed through, client first: `Forwarded` when present
/// (RFC 7239), `X-Forwarded-For` otherwise. `None` for a hop that is no address.
fn forwarded_chain(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let forwarded: Vec<_> = headers.get_all("forwarded").iter().collect();
    if !forwarded.is_empty() {
        return forwarded
            .iter()
            .flat_map(|value| value.to_str().unwrap_or("").split(','))
            .map(|element| {
                element
                    .split(';')
                    .filter_map(|pair| pair.split_once('='))
                    .find(|(name, _)| name.trim().eq_ignore_ascii_case("for"))
                    .and_then(|(_, node)| parse_node(node))
            })
            .collect();
    }
    headers
        .get_all("x-forwarded-for")
        .iter()
        .flat_map(|value| value.to_str().unwrap_or("").split(','))
        .map(parse_node)
        .collect()
}

/// `192.0.2.60`, `"[2001:db8::1]:4711"`, `198.51.100.17:80`; `unknown` and
/// `_hidden` are no address.
fn parse_node(node: &str) -> Option<IpAddr> {
    let node = node.trim().trim_matches('"');
    if let Ok(address) = node.parse() {
        return Some(address);
    }
    if let Some(rest) = node.strip_prefix('[') {
        return rest.split_once(']')?.0.parse().ok();
    }
    let (host, port) = node.rsplit_once(':')?;
    port.bytes().all(|b| b.is_ascii_digit()).then_some(())?;
    host.parse::<std::net::Ipv4Addr>().ok().map(IpAddr::V4)
}

/// An IPv4 address as itself, even when it came mapped into IPv6.
fn canonical(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(address, IpAddr::V4),
        v4 => v4,
    }
}

fn counted(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V6(v6) => {
            let network = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(Ipv6Addr::from(network))
        }
        v4 => v4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(
                axum::http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
                value.parse().unwrap(),
            );
        }
        map
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn proxies(list: &[&str]) -> Vec<IpNet> {
        list.iter().map(|p| p.parse().unwrap()).collect()
    }

    #[test]
    fn forwarding_headers_from_an_untrusted_peer_are_ignored() {
        let forged = headers(&[("x-forwarded-for", "1.2.3.4"), ("forwarded", "for=5.6.7.8")]);
        assert_eq!(
            client_address(ip("203.0.113.9"), &forged, &[]),
            ip("203.0.113.9")
        );
        let trusted = proxies(&["10.0.0.0/8"]);
        assert_eq!(
            client_address(ip("203.0.113.9"), &forged, &trusted),
            ip("203.0.113.9")
        );
    }

    #[test]
    fn the_rightmost_untrusted_hop_is_the_client() {
        let trusted = proxies(&["10.0.0.0/8", "192.168.1.1/32"]);
        let chain = headers(&[("x-forwarded-for", "6.6.6.6, 198.51.100.7, 10.1.2.3")]);
        assert_eq!(
            client_address(ip("192.168.1.1"), &chain, &trusted),
            ip("198.51.100.7"),
            "6.6.6.6 was written by the client itself"
        );
    }

    #[test]
    fn forwarded_wins_over_x_forwarded_for_and_its_forms_parse() {
        let trusted = proxies(&["10.0.0.1/32"]);
        let both = headers(&[
            ("x-forwarded-for", "1.1.1.1"),
            ("forwarded", "for=\"[2001:db8::1]:4711\";proto=https"),
        ]);
        assert_eq!(
            client_address(ip("10.0.0.1"), &both, &trusted),
            ip("2001:db8::")
        );
        let with_port = headers(&[("forwarded", "for=198.51.100.17:80, for=10.0.0.1")]);
        assert_eq!(
            client_address(ip("10.0.0.1"), &with_port, &trusted),
            ip("198.51.100.17")
        );
    }

    #[test]
    fn a_garbled_hop_leaves_the_last_believed_proxy() {
        let trusted = proxies(&["10.0.0.0/8"]);
        let hidden = headers(&[("forwarded", "for=_hidden, for=10.0.0.7")]);
        assert_eq!(
            client_address(ip("10.0.0.1"), &hidden, &trusted),
            ip("10.0.0.7")
        );
        let none = HeaderMap::new();
        assert_eq!(
            client_address(ip("10.0.0.1"), &none, &trusted),
            ip("10.0.0.1")
        );
    }

    #[test]
    fn ipv6_clients_are_counted_by_their_64_and_mapped_ipv4_as_ipv4() {
        let none = HeaderMap::new();
        assert_eq!(
            client_address(ip("2001:db8:1:2:aaaa::1"), &none, &[]),
            ip("2001:db8:1:2::")
        );
        assert_eq!(
            client_address(ip("::ffff:192.0.2.1"), &none, &[]),
            ip("192.0.2.1")
        );
    }
}
