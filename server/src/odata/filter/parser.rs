//! A recursive-descent parser over the tokens: `or` binds loosest, then `and`, then
//! `not`, then comparisons; nesting is bounded by `MAX_DEPTH`.

use super::error::{error, FilterError};
use super::lexer::Token;
use super::tree::{CompareOp, Filter, Operand, PropertyPath};

/// The deepest nesting of parentheses and `not` accepted: deep enough for any real
/// query, shallow enough that a hostile one cannot exhaust the stack.
const MAX_DEPTH: usize = 32;

pub struct Parser {
    tokens: Vec<(usize, Token)>,
    at: usize,
    depth: usize,
    end: usize,
}

impl Parser {
    pub fn new(tokens: Vec<(usize, Token)>, end: usize) -> Self {
        Self {
            tokens,
            at: 0,
            depth: 0,
            end,
        }
    }

    pub fn peek(&self) -> Option<(usize, &Token)> {
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

    pub fn or_expr(&mut self) -> Result<Filter, FilterError> {
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
        if let Some(any) = self.any_call(&left)? {
            return Ok(any);
        }
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

    /// `Path/any()` once its path has been read as an operand: the last segment is
    /// `any` and `()` follows. A lambda (`any(x: ...)`) is refused by name.
    fn any_call(&mut self, left: &Operand) -> Result<Option<Filter>, FilterError> {
        let Operand::Property(path) = left else {
            return Ok(None);
        };
        let Some((last, navigations)) = path.segments().split_last() else {
            return Ok(None);
        };
        if last != "any" || navigations.is_empty() {
            return Ok(None);
        }
        if !matches!(self.peek(), Some((_, Token::Open))) {
            return Err(error(self.position(), "expected '()' after 'any'"));
        }
        self.at += 1;
        if !matches!(self.peek(), Some((_, Token::Close))) {
            return Err(error(
                self.position(),
                "any() takes no lambda expression here; write 'Path/any()'",
            ));
        }
        self.at += 1;
        Ok(Some(Filter::Any(PropertyPath::new(navigations.to_vec()))))
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
                Ok(Operand::Property(PropertyPath::new(segments)))
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
