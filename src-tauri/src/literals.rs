//! Text the UI sends, made safe to put in an OData URL.

use crate::error::CommandError;

/// An OData string literal: quoted, with quotes doubled.
pub fn literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// Checks that a key the UI sent is an Int64 in digits, so it cannot alter a URL.
pub fn int64_key(name: &str, value: &str) -> Result<String, CommandError> {
    key_number(name, value).map(|n| n.to_string())
}

/// A key the UI sent, as the number a JSON body carries.
pub fn key_number(name: &str, value: &str) -> Result<i64, CommandError> {
    value
        .parse::<i64>()
        .map_err(|_| CommandError::InvalidInput(format!("{name} '{value}' is not a number.")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_literals_double_their_quotes() {
        assert_eq!(literal("O'Brien group"), "'O''Brien group'");
    }

    #[test]
    fn keys_from_the_ui_must_be_numbers() {
        assert_eq!(int64_key("QuestionID", "42").unwrap(), "42");
        assert!(int64_key("QuestionID", "1)/Answers").is_err());
    }
}
