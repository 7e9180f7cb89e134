//! Accepting connections with limits, so that slow or idle clients cannot exhaust
//! the server: at most `max_connections` at once (further ones wait in the listen
//! queue), at most `per_address` of them from one client address (a trusted proxy
//! excepted; IPv6 by /64), so that one address holding half-sent requests cannot
//! take every slot from everyone else (issue 31 measured 4 in 10 requests timing
//! out behind 1,100 such sockets), and a connection that does not send a request's
//! headers within the header timeout (also between requests on a kept-alive
//! connection) is closed. The request timeout itself is a layer of the router
//! (`feeds::router`).
//!
//! axum's own `serve` sets no timer, so hyper's header timeout never runs there; this
//! is the same loop with one, in the shape of axum's "serve with hyper" example.

mod error_bodies;

use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::extract::connect_info::ConnectInfo;
use axum::extract::Request;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use ipnet::IpNet;
use tokio::net::TcpListener;

use error_bodies::WithErrorBodies;
use tokio::sync::Semaphore;
use tower::ServiceExt;

/// How connections are limited.
#[derive(Debug, Clone)]
pub struct ConnectionLimits {
    pub max_connections: usize,
    pub per_address: usize,
    /// Addresses the per-address limit does not apply to (trusted proxies).
    pub exempt: Vec<IpNet>,
    pub header_timeout: Duration,
}

/// The connections each address holds now.
#[derive(Default)]
struct PerAddress(Mutex<HashMap<IpAddr, usize>>);

/// One connection's place in its address's count, given back when it closes.
struct Held(Arc<PerAddress>, IpAddr);

impl PerAddress {
    fn take(self: &Arc<Self>, address: IpAddr, limit: usize) -> Option<Held> {
        let mut counts = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let held = counts.entry(address).or_insert(0);
        if *held >= limit {
            return None;
        }
        *held += 1;
        Some(Held(Arc::clone(self), address))
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut counts = self.0 .0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(held) = counts.get_mut(&self.1) {
            *held -= 1;
            if *held == 0 {
                counts.remove(&self.1);
            }
        }
    }
}

/// Connections over their address's limit being told so at once; more are closed
/// without a word.
const REFUSING_AT_ONCE: usize = 64;
/// How long such a connection has to send its request's head.
const REFUSAL_WAIT: Duration = Duration::from_secs(1);

/// Tells a connection over its address's limit so: its request's head is read
/// (for at most [`REFUSAL_WAIT`] and 16 KiB), then answered 503 with the error
/// body, and the connection closed. It holds none of the server's slots.
async fn refuse(mut stream: tokio::net::TcpStream, _turn: tokio::sync::OwnedSemaphorePermit) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut head = Vec::with_capacity(1024);
    let read = async {
        let mut buffer = [0u8; 4096];
        while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 16 * 1024 {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => return false,
                Ok(n) => head.extend_from_slice(&buffer[..n]),
            }
        }
        true
    };
    if matches!(tokio::time::timeout(REFUSAL_WAIT, read).await, Ok(true)) {
        let _ = tokio::time::timeout(REFUSAL_WAIT, stream.write_all(TOO_MANY)).await;
        let _ = stream.shutdown().await;
    }
}

/// What an address over its limit is told before its connection is closed.
const TOO_MANY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json;charset=utf-8\r\n\
Retry-After: 1\r\nConnection: close\r\nContent-Length: 139\r\n\r\n\
{\"odata.error\":{\"code\":\"ServiceUnavailable\",\"message\":{\"lang\":\"en-US\",\"value\":\"too many connections from this address; close some first\"}}}";

/// The address as the limit counts it: an IPv6 client by its /64.
fn counted(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !((1u128 << 64) - 1))),
        },
        v4 => v4,
    }
}

/// How long open requests may take to finish once shutdown begins.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(30);

/// Serves `router` on `listener` until `shutdown` completes, then lets open requests
/// finish (for at most [`SHUTDOWN_GRACE`]). Each request carries its client's address
/// as [`ConnectInfo`].
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let per_address = Arc::new(PerAddress::default());
    let refusing = Arc::new(Semaphore::new(REFUSING_AT_ONCE));
    let graceful = GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    tokio::pin!(shutdown);
    loop {
        let slot = tokio::select! {
            slot = Arc::clone(&slots).acquire_owned() => slot.expect("the slots are never closed"),
            () = &mut shutdown => break,
        };
        let (stream, remote) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors and the like: wait, do not spin.
                    tracing::warn!(%error, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let address = counted(remote.ip());
        let held = if limits.exempt.iter().any(|net| net.contains(&remote.ip())) {
            None
        } else {
            match per_address.take(address, limits.per_address.max(1)) {
                Some(held) => Some(held),
                None => {
                    tracing::debug!(client = %remote, "too many connections from one address");
                    drop(slot);
                    if let Ok(turn) = Arc::clone(&refusing).try_acquire_owned() {
                        tokio::spawn(refuse(stream, turn));
                    }
                    continue;
                }
            }
        };
        let service = router
            .clone()
            .map_request(move |request: Request<Incoming>| {
                let mut request = request.map(axum::body::Body::new);
                request.extensions_mut().insert(ConnectInfo(remote));
                request
            });
        let connection = http.serve_connection(
            TokioIo::new(WithErrorBodies::new(stream)),
            TowerToHyperService::new(service),
        );
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(%error, client = %remote, "connection ended with an error");
            }
            drop(slot);
            drop(held);
        });
    }
    drop(listener);
    if tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("open requests did not finish within the shutdown grace period");
    }
    Ok(())
}
