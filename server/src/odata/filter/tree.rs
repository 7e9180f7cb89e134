//! The tree a `$filter` parses to, and how it prints back in OData syntax.

use std::fmt;

use super::literal::Literal;

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
    /// `Question/Rubric/any()`: whether the navigation path reaches any entity. The
    /// path holds navigation names only (the `any` is not kept).
    Any(PropertyPath),
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
            Filter::Any(_) => {}
        }
    }

    /// Every navigation path an `any()` follows.
    pub fn any_paths(&self) -> Vec<&PropertyPath> {
        match self {
            Filter::Compare { .. } => Vec::new(),
            Filter::And(a, b) | Filter::Or(a, b) => {
                let mut paths = a.any_paths();
                paths.extend(b.any_paths());
                paths
            }
            Filter::Not(inner) => inner.any_paths(),
            Filter::Any(path) => vec![path],
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

    pub fn from_keyword(word: &str) -> Option<Self> {
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
            Filter::Any(path) => write!(f, "{path}/any()"),
        }
    }
}
