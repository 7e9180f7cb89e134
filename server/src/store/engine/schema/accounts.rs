//! The tables of customer areas, their accounts, the print-link signing key.
#![allow(missing_docs)]

use sea_query::Iden;

#[derive(Iden, Clone, Copy)]
pub enum Customers {
    Table,
    Id,
    Name,
    RetentionDays,
    CreatedAt,
}

#[derive(Iden, Clone, Copy)]
pub enum Accounts {
    Table,
    Id,
    CustomerId,
    Username,
    PasswordHash,
    Role,
    CreatedAt,
}

/// The key printable links are signed with (migration 12); one row, ID 1.
#[derive(Iden, Clone, Copy)]
pub enum SigningKeys {
    Table,
    Id,
    Secret,
    CreatedAt,
}
