//! hyper answers some requests itself, before any of our code sees them: a request
//! line or header it cannot parse (400), a URI too long for its buffer (414),
//! headers too many or too large (431). It writes those with no body at all, where
//! every other error of ours carries the OData error body. This wraps a connection
//! and, when hyper writes such a bodiless answer of its own, writes ours in its
//! place: the same status, the error body saying what was wrong, `Connection:
//! close` (hyper closes the connection after it anyway).
//!
//! Only hyper writes a 400, 414 or 431 with `content-length: 0`: every error our
//! router answers goes through the error body (feeds::pipeline::error_format).

use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A connection whose bodiless error answers from hyper get the error body.
pub struct WithErrorBodies<S> {
    inner: S,
    /// Our answer, still to be written in place of hyper's.
    pending: Vec<u8>,
}

impl<S> WithErrorBodies<S> {
    pub fn new(inner: S) -> Self {
        Self {
            inner,
            pending: Vec::new(),
        }
    }
}

/// Our answer for hyper's bodiless `head`, if it is one of those.
fn replacement(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let head = text.strip_suffix("\r\n\r\n")?;
    let (status, message) = match head.get(..12)? {
        "HTTP/1.1 400" | "HTTP/1.0 400" => (
            "400 Bad Request",
            "the request is not well-formed HTTP: its request line or a header could not be read",
        ),
        "HTTP/1.1 414" | "HTTP/1.0 414" => (
            "414 URI Too Long",
            "the request's URL is too long; send long filters in a $batch request's body",
        ),
        "HTTP/1.1 431" | "HTTP/1.0 431" => (
            "431 Request Header Fields Too Large",
            "the request's headers are too many or too large",
        ),
        _ => return None,
    };
    let bodiless = head
        .split("\r\n")
        .any(|line| line.eq_ignore_ascii_case("content-length: 0"));
    if !bodiless {
        return None;
    }
    let code = match &status[..3] {
        "400" => "BadRequest",
        "414" => "UriTooLong",
        _ => "RequestHeaderFieldsTooLarge",
    };
    let body = serde_json::json!({
        "odata.error": {"code": code, "message": {"lang": "en-US", "value": message}}
    })
    .to_string();
    Some(
        format!(
            "HTTP/1.1 {status}\r\nContent-Type: application/json;charset=utf-8\r\n\
             DataServiceVersion: 3.0;\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

impl<S: AsyncWrite + Unpin> WithErrorBodies<S> {
    /// Writes what is pending of our answer; ready once none is left.
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while !self.pending.is_empty() {
            let written = ready!(Pin::new(&mut self.inner).poll_write(cx, &self.pending))?;
            if written == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.pending.drain(..written);
        }
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for WithErrorBodies<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for WithErrorBodies<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        ready!(self.poll_pending(cx))?;
        if buf.starts_with(b"HTTP/1.") {
            if let Some(ours) = replacement(buf) {
                self.pending = ours;
                // hyper's bytes count as written: ours stand in for them.
                let _ = self.poll_pending(cx)?;
                return Poll::Ready(Ok(buf.len()));
            }
        }
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    // Not vectored: hyper then writes a response's head as one buffer, which is
    // where a bodiless answer of its own is recognised.
    fn is_write_vectored(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hypers_bodiless_errors_are_replaced_and_nothing_else() {
        let hyper_400 = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\ndate: Thu, 26 Nov 2026 12:00:00 GMT\r\n\r\n";
        let ours = String::from_utf8(replacement(hyper_400).unwrap()).unwrap();
        assert!(ours.starts_with("HTTP/1.1 400 Bad Request\r\n"), "{ours}");
        assert!(ours.contains("\"odata.error\""), "{ours}");
        let body = ours.split("\r\n\r\n").nth(1).unwrap();
        assert!(ours.contains(&format!("Content-Length: {}\r\n", body.len())));
        for status in ["414 URI Too Long", "431 Request Header Fields Too Large"] {
            let head = format!("HTTP/1.1 {status}\r\ncontent-length: 0\r\n\r\n");
            assert!(replacement(head.as_bytes()).is_some(), "{status}");
        }
        for other in [
            &b"HTTP/1.1 400 Bad Request\r\ncontent-length: 120\r\n\r\n"[..],
            b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n{\"partial",
        ] {
            assert!(
                replacement(other).is_none(),
                "{}",
                String::from_utf8_lossy(other)
            );
        }
    }
}
