//! A query checked against the declarations: every property path of `$filter` and
//! `$orderby` resolved to a declared property (on the entity set, or one to-one
//! navigation away), and every literal made a value of that property's type. What
//! may not be named, or a literal of the wrong type, is a 400 here; the store then
//! turns the typed query into SQL without anything left to refuse.

use super::edm::EdmType;
use super::filter::{CompareOp, Filter, Literal, Operand, PropertyPath};
use super::model::{EntitySet, Navigation, Property};
use super::orderby::OrderKey;
use super::path::Key;
use super::value::Value;
use super::ApiError;

/// Finds an entity set by name (the declarations the service serves).
pub type Lookup = fn(&str) -> Option<&'static EntitySet>;

/// A property a query names: on the entity set itself, or through `via`.
#[derive(Debug, Clone, Copy)]
pub struct PropertyRef {
    pub via: Option<&'static Navigation>,
    pub property: &'static Property,
}

impl PropertyRef {
    /// Whether the path can be null: a nullable property, or one reached through a
    /// navigation whose target may be missing.
    pub fn nullable(&self) -> bool {
        self.property.nullable || self.via.is_some_and(|navigation| !navigation.required)
    }
}

/// `$filter` with its properties resolved and its literals typed.
#[derive(Debug, Clone)]
pub enum Condition {
    /// `value` is [`Value::Null`] for a comparison with `null`.
    Compare {
        property: PropertyRef,
        op: CompareOp,
        value: Value,
    },
    And(Box<Condition>, Box<Condition>),
    Or(Box<Condition>, Box<Condition>),
    Not(Box<Condition>),
    /// `Path/any()`: the navigation steps from the set, every one but the last to
    /// one entity, the last to a collection.
    Exists(Vec<&'static Navigation>),
}

/// The most navigation steps an `any()` may follow.
const MAX_ANY_STEPS: usize = 2;

/// One `$orderby` key, resolved.
#[derive(Debug, Clone, Copy)]
pub struct OrderTerm {
    pub property: PropertyRef,
    pub descending: bool,
}

/// Resolves property paths of one entity set.
pub struct Paths {
    set: &'static EntitySet,
    lookup: Lookup,
}

impl Paths {
    pub fn new(set: &'static EntitySet, lookup: Lookup) -> Self {
        Self { set, lookup }
    }

    /// Every path `$filter` and `$orderby` accept on this set, for error messages.
    pub fn allowed(&self) -> Vec<String> {
        let mut paths: Vec<String> = self
            .set
            .filterable
            .iter()
            .map(|p| (*p).to_owned())
            .collect();
        for navigation in self.to_one_navigations() {
            if let Some(target) = (self.lookup)(navigation.target) {
                paths.extend(
                    target
                        .filterable
                        .iter()
                        .map(|p| format!("{}/{p}", navigation.name)),
                );
            }
        }
        paths
    }

    fn to_one_navigations(&self) -> impl Iterator<Item = &'static Navigation> + '_ {
        self.set
            .navigations
            .iter()
            .filter(|n| !n.many && n.through.is_none())
    }

    fn refuse(&self, path: &PropertyPath) -> ApiError {
        ApiError::bad_request(format!(
            "'{path}' cannot be used in $filter or $orderby on {}; the properties allowed are {}",
            self.set.name,
            self.allowed().join(", ")
        ))
    }

    /// The declared property behind `path`, or why it may not be named.
    pub fn resolve(&self, path: &PropertyPath) -> Result<PropertyRef, ApiError> {
        match path.segments() {
            [name] if self.set.filterable.contains(&name.as_str()) => Ok(PropertyRef {
                via: None,
                property: self
                    .set
                    .property(name)
                    .expect("filterable properties are declared"),
            }),
            [navigation, name] => {
                let navigation = self
                    .to_one_navigations()
                    .find(|n| n.name == *navigation)
                    .ok_or_else(|| self.refuse(path))?;
                let target =
                    (self.lookup)(navigation.target).expect("navigation targets are declared");
                if !target.filterable.contains(&name.as_str()) {
                    return Err(self.refuse(path));
                }
                Ok(PropertyRef {
                    via: Some(navigation),
                    property: target
                        .property(name)
                        .expect("filterable properties are declared"),
                })
            }
            _ => Err(self.refuse(path)),
        }
    }

    /// `$filter`, resolved and typed.
    pub fn condition(&self, filter: &Filter) -> Result<Condition, ApiError> {
        Ok(match filter {
            Filter::And(a, b) => {
                Condition::And(Box::new(self.condition(a)?), Box::new(self.condition(b)?))
            }
            Filter::Or(a, b) => {
                Condition::Or(Box::new(self.condition(a)?), Box::new(self.condition(b)?))
            }
            Filter::Not(inner) => Condition::Not(Box::new(self.condition(inner)?)),
            Filter::Any(path) => Condition::Exists(self.collection_path(path)?),
            Filter::Compare { left, op, right } => {
                let (path, op, literal) = match (left, right) {
                    (Operand::Property(path), Operand::Literal(literal)) => (path, *op, literal),
                    (Operand::Literal(literal), Operand::Property(path)) => {
                        (path, op.flipped(), literal)
                    }
                    _ => {
                        return Err(ApiError::bad_request(format!(
                            "$filter comparisons take a property and a literal: '{filter}'"
                        )))
                    }
                };
                let property = self.resolve(path)?;
                Condition::Compare {
                    property,
                    op,
                    value: literal_value(path, property.property.edm, literal)?,
                }
            }
        })
    }

