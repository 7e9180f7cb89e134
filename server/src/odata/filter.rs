//! The `$filter` grammar of OData version 3 as far as this service uses it:
//! comparisons (`eq ne gt ge lt le`), `and`, `or`, `not`, parentheses, property paths
//! one navigation step deep, and typed literals.
//!
//! Parsing produces a [`Filter`] tree; its `Display` prints the tree back in OData
//! syntax, so that a printed filter parses to the same tree.

use std::fmt;

use chrono::{DateTime, NaiveDateTime};

/// A parsed `$filter` expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Filter {
    Compare {
        left: Operand,
        op: CompareOp,
        right: Operand,
    },
    And(Box<Filter>, Box<Filter>),
    Or(Box<Filter>, Box<Filter>),
    Not(Box<Filter>),
}

impl Filter {
    /// Every property path the expression names (nesting is bounded by the parser).
    pub fn property_paths(&self) -> Vec<&PropertyPath> {
        let mut paths = Vec::new();
        self.collect_paths(&mut paths);
        paths
    }

    fn collect_paths<'a>(&'a self, paths: &mut Vec<&'a PropertyPath>) {
        match self {
            Filter::Compare { left, right, .. } => {
                for operand in [left, right] {
                    if let Operand::Property(path) = operand {
                        paths.push(path);
                    }
                }
            }
            Filter::And(a, b) | Filter::Or(a, b) => {
                a.collect_paths(paths);
                b.collect_paths(paths);
            }
            Filter::Not(inner) => inner.collect_paths(paths),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    Property(PropertyPath),
    Literal(Literal),
}

/// `Status` or `Group/Name`: a property, possibly one navigation step away.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PropertyPath(Vec<String>);

impl PropertyPath {
    pub fn segments(&self) -> &[String] {
        &self.0
    }

    pub fn new(segments: Vec<String>) -> Self {
        Self(segments)
    }
}

impl fmt::Display for PropertyPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.join("/"))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompareOp {
    Eq,
    Ne,
    Gt,
    Ge,
    Lt,
    Le,
}

impl CompareOp {
    fn keyword(self) -> &'static str {
        match self {
            CompareOp::Eq => "eq",
            CompareOp::Ne => "ne",
            CompareOp::Gt => "gt",
            CompareOp::Ge => "ge",
            CompareOp::Lt => "lt",
            CompareOp::Le => "le",
        }
    }

    fn from_keyword(word: &str) -> Option<Self> {
        Some(match word {
            "eq" => CompareOp::Eq,
            "ne" => CompareOp::Ne,
            "gt" => CompareOp::Gt,
            "ge" => CompareOp::Ge,
            "lt" => CompareOp::Lt,
            "le" => CompareOp::Le,
            _ => return None,
        })
    }

    /// The same comparison with its operands swapped (`5 lt X` is `X gt 5`).
    pub fn flipped(self) -> Self {
        match self {
            CompareOp::Gt => CompareOp::Lt,
            CompareOp::Ge => CompareOp::Le,
            CompareOp::Lt => CompareOp::Gt,
            CompareOp::Le => CompareOp::Ge,
            same => same,
        }
    }
}

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

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Property(path) => path.fmt(f),
            Operand::Literal(literal) => literal.fmt(f),
        }
    }
}

impl fmt::Display for Filter {
    /// Prints fully parenthesised binary operations, so precedence never changes the tree.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Filter::Compare { left, op, right } => write!(f, "{left} {} {right}", op.keyword()),
            Filter::And(a, b) => write!(f, "({a}) and ({b})"),
            Filter::Or(a, b) => write!(f, "({a}) or ({b})"),
            Filter::Not(inner) => write!(f, "not ({inner})"),
        }
    }
}

/// Why a filter did not parse, in words a client can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid $filter at position {position}: {message}")]
pub struct FilterError {
    pub position: usize,
    pub message: String,
}

/// The deepest nesting of parentheses and `not` accepted: deep enough for any real
/// query, shallow enough that a hostile one cannot exhaust the stack.
const MAX_DEPTH: usize = 32;

/// The longest `$filter` accepted, in bytes.
pub const MAX_FILTER_LEN: usize = 4096;

/// Parses a `$filter` value (already percent-decoded).
pub fn parse(text: &str) -> Result<Filter, FilterError> {
    if text.len() > MAX_FILTER_LEN {
        return Err(FilterError {
            position: MAX_FILTER_LEN,
            message: format!("longer than {MAX_FILTER_LEN} characters"),
        });
    }
    let tokens = lex(text)?;
    let mut parser = Parser {
        tokens,
        at: 0,
        depth: 0,
        end: text.len(),
    };
    let filter = parser.or_expr()?;
    match parser.peek() {
        None => Ok(filter),
        Some((position, token)) => Err(FilterError {
            position,
            message: format!("unexpected {}", token.describe()),
        }),
    }
}

