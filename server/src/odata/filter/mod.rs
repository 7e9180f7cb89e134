//! The `$filter` grammar of OData version 3 as far as this service uses it:
//! comparisons (`eq ne gt ge lt le`), `and`, `or`, `not`, parentheses, property paths
//! one navigation step deep, typed literals, and `Path/any()` (whether a navigation
//! path reaches anything; no lambda variables).
//!
//! Parsing produces a [`Filter`] tree; its `Display` prints the tree back in OData
//! syntax, so that a printed filter parses to the same tree. `lexer` reads tokens,
//! `literal` the literals that keys and bodies share, `parser` builds the tree.

mod error;
mod lexer;
mod literal;
mod parser;
mod tree;

pub use error::FilterError;
pub use literal::{parse_datetime, Literal};
pub use tree::{CompareOp, Filter, Operand, PropertyPath};

/// The longest `$filter` accepted, in bytes.
pub const MAX_FILTER_LEN: usize = 4096;

/// Parses one literal on its own (a key predicate's value): `12L`, `'O''Brien'`.
pub fn parse_literal(text: &str) -> Result<Literal, FilterError> {
    let mut tokens = lexer::lex(text)?.into_iter();
    match (tokens.next(), tokens.next()) {
        (Some((_, lexer::Token::Literal(literal))), None) => Ok(literal),
        _ => Err(error::error(0, format!("'{text}' is not a literal value"))),
    }
}

/// Parses a `$filter` value (already percent-decoded).
pub fn parse(text: &str) -> Result<Filter, FilterError> {
    if text.len() > MAX_FILTER_LEN {
        return Err(FilterError {
            position: MAX_FILTER_LEN,
            message: format!("longer than {MAX_FILTER_LEN} characters"),
        });
    }
    let mut parser = parser::Parser::new(lexer::lex(text)?, text.len());
    let filter = parser.or_expr()?;
    match parser.peek() {
        None => Ok(filter),
        Some((position, token)) => Err(FilterError {
            position,
            message: format!("unexpected {}", token.describe()),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compare(path: &str, op: CompareOp, literal: Literal) -> Filter {
        Filter::Compare {
            left: Operand::Property(PropertyPath::new(
                path.split('/').map(String::from).collect(),
            )),
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
    fn any_without_a_lambda_is_a_test_of_a_navigation_path() {
        let parsed = parse("Status eq 0 and not Question/Rubric/any()").unwrap();
        let any = Filter::Any(PropertyPath::new(vec!["Question".into(), "Rubric".into()]));
        assert_eq!(
            parsed,
            Filter::And(
                Box::new(compare("Status", CompareOp::Eq, Literal::Int32(0))),
                Box::new(Filter::Not(Box::new(any.clone())))
            )
        );
        assert_eq!(parse(&parsed.to_string()).unwrap(), parsed);
        assert_eq!(parsed.any_paths(), [any_path(&any)]);
        let lambda = parse("Rubric/any(r: r/MaxScore gt 2)").unwrap_err();
        assert!(lambda.message.contains("no lambda"), "{lambda}");
        assert!(parse("Rubric/any").unwrap_err().message.contains("'()'"));
        // A property named like the function is not a call on its own.
        assert!(parse("any eq 1").is_ok());
    }

    fn any_path(filter: &Filter) -> &PropertyPath {
        let Filter::Any(path) = filter else { panic!() };
        path
    }

    #[test]
    fn junk_is_refused_with_its_position() {
        let err = parse("Status eq 0; DROP TABLE results").unwrap_err();
        assert_eq!(err.position, 11);
    }
}
