//! A page's statement with its `LIMIT` and `OFFSET` written into the text as
//! numbers, not bound as parameters.
//!
//! Why: PostgreSQL plans a prepared statement for its bound values ("custom
//! plans") until a plan made without them is estimated no dearer. With `LIMIT $n`
//! the plan without values must assume a tenth of the table is wanted, so it is
//! estimated thousands of times dearer than the custom plan of `LIMIT 51`, and
//! PostgreSQL went on planning Q1 again at every execution: about 40 % of its CPU
//! for that read (docs/benchmarks.md, "Q1 planned once on PostgreSQL"). With the
//! numbers in the text, the plan made once is the custom plan, and kept. They are
//! integers we produce (`$top`, the page size, `$skip`), never text from a client,
//! and each distinct page size is its own statement (the statement memo keys on
//! the limit already).

use sea_query::{QueryBuilder, SelectStatement};
use sea_query_binder::{SqlxBinder, SqlxValues};

/// A `SELECT` that ends where its `LIMIT` goes (no `LIMIT`, `OFFSET` or locking
/// clause of its own), and the page's bounds.
pub struct PagedSelect {
    pub select: SelectStatement,
    pub limit: u64,
    pub offset: Option<u64>,
}

impl PagedSelect {
    /// The statement with every value written in (tests of plans and SQL).
    pub fn to_string<T: QueryBuilder>(&self, builder: T) -> String {
        self.with_bounds(self.select.to_string(builder))
    }

    fn with_bounds(&self, mut sql: String) -> String {
        use std::fmt::Write;
        // Both dialects take `LIMIT n OFFSET m` in this order.
        write!(sql, " LIMIT {}", self.limit).expect("writing to a String");
        if let Some(offset) = self.offset {
            write!(sql, " OFFSET {offset}").expect("writing to a String");
        }
        sql
    }
}

impl SqlxBinder for PagedSelect {
    fn build_sqlx<T: QueryBuilder>(&self, builder: T) -> (String, SqlxValues) {
        let (sql, values) = self.select.build_sqlx(builder);
        (self.with_bounds(sql), values)
    }

    fn build_any_sqlx(&self, builder: &dyn QueryBuilder) -> (String, SqlxValues) {
        let (sql, values) = self.select.build_any_sqlx(builder);
        (self.with_bounds(sql), values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sea_query::{Alias, Expr, PostgresQueryBuilder, Query, SqliteQueryBuilder};

    fn page(offset: Option<u64>) -> PagedSelect {
        let mut select = Query::select();
        select
            .column(Alias::new("id"))
            .from(Alias::new("results"))
            .and_where(Expr::col(Alias::new("customer_id")).eq(7))
            .order_by(Alias::new("id"), sea_query::Order::Asc);
        PagedSelect {
            select,
            limit: 51,
            offset,
        }
    }

    #[test]
    fn the_bounds_are_numbers_in_the_text_and_the_filter_stays_bound() {
        let (sql, values) = page(Some(200)).build_sqlx(PostgresQueryBuilder);
        assert_eq!(
            sql,
            r#"SELECT "id" FROM "results" WHERE "customer_id" = $1 ORDER BY "id" ASC LIMIT 51 OFFSET 200"#
        );
        assert_eq!(values.0 .0.len(), 1, "only the area is a parameter");
        let (sql, _) = page(None).build_sqlx(SqliteQueryBuilder);
        assert!(sql.ends_with(r#"ORDER BY "id" ASC LIMIT 51"#), "{sql}");
        assert_eq!(
            page(None).to_string(SqliteQueryBuilder),
            r#"SELECT "id" FROM "results" WHERE "customer_id" = 7 ORDER BY "id" ASC LIMIT 51"#
        );
    }
}