/// Parses one literal on its own (a key predicate's value): `12L`, `'O''Brien'`.
pub fn parse_literal(text: &str) -> Result<Literal, FilterError> {
    let mut tokens = lex(text)?.into_iter();
    match (tokens.next(), tokens.next()) {
        (Some((_, Token::Literal(literal))), None) => Ok(literal),
        _ => Err(error(0, format!("'{text}' is not a literal value"))),
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Word(String),
    Literal(Literal),
    Open,
    Close,
    Slash,
}

impl Token {
    fn describe(&self) -> String {
        match self {
            Token::Word(w) => format!("'{w}'"),
            Token::Literal(l) => format!("literal {l}"),
            Token::Open => "'('".into(),
            Token::Close => "')'".into(),
            Token::Slash => "'/'".into(),
        }
    }
}

fn error(position: usize, message: impl Into<String>) -> FilterError {
    FilterError {
        position,
        message: message.into(),
    }
}

fn lex(text: &str) -> Result<Vec<(usize, Token)>, FilterError> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        match c {
            b' ' | b'\t' => i += 1,
            b'(' => {
                tokens.push((start, Token::Open));
                i += 1;
            }
            b')' => {
                tokens.push((start, Token::Close));
                i += 1;
            }
            b'/' => {
                tokens.push((start, Token::Slash));
                i += 1;
            }
            b'\'' => {
                let (value, next) = lex_quoted(text, i)?;
                tokens.push((start, Token::Literal(Literal::String(value))));
                i = next;
            }
            b'-' | b'0'..=b'9' => {
                let (literal, next) = lex_number(text, i)?;
                tokens.push((start, Token::Literal(literal)));
                i = next;
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                let word = &text[start..i];
                if i < bytes.len() && bytes[i] == b'\'' {
                    let (value, next) = lex_quoted(text, i)?;
                    tokens.push((start, Token::Literal(typed_literal(word, &value, start)?)));
                    i = next;
                } else {
                    let token = match word {
                        "null" => Token::Literal(Literal::Null),
                        "true" => Token::Literal(Literal::Boolean(true)),
                        "false" => Token::Literal(Literal::Boolean(false)),
                        _ => Token::Word(word.to_owned()),
                    };
                    tokens.push((start, token));
                }
            }
            _ => {
                let shown = text[i..].chars().next().unwrap_or('?');
                return Err(error(start, format!("unexpected character '{shown}'")));
            }
        }
    }
    Ok(tokens)
}

