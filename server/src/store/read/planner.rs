//! The columns of one entity set's queries, and the joins and FROM clause they need.

use sea_query::{Alias, Expr, JoinType, SelectStatement, SimpleExpr};

use super::sql::{all_of, column, join_alias, BASE};
use crate::model::area::CustomerArea;
use crate::odata::model::{EntitySet, Navigation};
use crate::odata::typed::{Lookup, PropertyRef};

/// The columns of one entity set's queries, and the joins they need.
pub struct Planner {
    set: &'static EntitySet,
    lookup: Lookup,
    /// The area read: a subquery on another table keeps to it too.
    pub area: CustomerArea,
    joins: Vec<&'static Navigation>,
    /// A navigation whose table leads the FROM clause (see `leading_navigation`).
    pub lead: Option<&'static Navigation>,
}

impl Planner {
    pub fn new(set: &'static EntitySet, lookup: Lookup, area: CustomerArea) -> Self {
        Self {
            set,
            lookup,
            area,
            joins: Vec::new(),
            lead: None,
        }
    }

    /// The column behind a resolved property; a property of a navigation's target is
    /// read through a join, unless it is copied onto this set's row.
    pub fn column_of(&mut self, property: &PropertyRef) -> SimpleExpr {
        let Some(navigation) = property.via else {
            return column(BASE, property.property.column);
        };
        if let Some((_, local)) = navigation
            .copied
            .iter()
            .find(|(name, _)| *name == property.property.name)
        {
            return column(BASE, local);
        }
        if !self.joins.iter().any(|n| n.name == navigation.name) {
            self.joins.push(navigation);
        }
        column(&join_alias(navigation), property.property.column)
    }

    pub fn target(&self, navigation: &Navigation) -> &'static EntitySet {
        (self.lookup)(navigation.target).expect("navigation targets are declared")
    }

    fn join_condition(navigation: &Navigation) -> SimpleExpr {
        let alias = join_alias(navigation);
        all_of(navigation.on.iter().map(|(near, far)| {
            Expr::expr(column(&alias, far)).equals((Alias::new(BASE), Alias::new(*near)))
        }))
    }

    /// FROM the base table, or (see `leading_navigation`) FROM the navigation's
    /// table CROSS JOIN the base table, which fixes SQLite's join order.
    pub fn apply_from(&self, select: &mut SelectStatement) {
        match self.lead {
            None => {
                select.from_as(Alias::new(self.set.table), Alias::new(BASE));
            }
            Some(navigation) => {
                select.from_as(
                    Alias::new(self.target(navigation).table),
                    Alias::new(join_alias(navigation)),
                );
                select.join_as(
                    JoinType::CrossJoin,
                    Alias::new(self.set.table),
                    Alias::new(BASE),
                    Self::join_condition(navigation),
                );
            }
        }
    }

    pub fn apply_joins(&self, select: &mut SelectStatement) {
        for navigation in self
            .joins
            .iter()
            .filter(|n| self.lead.is_none_or(|lead| lead.name != n.name))
        {
            let kind = if navigation.required {
                JoinType::InnerJoin
            } else {
                JoinType::LeftJoin
            };
            select.join_as(
                kind,
                Alias::new(self.target(navigation).table),
                Alias::new(join_alias(navigation)),
                Self::join_condition(navigation),
            );
        }
    }
}
