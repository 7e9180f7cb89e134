//! Property tests of `$filter` and `$orderby`: printing and parsing agree. The
//! generators are shared with the store's test that every literal reaches the
//! database as a bound parameter.

use proptest::prelude::*;

use super::edm::EdmType;
use super::filter::{parse, CompareOp, Filter, Literal, Operand, PropertyPath};
use super::orderby::{self, OrderKey};

/// Properties of every type, one of them a navigation path.
pub const PROPERTIES: &[(&str, EdmType)] = &[
    ("Status", EdmType::Int32),
    ("QuestionID", EdmType::Int64),
    ("ParticipantName", EdmType::String),
    ("Result/WhenFinished", EdmType::DateTime),
    ("StillGoing", EdmType::Boolean),
    ("PercentageScore", EdmType::Double),
];

fn literal_of(edm: EdmType) -> BoxedStrategy<Literal> {
    let value = match edm {
        EdmType::Int32 | EdmType::Int16 => any::<i32>().prop_map(Literal::Int32).boxed(),
        EdmType::Int64 => any::<i64>().prop_map(Literal::Int64).boxed(),
        EdmType::String => ".{0,12}".prop_map(Literal::String).boxed(),
        EdmType::DateTime => (0i64..4_102_444_800_000)
            .prop_map(Literal::DateTime)
            .boxed(),
        EdmType::Boolean => any::<bool>().prop_map(Literal::Boolean).boxed(),
        EdmType::Double => (-1_000_000i32..1_000_000)
            .prop_map(|n| Literal::Double(f64::from(n) / 1000.0))
            .boxed(),
    };
    prop_oneof![9 => value, 1 => Just(Literal::Null)].boxed()
}

fn comparison() -> impl Strategy<Value = Filter> {
    let op = prop_oneof![
        Just(CompareOp::Eq),
        Just(CompareOp::Ne),
        Just(CompareOp::Gt),
        Just(CompareOp::Ge),
        Just(CompareOp::Lt),
        Just(CompareOp::Le)
    ];
    (0..PROPERTIES.len(), op, any::<bool>()).prop_flat_map(|(index, op, literal_first)| {
        let (name, edm) = PROPERTIES[index];
        literal_of(edm).prop_map(move |literal| {
            let property = Operand::Property(PropertyPath::new(
                name.split('/').map(str::to_owned).collect(),
            ));
            let literal = Operand::Literal(literal);
            let (left, right) = if literal_first {
                (literal, property)
            } else {
                (property, literal)
            };
            Filter::Compare { left, op, right }
        })
    })
}

pub fn filter() -> impl Strategy<Value = Filter> {
    comparison().prop_recursive(5, 32, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Filter::And(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Filter::Or(Box::new(a), Box::new(b))),
            inner.prop_map(|f| Filter::Not(Box::new(f))),
        ]
    })
}

pub fn non_null_literals(filter: &Filter) -> usize {
    match filter {
        Filter::And(a, b) | Filter::Or(a, b) => non_null_literals(a) + non_null_literals(b),
        Filter::Not(inner) => non_null_literals(inner),
        Filter::Any(_) => 0,
        Filter::Compare { left, right, .. } => [left, right]
            .iter()
            .filter(|o| matches!(o, Operand::Literal(l) if *l != Literal::Null))
            .count(),
    }
}

fn order_key() -> impl Strategy<Value = OrderKey> {
    ((0..PROPERTIES.len()), any::<bool>()).prop_map(|(index, descending)| OrderKey {
        path: PropertyPath::new(PROPERTIES[index].0.split('/').map(str::to_owned).collect()),
        descending,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn any_generated_filter_prints_and_parses_back_to_the_same_tree(filter in filter()) {
        let printed = filter.to_string();
        prop_assert_eq!(parse(&printed).map_err(|e| TestCaseError::fail(e.to_string()))?, filter, "printed as {}", printed);
    }

    #[test]
    fn any_generated_orderby_prints_and_parses_back(keys in proptest::collection::vec(order_key(), 1..6)) {
        prop_assert_eq!(orderby::parse(&orderby::print(&keys)).map_err(TestCaseError::fail)?, keys);
    }
}
