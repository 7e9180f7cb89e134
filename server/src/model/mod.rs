//! The domain, knowing nothing of HTTP: roles and what they may do, question kinds,
//! result finalisation, and a result's scores.

pub mod access;
pub mod agreement;
pub mod answer_groups;
pub mod area;
pub mod choice_scoring;
pub mod comment_bank;
pub mod content;
pub mod delivery_use;
pub mod fill_in;
pub mod finalise;
pub mod flags;
pub mod marker_statistics;
pub mod marking_guide;
pub mod marking_rounds;
pub mod matching;
pub mod pauses;
pub mod people;
pub mod points;
pub mod progress;
pub mod purge;
pub mod question_kind;
pub mod report;
pub mod result_scores;
pub mod result_status;
pub mod roster;
pub mod rubric;
pub mod scoring;
pub mod scoring_rule;
pub mod second_marking;
pub mod seed_figures;
pub mod seeds;
pub mod snapshot;
pub mod statistics;
pub mod typed_number;
pub mod upload;
