//! End-to-end tests over real HTTP, each on SQLite and on PostgreSQL.

// A test binary: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used)]

mod access_matrix;
mod answer_sheets;
mod atom_formats;
mod atom_support;
mod auth;
mod batch;
mod batches_and_attempts;
mod bounded_work;
mod comment_bank;
mod content_import;
mod content_import_hostile;
mod delivery_retire;
mod dimension_levels;
mod dimension_score_put;
mod exports;
mod feeds;
mod formats;
mod health;
mod links;
mod malformed;
mod metrics;
mod migrations;
mod odata_js;
mod paging;
mod print_links;
mod print_pdf;
mod progress_feed;
mod protocol_findings;
mod purges;
mod pyodata;
mod pyslet;
mod qti_packages;
mod query_plans;
mod results_admin;
mod rosters;
mod rubric_authoring;
mod scoring_bodies;
mod scoring_events;
mod scoring_result_put;
mod scoring_results;
mod scoring_support;
mod scoring_task_count;
mod scoring_task_put;
mod scoring_task_reads;
mod scoring_workflow;
mod seeding;
mod sheet_corpus;
mod sheet_scans;
mod sheet_wide_questions;
mod snapshots;
mod statistics_feed;
mod storage;
mod uploads;