    /// The navigations of an `any()` path: up to two steps, to-one steps first and
    /// a collection last (`Question/Rubric` from ScoringTasks).
    fn collection_path(&self, path: &PropertyPath) -> Result<Vec<&'static Navigation>, ApiError> {
        let refuse = |why: String| ApiError::bad_request(format!("'{path}/any()': {why}"));
        if path.segments().len() > MAX_ANY_STEPS {
            return Err(refuse(format!(
                "any() follows at most {MAX_ANY_STEPS} navigation steps"
            )));
        }
        let mut set = self.set;
        let mut steps = Vec::new();
        for (index, name) in path.segments().iter().enumerate() {
            let last = index + 1 == path.segments().len();
            let navigation = set
                .navigation(name)
                .filter(|n| n.through.is_none())
                .ok_or_else(|| {
                    refuse(format!("{} has no navigation '{name}' to follow", set.name))
                })?;
            if navigation.many != last {
                return Err(refuse(if last {
                    format!("'{name}' is a single entity; any() needs a collection")
                } else {
                    format!("'{name}' is a collection; only the last step may be one")
                }));
            }
            set = (self.lookup)(navigation.target).expect("navigation targets are declared");
            steps.push(navigation);
        }
        Ok(steps)
    }

    /// `$orderby`, resolved.
    pub fn order(&self, keys: &[OrderKey]) -> Result<Vec<OrderTerm>, ApiError> {
        keys.iter()
            .map(|key| {
                Ok(OrderTerm {
                    property: self.resolve(&key.path)?,
                    descending: key.descending,
                })
            })
            .collect()
    }
}

/// The literal as a value of type `edm` ([`Value::Null`] for `null`), or a 400 that
/// names the path and both types.
pub fn literal_value(
    path: &PropertyPath,
    edm: EdmType,
    literal: &Literal,
) -> Result<Value, ApiError> {
    let mismatch = || {
        let hint = match (edm, literal) {
            (EdmType::Int64, Literal::Int32(n)) => format!(" (write {n}L)"),
            _ => String::new(),
        };
        ApiError::bad_request(format!(
            "$filter compares '{path}' ({edm}) with {literal}, which is not of that type{hint}"
        ))
    };
    Ok(match (edm, literal) {
        (_, Literal::Null) => Value::Null,
        (EdmType::Boolean, Literal::Boolean(b)) => Value::Boolean(*b),
        (EdmType::Int16, Literal::Int32(n)) => {
            Value::Int16(i16::try_from(*n).map_err(|_| mismatch())?)
        }
        (EdmType::Int32, Literal::Int32(n)) => Value::Int32(*n),
        (EdmType::Int64, Literal::Int64(n)) => Value::Int64(*n),
        (EdmType::Double, Literal::Double(x)) => Value::Double(*x),
        (EdmType::Double, Literal::Int32(n)) => Value::Double(f64::from(*n)),
        (EdmType::String, Literal::String(s)) => Value::String(s.clone()),
        (EdmType::DateTime, Literal::DateTime(ms)) => Value::DateTime(*ms),
        _ => return Err(mismatch()),
    })
}

/// A key from the URL as typed values, one per key property.
pub fn key_values(key: &Key) -> Result<Vec<(&'static Property, Value)>, ApiError> {
    key.0
        .iter()
        .map(|(property, literal)| {
            let path = PropertyPath::new(vec![property.name.to_owned()]);
            match literal_value(&path, property.edm, literal)? {
                Value::Null => Err(ApiError::bad_request(format!(
                    "the key '{}' cannot be null",
                    property.name
                ))),
                value => Ok((*property, value)),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::odata::edm::EdmType::{Int32, Int64};
    use crate::odata::filter::parse;
    use crate::odata::model::{prop, READ_ONLY};

    static TASKS: EntitySet = EntitySet {
        name: "Tasks",
        type_name: "Task",
        table: "tasks",
        key: &["QuestionID"],
        properties: &[
            prop("QuestionID", "question_id", Int64, false),
            prop("Status", "status", Int32, false),
        ],
        navigations: &[],
        concurrency: None,
        filterable: &["QuestionID", "Status"],
        media: None,
        writes: READ_ONLY,
    };

    fn lookup(name: &str) -> Option<&'static EntitySet> {
        (name == "Tasks").then_some(&TASKS)
    }

    fn typed(filter: &str) -> Result<Condition, ApiError> {
        Paths::new(&TASKS, lookup).condition(&parse(filter).unwrap())
    }

    #[test]
    fn literals_become_values_of_the_propertys_type() {
        let Condition::Or(left, right) =
            typed("Status eq 3 or QuestionID eq 98765432123L").unwrap()
        else {
            panic!()
        };
        assert!(matches!(
            *left,
            Condition::Compare {
                value: Value::Int32(3),
                ..
            }
        ));
        assert!(matches!(
            *right,
            Condition::Compare {
                value: Value::Int64(98_765_432_123),
                ..
            }
        ));
    }

    #[test]
    fn an_int64_property_compared_with_an_int32_literal_asks_for_the_suffix() {
        let Err(ApiError::BadRequest(message)) = typed("QuestionID eq 5") else {
            panic!()
        };
        assert!(message.contains("5L"), "{message}");
    }

    #[test]
    fn a_property_not_allowed_is_refused_with_the_list_of_those_that_are() {
        let Err(ApiError::BadRequest(message)) = typed("Nope eq 1") else {
            panic!()
        };
        assert!(message.contains("QuestionID, Status"), "{message}");
    }

    #[test]
    fn null_is_a_value_of_any_type() {
        assert!(matches!(
            typed("Status eq null").unwrap(),
            Condition::Compare {
                value: Value::Null,
                ..
            }
        ));
    }
}