/// Reads `'...'` starting at the quote; `''` stands for one quote.
fn lex_quoted(text: &str, quote: usize) -> Result<(String, usize), FilterError> {
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

fn typed_literal(prefix: &str, value: &str, position: usize) -> Result<Literal, FilterError> {
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

fn lex_number(text: &str, start: usize) -> Result<(Literal, usize), FilterError> {
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

struct Parser {
    tokens: Vec<(usize, Token)>,
    at: usize,
    depth: usize,
    end: usize,
}

impl Parser {
    fn peek(&self) -> Option<(usize, &Token)> {
        self.tokens.get(self.at).map(|(p, t)| (*p, t))
    }

    fn position(&self) -> usize {
        self.peek().map(|(p, _)| p).unwrap_or(self.end)
    }

    fn next_is_word(&self, word: &str) -> bool {
        matches!(self.peek(), Some((_, Token::Word(w))) if w == word)
    }

    fn descend(&mut self) -> Result<(), FilterError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(error(
                self.position(),
                format!("nested deeper than {MAX_DEPTH} levels"),
            ));
        }
        Ok(())
    }

    fn or_expr(&mut self) -> Result<Filter, FilterError> {
        let mut left = self.and_expr()?;
        while self.next_is_word("or") {
            self.at += 1;
            let right = self.and_expr()?;
            left = Filter::Or(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn and_expr(&mut self) -> Result<Filter, FilterError> {
        let mut left = self.not_expr()?;
        while self.next_is_word("and") {
            self.at += 1;
            let right = self.not_expr()?;
            left = Filter::And(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn not_expr(&mut self) -> Result<Filter, FilterError> {
        if self.next_is_word("not") {
            self.at += 1;
            self.descend()?;
            let inner = self.not_expr()?;
            self.depth -= 1;
            return Ok(Filter::Not(Box::new(inner)));
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Result<Filter, FilterError> {
        if let Some((_, Token::Open)) = self.peek() {
            self.at += 1;
            self.descend()?;
            let inner = self.or_expr()?;
            self.depth -= 1;
            match self.peek() {
                Some((_, Token::Close)) => {
                    self.at += 1;
                    return Ok(inner);
                }
                _ => return Err(error(self.position(), "missing ')'")),
            }
        }
        let left = self.operand()?;
        let op_position = self.position();
        let op = match self.peek() {
            Some((_, Token::Word(word))) => CompareOp::from_keyword(word).ok_or_else(|| {
                error(
                    op_position,
                    format!("expected a comparison (eq ne gt ge lt le), found '{word}'"),
                )
            })?,
            Some((_, token)) => {
                return Err(error(
                    op_position,
                    format!(
                        "expected a comparison (eq ne gt ge lt le), found {}",
                        token.describe()
                    ),
                ))
            }
            None => {
                return Err(error(
                    op_position,
                    "expected a comparison (eq ne gt ge lt le) at the end",
                ))
            }
        };
        self.at += 1;
        let right = self.operand()?;
        Ok(Filter::Compare { left, op, right })
    }

    fn operand(&mut self) -> Result<Operand, FilterError> {
        let position = self.position();
        match self.peek() {
            Some((_, Token::Literal(literal))) => {
                let literal = literal.clone();
                self.at += 1;
                Ok(Operand::Literal(literal))
            }
            Some((_, Token::Word(word))) if !is_keyword(word) => {
                let mut segments = vec![word.clone()];
                self.at += 1;
                while let Some((_, Token::Slash)) = self.peek() {
                    self.at += 1;
                    match self.peek() {
                        Some((_, Token::Word(next))) if !is_keyword(next) => {
                            segments.push(next.clone());
                            self.at += 1;
                        }
                        _ => {
                            return Err(error(
                                self.position(),
                                "expected a property name after '/'",
                            ))
                        }
                    }
                }
                Ok(Operand::Property(PropertyPath(segments)))
            }
            Some((_, token)) => Err(error(
                position,
                format!(
                    "expected a property or a literal, found {}",
                    token.describe()
                ),
            )),
            None => Err(error(
                position,
                "expected a property or a literal at the end",
            )),
        }
    }
}

fn is_keyword(word: &str) -> bool {
    matches!(
        word,
        "and" | "or" | "not" | "eq" | "ne" | "gt" | "ge" | "lt" | "le"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compare(path: &str, op: CompareOp, literal: Literal) -> Filter {
        Filter::Compare {
            left: Operand::Property(PropertyPath(path.split('/').map(String::from).collect())),
            op,
            right: Operand::Literal(literal),
        }
    }

    #[test]
    fn a_status_comparison_parses() {
        assert_eq!(
            parse("Status eq 0").unwrap(),
            compare("Status", CompareOp::Eq, Literal::Int32(0))
        );
    }

    #[test]
    fn and_binds_tighter_than_or() {
        let parsed = parse("Status eq 0 or Status eq 1 and Group/Name eq 'A'").unwrap();
        let expected = Filter::Or(
            Box::new(compare("Status", CompareOp::Eq, Literal::Int32(0))),
            Box::new(Filter::And(
                Box::new(compare("Status", CompareOp::Eq, Literal::Int32(1))),
                Box::new(compare(
                    "Group/Name",
                    CompareOp::Eq,
                    Literal::String("A".into()),
                )),
            )),
        );
        assert_eq!(parsed, expected);
    }

    #[test]
    fn a_doubled_quote_is_one_quote_in_a_string() {
        assert_eq!(
            parse("ParticipantName eq 'O''Brien'").unwrap(),
            compare(
                "ParticipantName",
                CompareOp::Eq,
                Literal::String("O'Brien".into())
            )
        );
    }

    #[test]
    fn int64_literals_need_the_l_suffix() {
        assert_eq!(
            parse("AssessmentID eq 5L").unwrap(),
            compare("AssessmentID", CompareOp::Eq, Literal::Int64(5))
        );
        let err = parse("AssessmentID eq 2185231530264478").unwrap_err();
        assert!(err.message.contains("L suffix"), "{err}");
    }

    #[test]
    fn datetimes_are_read_as_utc_milliseconds() {
        let parsed = parse("WhenFinished gt datetime'2026-11-21T09:30:00.250'").unwrap();
        assert_eq!(
            parsed,
            compare(
                "WhenFinished",
                CompareOp::Gt,
                Literal::DateTime(1_795_253_400_250)
            )
        );
    }

    #[test]
    fn printing_and_parsing_again_gives_the_same_tree() {
        let text = "not (Status eq 0) and (Group/Name eq 'It''s' or WhenFinished le datetime'2026-01-02T03:04:05.006')";
        let once = parse(text).unwrap();
        assert_eq!(parse(&once.to_string()).unwrap(), once);
    }

    #[test]
    fn unbalanced_parentheses_are_refused() {
        assert!(parse("(Status eq 0").unwrap_err().message.contains("')'"));
        assert!(parse("Status eq 0)").is_err());
    }

    #[test]
    fn hostile_nesting_is_refused_without_exhausting_the_stack() {
        let text = format!("{}Status eq 0{}", "(".repeat(10_000), ")".repeat(10_000));
        assert!(parse(&text).is_err());
        let nots = format!("{}Status eq 0", "not ".repeat(1000));
        assert!(parse(&nots).unwrap_err().message.contains("deeper"));
    }

    #[test]
    fn junk_is_refused_with_its_position() {
        let err = parse("Status eq 0; DROP TABLE results").unwrap_err();
        assert_eq!(err.position, 11);
    }
}
