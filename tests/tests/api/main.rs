//! End-to-end tests over real HTTP, each on SQLite and on PostgreSQL.

mod auth;
mod health;
mod migrations;
mod scoring_task_count;
mod seeding;
mod storage;
