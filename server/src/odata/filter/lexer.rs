//! The tokens of a `$filter`: words, literals, parentheses and slashes, each with the
//! position it starts at.

use super::error::{error, FilterError};
use super::literal::{lex_number, lex_quoted, typed_literal, Literal};

#[derive(Debug, Clone, PartialEq)]
pub enum Token {
    Word(String),
    Literal(Literal),
    Open,
    Close,
    Slash,
    /// Only ever in a lambda (`any(r: ...)`), which the parser refuses by name.
    Colon,
}

impl Token {
    pub fn describe(&self) -> String {
        match self {
            Token::Word(w) => format!("'{w}'"),
            Token::Literal(l) => format!("literal {l}"),
            Token::Open => "'('".into(),
            Token::Close => "')'".into(),
            Token::Slash => "'/'".into(),
            Token::Colon => "':'".into(),
        }
    }
}

/// Splits `text` into tokens.
pub fn lex(text: &str) -> Result<Vec<(usize, Token)>, FilterError> {
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
            b':' => {
                tokens.push((start, Token::Colon));
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
