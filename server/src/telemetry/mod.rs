//! Structured logs with `tracing` (the level comes from `RUST_LOG`, default
//! `info`), and the Prometheus metrics served at `/metrics` ([`metrics`]).
//!
//! Log lines carry what clients sent (user names, hosts, paths). In the `pretty`
//! format every field is written with its control characters escaped, so that a
//! user name holding CR, LF or an ANSI escape cannot forge a line or recolour a
//! terminal; the `json` format escapes them as JSON does.

pub mod metrics;

use std::fmt::Write as _;
use std::io::IsTerminal;

use tracing_subscriber::field::MakeExt;
use tracing_subscriber::fmt::format::{debug_fn, Writer};
use tracing_subscriber::EnvFilter;

use crate::config::LogFormat;

/// Installs the global log subscriber once; later calls do nothing.
pub fn init(format: LogFormat) {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn"));
    // Colours only for a person at a terminal, never into a file or a journal.
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Json => builder.json().try_init(),
        LogFormat::Pretty => builder
            .fmt_fields(
                debug_fn(|writer: &mut Writer<'_>, field, value| {
                    let text = escaped(&format!("{value:?}"));
                    match field.name() {
                        "message" => writer.write_str(&text),
                        name => write!(writer, "{name}={text}"),
                    }
                })
                .delimited(" "),
            )
            .try_init(),
    };
}

/// `text` with every control character (CR, LF, ESC, ...) written as `\u{..}`.
pub fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(
            escaped("ann\r\n2026-11-26 INFO forged\u{1b}[31m ü"),
            "ann\\u{d}\\u{a}2026-11-26 INFO forged\\u{1b}[31m ü"
        );
    }
}
