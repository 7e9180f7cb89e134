//! The literals of OData version 3 that `$filter`, key predicates and bodies share:
//! their forms (`12L`, `'O''Brien'`, `datetime'…'`), how they are read, and how they
//! print so that they read back the same.

use std::fmt;

use chrono::{DateTime, NaiveDateTime};

use super::error::{error, FilterError};

/// A typed literal. DateTime is milliseconds since the epoch, UTC.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    Null,
    Boolean(bool),
    Int32(i32),
    Int64(i64),
    Double(f64),
    String(String),
    DateTime(i64),
}

impl fmt::Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Literal::Null => f.write_str("null"),
            Literal::Boolean(b) => write!(f, "{b}"),
            Literal::Int32(n) => write!(f, "{n}"),
            Literal::Int64(n) => write!(f, "{n}L"),
            Literal::Double(x) => write!(f, "{x:?}d"),
            Literal::String(s) => write!(f, "'{}'", s.replace('\'', "''")),
            Literal::DateTime(ms) => {
                let at = DateTime::from_timestamp_millis(*ms)
                    .unwrap_or_default()
                    .naive_utc();
                write!(f, "datetime'{}'", at.format("%Y-%m-%dT%H:%M:%S%.3f"))
            }
        }
    }
}

/// Reads `'...'` starting at the quote; `''` stands for one quote.
pub(super) fn lex_quoted(text: &str, quote: usize) -> Result<(String, usize), FilterError> {
    let bytes = text.as_bytes();
    let mut value = String::new();
    let mut i = quote + 1;
    let mut run_start = i;
    loop {
        match bytes.get(i) {
            None => return Err(error(quote, "unterminated string literal")),
            Some(b'\'') if bytes.get(i + 1) == Some(&b'\'') => {
                value.push_str(&text[run_start..=i]);
                i += 2;
                run_start = i;
            }
            Some(b'\'') => {
                value.push_str(&text[run_start..i]);
                return Ok((value, i + 1));
            }
            Some(_) => i += 1,
        }
    }
}

pub(super) fn typed_literal(
    prefix: &str,
    value: &str,
    position: usize,
) -> Result<Literal, FilterError> {
    match prefix {
        "datetime" => parse_datetime(value).map(Literal::DateTime).ok_or_else(|| {
            error(
                position,
                format!("'{value}' is not a datetime (yyyy-mm-ddThh:mm[:ss[.fff]])"),
            )
        }),
        other => Err(error(position, format!("unknown literal type '{other}'"))),
    }
}

/// Parses an OData DateTime value: ISO 8601 without zone (UTC), or with `Z`.
pub fn parse_datetime(value: &str) -> Option<i64> {
    let value = value.strip_suffix('Z').unwrap_or(value);
    ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%dT%H:%M"]
        .iter()
        .find_map(|format| NaiveDateTime::parse_from_str(value, format).ok())
        .map(|at| at.and_utc().timestamp_millis())
}

pub(super) fn lex_number(text: &str, start: usize) -> Result<(Literal, usize), FilterError> {
    let bytes = text.as_bytes();
    let mut i = start;
    if bytes[i] == b'-' {
        i += 1;
    }
    let digits_start = i;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
    }
    if i == digits_start {
        return Err(error(start, "'-' must be followed by digits"));
    }
    let mut is_decimal = false;
    if i < bytes.len() && bytes[i] == b'.' {
        is_decimal = true;
        i += 1;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
    }
    let number = &text[start..i];
    let suffix = bytes.get(i).copied();
    let (literal, next) = match suffix {
        Some(b'L') | Some(b'l') if !is_decimal => {
            let n = number
                .parse::<i64>()
                .map_err(|_| error(start, format!("{number} does not fit in Edm.Int64")))?;
            (Literal::Int64(n), i + 1)
        }
        Some(b'd') | Some(b'D') | Some(b'm') | Some(b'M') | Some(b'f') | Some(b'F') => (
            Literal::Double(
                number
                    .parse::<f64>()
                    .map_err(|_| error(start, "malformed number"))?,
            ),
            i + 1,
        ),
        _ if is_decimal => (
            Literal::Double(
                number
                    .parse::<f64>()
                    .map_err(|_| error(start, "malformed number"))?,
            ),
            i,
        ),
        _ => {
            let n = number.parse::<i32>().map_err(|_| {
                error(start, format!("{number} does not fit in Edm.Int32 (an Edm.Int64 literal needs the L suffix)"))
            })?;
            (Literal::Int32(n), i)
        }
    };
    if next < bytes.len() && (bytes[next].is_ascii_alphanumeric() || bytes[next] == b'_') {
        return Err(error(
            start,
            format!("malformed number '{}'", &text[start..=next]),
        ));
    }
    Ok((literal, next))
}
